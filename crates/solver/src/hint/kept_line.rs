//! A winning line kept between hints.
//!
//! Two searches from neighbouring positions may find lines that lead back
//! into each other: the line from A starts with a move to B, the line from B
//! with the move back to A. A player who presses H and plays what it shows
//! would then go round in circles for ever. So once a search finds a win, the
//! whole line is remembered; while the player stays on it (following the
//! hint, or undoing back along it) the next hint is the line's next move,
//! checked again by replaying the rest of the line to a win.

use patience_engine::{Move, Position};

use crate::replays_to_win;

/// The remembered line: each move with the hash of the position it is played from.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    steps: Vec<(u64, Move)>,
}

impl Plan {
    /// Remembers `moves`, a winning line from `pos`.
    pub fn remember(&mut self, pos: &Position, moves: &[Move]) {
        self.steps.clear();
        let mut p = pos.clone();
        for &m in moves {
            let hash = p.hash();
            if p.apply(m).is_err() {
                self.steps.clear();
                return;
            }
            self.steps.push((hash, m));
        }
    }

    /// The line's move from `pos`, when `pos` lies on the line and the rest
    /// of the line still replays to a win from it.
    pub fn next(&self, pos: &Position) -> Option<Move> {
        let at = self.steps.iter().position(|(h, _)| *h == pos.hash())?;
        let rest: Vec<Move> = self.steps[at..].iter().map(|(_, m)| *m).collect();
        replays_to_win(pos, &rest).then_some(rest[0])
    }

    /// The rest of the line from `pos`, when `pos` lies on it (not checked
    /// by replay: [`Plan::next`] is).
    pub fn rest(&self, pos: &Position) -> Option<Vec<Move>> {
        let at = self.steps.iter().position(|(h, _)| *h == pos.hash())?;
        Some(self.steps[at..].iter().map(|(_, m)| *m).collect())
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{hint_with_plan, Budget, Hint};

    /// Following hints with a plan walks one line to a win, never revisiting a
    /// position. In Blondes and Brunettes fresh searches at each step sent the
    /// follower back and forth on this deal, so it never won.
    #[test]
    fn following_planned_hints_wins_without_going_back() {
        let spec = patience_engine::game("blondes-and-brunettes").unwrap();
        let mut pos = Position::deal(spec, 2).unwrap();
        let budget = Budget {
            nodes: Some(300_000),
            ..Default::default()
        };
        let mut plan = Plan::default();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            if pos.is_won() {
                return;
            }
            assert!(
                seen.insert(pos.hash()),
                "a planned hint led back to a position"
            );
            match hint_with_plan(&pos, &budget, &mut plan, &Default::default()) {
                Hint::Solution(m) => {
                    pos.apply(m).unwrap();
                }
                other => panic!("deal 2 is winnable, yet the hint said {other:?}"),
            }
        }
        panic!("no win after 2000 hinted moves");
    }

    #[test]
    fn a_position_off_the_line_gets_no_planned_move() {
        let spec = patience_engine::game("fan").unwrap();
        let pos = Position::deal(spec, 1).unwrap();
        let other = Position::deal(spec, 2).unwrap();
        let mut plan = Plan::default();
        let first = pos.legal_moves()[0];
        // Not a winning line: remembered, but `next` refuses it on replay.
        plan.remember(&pos, &[first]);
        assert_eq!(plan.next(&pos), None);
        assert_eq!(plan.next(&other), None);
    }
}
