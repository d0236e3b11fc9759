//! The table's automatic moves home, and a solver's winning line as the
//! table will play it.
//!
//! An automatic move is a foundation move the engine proves keeps every win
//! of the deal ([`Safety::KeepsEveryWin`], the rule the solver itself plays
//! as a forced move): a card nothing can ever be built on, that no other
//! foundation could want, leaving no pile the game refills at once, and
//! gathered by no redeal still to come. So a winnable position stays
//! winnable through every automatic move, in every game, redeals, draws and
//! two decks included.
//!
//! A winning line found for a position is rewritten into the line the table
//! plays ([`table_line`]): after each move of the line, the automatic moves
//! the table makes, and the line's own later moves of those cards dropped.
//! A hint taken from the rewritten line is therefore a move of the position
//! the player will reach, and following hints with automatic moves on wins
//! exactly where following them without does.

use std::collections::HashMap;

use patience_engine::{Move, PileId, PileKind, Position, Safety};

/// The automatic move of `pos`, if it has one: the first foundation move the
/// engine proves loses no win.
pub fn auto_move(pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    pos.safe_home_move(&moves, Safety::KeepsEveryWin)
}

/// A move of a line as the table plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub mv: Move,
    /// Played by the table after the player's move before it.
    pub auto: bool,
}

/// `line`, a winning line from `pos`, as the table plays it with automatic
/// moves on. `None` when the rewritten line does not replay to a win (it
/// always should: see the module documentation; the replay is the proof).
pub fn table_line(pos: &Position, line: &[Move]) -> Option<Vec<Step>> {
    let mut solver = pos.clone(); // the line as found
    let mut table = pos.clone(); // the line as the table plays it
                                 // Per pile, how many cards on top of it along the solver's line the table
                                 // has sent home already. Nothing is ever built on such a card, so they
                                 // stay on top until the line moves them.
    let mut ahead: HashMap<PileId, usize> = HashMap::new();
    let mut out = Vec::with_capacity(line.len());
    let is_foundation =
        |p: &Position, id: PileId| matches!(p.layout().kind(id), Some(PileKind::Foundation(_)));
    for &mv in line {
        let carried = solver.check(mv).ok()?;
        // A move of cards the table already sent home is dropped; a run
        // carrying them on top moves without them.
        let mut skip = false;
        if let Move::Step { from, to } = mv {
            let k = ahead.get(&from).copied().unwrap_or(0);
            if k > 0 {
                let moved = carried.min(k);
                skip = carried <= k;
                ahead.insert(from, k - moved);
                if !is_foundation(&solver, to) {
                    *ahead.entry(to).or_default() += moved;
                }
            }
        }
        solver.apply(mv).ok()?;
        if skip {
            continue;
        }
        let played = match table.apply(mv) {
            Ok(_) => mv,
            Err(_) => {
                // The foundation it meant may hold the card the table sent
                // there; an alike one takes it instead.
                let Move::Step { from, to } = mv else {
                    return None;
                };
                if !is_foundation(&table, to) {
                    return None;
                }
                let other = table.legal_moves().into_iter().find(|m| {
                    matches!(m, Move::Step { from: f, to: t } if *f == from && is_foundation(&table, *t))
                })?;
                table.apply(other).ok()?;
                other
            }
        };
        out.push(Step {
            mv: played,
            auto: false,
        });
        while let Some(a) = auto_move(&table) {
            let Move::Step { from, .. } = a else {
                return None;
            };
            let card = table.top(from)?;
            table.apply(a).ok()?;
            out.push(Step { mv: a, auto: true });
            // Where the solver's line holds that card now: the same pile, just
            // under the cards of it the table sent home before.
            let k = ahead.get(&from).copied().unwrap_or(0);
            let pile = solver.pile(from);
            if pile.len() <= k || pile[pile.len() - 1 - k] != card {
                return None;
            }
            ahead.insert(from, k + 1);
        }
        if table.is_won() {
            break;
        }
    }
    let moves: Vec<Move> = out.iter().map(|s| s.mv).collect();
    patience_solver::replays_to_win(pos, &moves).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_solver::{solve, Budget, Outcome};

    /// Solved lines of several games, rewritten, replay to a win from their
    /// position, and no position along them has an automatic move the line
    /// does not play next.
    #[test]
    fn a_rewritten_line_is_the_tables_and_still_wins() {
        let mut checked = 0;
        for game in [
            "la-belle-lucie",
            "krug",
            "house-in-the-woods",
            "fan",
            "novomanernaya",
        ] {
            let spec = patience_engine::game(game).unwrap();
            for deal in 1..=6 {
                let pos = Position::deal(spec, deal).unwrap();
                let Outcome::Win(line) = solve(&pos, &Budget::of_nodes(400_000)).outcome else {
                    continue;
                };
                let steps = table_line(&pos, &line)
                    .unwrap_or_else(|| panic!("{game} {deal}: a winning line rewrites"));
                let mut p = pos.clone();
                for (i, s) in steps.iter().enumerate() {
                    p.apply(s.mv).unwrap();
                    if let Some(a) = auto_move(&p) {
                        assert_eq!(
                            steps.get(i + 1).map(|n| (n.mv, n.auto)),
                            Some((a, true)),
                            "{game} {deal}"
                        );
                    }
                }
                assert!(p.is_won());
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} deals solved");
    }
}
