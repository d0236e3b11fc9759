//! A winning line found by playing, where the search runs out.
//!
//! The person-like player ([`crate::levels::person`]) wins some positions
//! that an exhaustive search cannot decide within a hint's budget: House in
//! the Woods deal 132 is graded Easy (the player wins 10 of 20 games), yet
//! 15,000,000 positions of search leave it undecided. A game the player wins
//! is a winning line, every move applied by the engine, so it is as much a
//! proof as the search's; the hint then shows its first move as a solution
//! and keeps the line, instead of a heuristic move that may go round in
//! circles.

use std::time::Instant;

use patience_engine::{Move, Position};

use crate::levels::{move_limit, play_recorded, PersonPlayer};

/// Person-like games tried from an undecided position: the player wins an
/// Easy deal at least half the time, so four games miss one seldom.
pub const GAMES: u64 = 4;

/// The moves of the first of [`GAMES`] person-like games from `pos` that
/// wins, or `None`; every game ends (not won) at `deadline`. The games'
/// seeds come from the position, so a position gets the same games every time.
pub fn find(pos: &Position, deadline: Option<Instant>) -> Option<Vec<Move>> {
    let max_moves = move_limit(pos.spec());
    (0..GAMES).find_map(|game| {
        let player = PersonPlayer::new(pos.hash().wrapping_add(game));
        let (played, moves) = play_recorded(pos, player, max_moves, deadline);
        played.won.then_some(moves)
    })
}

#[cfg(test)]
mod tests {
    use patience_engine::{game, Position};

    use super::find;

    #[test]
    fn a_played_line_wins_when_replayed() {
        // House in the Woods deal 132: undecided by the search within a
        // hint's budget, won by the person-like player half the time.
        let pos = Position::deal(game("house-in-the-woods").unwrap(), 132).unwrap();
        let line = find(&pos, None).expect("one of four games wins deal 132");
        let mut p = pos.clone();
        for m in line {
            p.apply(m).expect("every move of the line is legal");
        }
        assert!(p.is_won());
    }

    #[test]
    fn a_lost_position_gives_no_line() {
        // Krakowski deal 2: the search proves it lost within 3,000 positions.
        let pos = Position::deal(game("krakowski").unwrap(), 2).unwrap();
        assert_eq!(find(&pos, None), None);
    }
}
