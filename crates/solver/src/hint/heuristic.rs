//! The move a hint offers when the search runs out of budget.
//!
//! The documented heuristic, in order:
//! 1. If the spent search reached positions with more cards on the foundations
//!    than now, the first move of the line that reached the most (the search
//!    tries promising moves first, so this line is its best lead).
//! 2. Otherwise a one-move look-ahead: each legal move is played and the
//!    position it gives is scored by [`evaluate`]; the best score wins, ties
//!    going to the engine's move order. A redeal is offered only when nothing
//!    else can be played.
//!
//! Neither offers a move back to a position the game has already stood in
//! while another move leads somewhere new: a heuristic move that undoes an
//! earlier one would send a player who follows the hints round in circles
//! (`docs/solver.md` has the figures, from the `follow_ends` example).

use std::collections::HashSet;

use patience_engine::{Move, Position};

/// Static score of a position: cards on the foundations count most, then
/// cards that can go there at once, then how many moves are open, less the
/// cards lying above a card that goes home before them in a fan (each of
/// those must leave its fan before the lower card can reach its foundation).
pub fn evaluate(pos: &Position) -> i64 {
    let layout = pos.layout();
    let mut score = 1000 * pos.foundation_cards() as i64;
    let moves = pos.legal_moves();
    score += 5 * moves.iter().filter(|m| **m != Move::Redeal).count() as i64;
    let home = pos.home_cards();
    for t in layout.tableau_ids() {
        if let Some(c) = pos.top(t) {
            if home.contains(c) {
                score += 100;
            }
        }
        let pile = pos.pile(t);
        for (i, &x) in pile.iter().enumerate() {
            if pile[..i].iter().any(|&y| pos.goes_home_before(y, x)) {
                score -= 20;
            }
        }
    }
    score
}

/// The heuristic move from `pos`, given the spent search's best line and
/// the hashes of the positions the game has stood in (`passed`).
pub fn choose(pos: &Position, best_line: &[Move], passed: &HashSet<u64>) -> Option<Move> {
    let mut work = pos.clone();
    let mut leads_back = |m: Move| match work.apply(m) {
        Ok(undo) => {
            let back = passed.contains(&work.hash());
            work.undo(&undo);
            back
        }
        Err(_) => true,
    };
    if let Some(&first) = best_line.first() {
        if !leads_back(first) {
            return Some(first);
        }
    }
    let moves = pos.legal_moves();
    let new: Vec<Move> = moves.iter().copied().filter(|&m| !leads_back(m)).collect();
    // Somewhere new if any move goes there; else any move at all.
    let pool = if new.is_empty() { &moves } else { &new };
    best_by_look_ahead(pos, pool).or_else(|| pool.first().copied())
}

/// The move of `moves` (a redeal aside) whose position [`evaluate`] scores
/// best, ties going to the first.
fn best_by_look_ahead(pos: &Position, moves: &[Move]) -> Option<Move> {
    let mut work = pos.clone();
    let mut best: Option<(i64, Move)> = None;
    for &m in moves.iter().filter(|m| **m != Move::Redeal) {
        let Ok(undo) = work.apply(m) else { continue };
        let s = evaluate(&work);
        work.undo(&undo);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use patience_engine::{game, Position};

    use super::choose;

    /// From a position one move after another, the heuristic never offers
    /// the move back while any other move leads somewhere new.
    #[test]
    fn never_back_to_a_position_passed_while_another_move_is_new() {
        let mut checked = 0;
        for id in ["krakowski", "fan", "house-in-the-woods"] {
            let spec = game(id).unwrap();
            for deal in 1..=20 {
                let start = Position::deal(spec, deal).unwrap();
                let mut pos = start.clone();
                let mut passed = HashSet::from([pos.hash()]);
                for _ in 0..30 {
                    let Some(m) = choose(&pos, &[], &passed) else {
                        break;
                    };
                    let mut next = pos.clone();
                    next.apply(m).unwrap();
                    let somewhere_new = pos.legal_moves().into_iter().any(|o| {
                        let mut q = pos.clone();
                        q.apply(o).is_ok() && !passed.contains(&q.hash())
                    });
                    if somewhere_new {
                        assert!(
                            !passed.contains(&next.hash()),
                            "{id} deal {deal}: {m:?} leads back"
                        );
                        checked += 1;
                    }
                    passed.insert(next.hash());
                    pos = next;
                }
            }
        }
        assert!(checked > 500, "{checked} moves checked");
    }
}
