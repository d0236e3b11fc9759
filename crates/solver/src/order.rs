//! Move ordering: which child the depth-first search tries first.
//!
//! Ordering never changes an answer, only how soon a win is found. The score
//! favours, in this order: a card to a foundation (from a flank cell above
//! all, since that frees the cell); a move that uncovers a card that can go to
//! a foundation at once; a move that uncovers a card close to its foundation;
//! emptying a fan (where an empty fan takes a king); plain table moves; a
//! deal from the stock (before a flank-cell move that uncovers nothing
//! useful: measured on Nivernaise deals 1..40, it wins more within a budget);
//! moves to a flank cell; the draw; and a redeal last, so that a deal is
//! played out before it is given up.

use patience_engine::{Card, Move, PileKind, Position};

/// Whether some foundation takes `card` now.
fn goes_home(pos: &Position, card: Card) -> bool {
    pos.layout()
        .foundation_ids()
        .any(|f| pos.foundation_takes(f, card))
}

/// Scores `mv` in `pos`; higher is tried first.
pub fn score(pos: &Position, mv: Move) -> i32 {
    score_near(pos, mv, None)
}

/// As [`score`], reading how near cards are to home off `near` when given
/// (games with foundations building down, see [`crate::near`]), else off
/// their rank.
pub fn score_near(pos: &Position, mv: Move, near: Option<&crate::near::Nearness>) -> i32 {
    let layout = pos.layout();
    match mv {
        Move::Redeal => -10_000,
        Move::Deal => -300,
        Move::Draw { to, .. } => match layout.kind(to) {
            Some(PileKind::Foundation(_)) => 200,
            _ => -2_000,
        },
        Move::Step { from, to } => {
            let from_kind = layout.kind(from);
            let to_kind = layout.kind(to);
            let mut s = match to_kind {
                Some(PileKind::Foundation(_)) => {
                    1_000
                        + match from_kind {
                            Some(PileKind::Cell(_)) => 200,
                            _ => 0,
                        }
                }
                Some(PileKind::Cell(_)) => -500,
                _ => 0,
            };
            if matches!(from_kind, Some(PileKind::Tableau(_))) {
                let pile = pos.pile(from);
                let moved = if pos.spec().moves_runs {
                    pos.check(mv).unwrap_or(1)
                } else {
                    1
                };
                if pile.len() > moved {
                    let exposed = pile[pile.len() - moved - 1];
                    if goes_home(pos, exposed) {
                        s += 400;
                    }
                    // Cards near the foundations lying in this fan.
                    let low = pile[..pile.len() - moved]
                        .iter()
                        .map(|&c| near.map_or(pos.spec().order(c) as i32, |n| n[c.index()] as i32))
                        .min()
                        .unwrap_or(13);
                    s += (8 - low).max(0) * 15;
                } else {
                    s += 60;
                    if matches!(to_kind, Some(PileKind::Tableau(_))) && pos.pile(to).is_empty() {
                        // A lone card to an empty fan is not offered by the engine; anything
                        // here uncovers something.
                        s -= 60;
                    }
                }
            }
            s
        }
    }
}

/// Sorts `moves` best first (stable: ties keep the engine's order), using
/// `scratch` so that no node allocates.
pub fn sort(pos: &Position, moves: &mut [Move], scratch: &mut Vec<(i32, Move)>) {
    if moves.len() < 2 {
        return;
    }
    scratch.clear();
    let near = crate::near::applies(pos).then(|| crate::near::nearness(pos));
    scratch.extend(
        moves
            .iter()
            .map(|&m| (score_near(pos, m, near.as_ref()), m)),
    );
    scratch.sort_by_key(|a| std::cmp::Reverse(a.0));
    for (slot, &(_, m)) in moves.iter_mut().zip(scratch.iter()) {
        *slot = m;
    }
}

/// As [`sort`], for moves that carry something along (the search's child
/// keys): the same order, the payload kept with its move.
pub fn sort_with<T: Copy>(
    pos: &Position,
    moves: &mut [(Move, T)],
    scratch: &mut Vec<(i32, Move, T)>,
) {
    if moves.len() < 2 {
        return;
    }
    scratch.clear();
    scratch.extend(moves.iter().map(|&(m, t)| (score(pos, m), m, t)));
    scratch.sort_by_key(|a| std::cmp::Reverse(a.0));
    for (slot, &(_, m, t)) in moves.iter_mut().zip(scratch.iter()) {
        *slot = (m, t);
    }
}
