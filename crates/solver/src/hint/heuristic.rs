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

/// The heuristic move from `pos`, given the spent search's best line.
pub fn choose(pos: &Position, best_line: &[Move]) -> Option<Move> {
    if let Some(&first) = best_line.first() {
        return Some(first);
    }
    let moves = pos.legal_moves();
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
    best.map(|(_, m)| m).or_else(|| moves.first().copied())
}
