//! Move ordering: which child the depth-first search tries first.
//!
//! Ordering never changes an answer, only how soon a win is found. The score
//! favours, in this order: a card to a foundation (from a flank cell above
//! all, since that frees the cell); a move that uncovers a card that can go to
//! a foundation at once; a move that uncovers a card close to its foundation;
//! emptying a fan (where an empty fan takes a king); plain table moves; a
//! deal from the stock (before a flank-cell move that uncovers nothing
//! useful: that wins more Nivernaise deals within a budget);
//! moves to a flank cell; the draw; and a redeal last, so that a deal is
//! played out before it is given up.

use patience_engine::{HomeCards, Move, PileKind, Position};

use crate::search::nearness::{self, Nearness};

/// What scoring reads of the position once for all its moves: the cards a
/// foundation takes now, and how near cards are to home where the game
/// builds down as well (see [`crate::search::nearness`]; else their rank).
pub struct Scoring {
    home: HomeCards,
    near: Option<Nearness>,
}

impl Scoring {
    /// The scoring of `pos`'s moves.
    pub fn of(pos: &Position) -> Scoring {
        Scoring {
            home: pos.home_cards(),
            near: nearness::applies(pos).then(|| nearness::nearness(pos)),
        }
    }
}

/// Scores `mv` in `pos`, with what `scoring` read of `pos` once; higher is
/// tried first.
pub fn score(pos: &Position, mv: Move, scoring: &Scoring) -> i32 {
    let near = scoring.near.as_ref();
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
                let moved = if !pos.spec().moves_one_card() {
                    pos.check(mv).unwrap_or(1)
                } else {
                    1
                };
                if pile.len() > moved {
                    let exposed = pile[pile.len() - moved - 1];
                    if scoring.home.contains(exposed) {
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

/// Sorts `moves` best first by [`score`] (stable: ties keep the
/// engine's order), each with what it carries along (the search's child
/// keys), using `scratch` so that no node allocates.
pub fn sort_with<T: Copy>(
    pos: &Position,
    moves: &mut [(Move, T)],
    scratch: &mut Vec<(i32, Move, T)>,
) {
    if moves.len() < 2 {
        return;
    }
    scratch.clear();
    let scoring = Scoring::of(pos);
    scratch.extend(moves.iter().map(|&(m, t)| (score(pos, m, &scoring), m, t)));
    scratch.sort_by_key(|a| std::cmp::Reverse(a.0));
    for (slot, &(_, m, t)) in moves.iter_mut().zip(scratch.iter()) {
        *slot = (m, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::prng::SplitMix64;

    /// The search's order reads nearness where the game builds both ways
    /// (a merge once dropped it there and cost Nivernaise wins).
    #[test]
    fn the_search_order_reads_nearness_in_nivernaise() {
        let spec = patience_engine::game("nivernaise").unwrap();
        let mut rng = SplitMix64::new(7);
        let mut checked = 0;
        for deal in 1..=4u64 {
            let mut p = Position::deal(spec, deal).unwrap();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                assert!(crate::search::nearness::applies(&p));
                let scoring = Scoring::of(&p);
                assert!(scoring.near.is_some());
                let mut with: Vec<(Move, ())> = moves.iter().map(|&m| (m, ())).collect();
                sort_with(&p, &mut with, &mut Vec::new());
                let scores: Vec<i32> = with.iter().map(|&(m, _)| score(&p, m, &scoring)).collect();
                assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
                checked += 1;
                let m = moves[rng.below(moves.len() as u64) as usize];
                p.apply(m).unwrap();
            }
        }
        assert!(checked > 100);
    }
}
