//! The canonical key of a position: a 128-bit hash that is equal for positions
//! that play alike, so the transposition table recognises them.
//!
//! Each pile's cards are hashed in order (bottom first, one random key per
//! height and card); the pile's sum is then put through a non-linear finaliser
//! salted with the pile's *class*, and the classes are added together. Where
//! the piles of a class are interchangeable the salt is the same for all of
//! them, so the sum does not depend on which pile holds which cards:
//!
//! - **Foundations** of the same rule (the two spade foundations of a two-deck
//!   game, the eight any-suit foundations of Blondes and Brunettes) are
//!   interchangeable: nothing in the rules names a foundation but by its rule,
//!   and the only cross-reference (`last_after_open`, Nivernaise) is between
//!   foundations of different rules.
//! - **Flank cells** (Nivernaise) are interchangeable: a cell card only goes to
//!   a foundation, and a card goes to the first empty cell.
//! - **Tableau piles** are interchangeable when nothing still to come depends
//!   on their order ([`tableau_order_free`]): no Nivernaise deal (three cards
//!   round by round, left to right) is left, and no redeal is left that gathers
//!   in order. The shuffled redeals sort the gathered cards before shuffling,
//!   so they depend only on the set of cards left, never on the order. Refills
//!   from the stock happen the moment a pile empties, so at most one pile is
//!   empty while the stock lasts and the refill order never matters.
//! - Reserve, waste and stock are positional; the redeals used and the draw
//!   are hashed too.
//!
//! Two different classes of positions collide only by a 128-bit accident
//! (about 2^-128 for a pair; far below 10^-20 for a billion positions), which
//! is the price of storing 16 bytes a state instead of the whole layout.

use std::sync::OnceLock;

use patience_engine::prng::{mix64, SplitMix64};
use patience_engine::{Gather, PileKind, Position, StockAction};

/// Highest pile height with its own keys; higher cards reuse them (a pile of
/// more than 128 cards cannot occur: the largest pack is 104).
const HEIGHTS: usize = 128;

/// A canonical key.
pub type Key = u128;

struct Keys {
    /// `card[height * 56 + card index]`.
    card: Vec<u128>,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = SplitMix64::new(0x5eed_5017_e4c0_ffee);
        let card = (0..HEIGHTS * 56)
            .map(|_| (rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
            .collect();
        Keys { card }
    })
}

/// Non-linear finaliser: mixes a pile's linear sum with its class salt.
#[inline]
fn finish(h: u128, salt: u64) -> u128 {
    let a = h as u64 ^ salt;
    let b = (h >> 64) as u64;
    let x = mix64(a ^ b.rotate_left(23));
    let y = mix64(b.wrapping_add(a.rotate_left(41)) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (x as u128) << 64 | y as u128
}

#[inline]
fn pile_sum(cards: &[patience_engine::Card], k: &Keys) -> u128 {
    let mut h: u128 = 0;
    for (i, c) in cards.iter().enumerate() {
        h = h.wrapping_add(k.card[(i % HEIGHTS) * 56 + c.index()]);
    }
    h
}

/// Whether the order of the tableau piles can no longer matter (see the module
/// documentation).
pub fn tableau_order_free(pos: &Position) -> bool {
    let spec = pos.spec();
    let layout = pos.layout();
    let stock_empty = layout.stock.is_none_or(|s| pos.pile(s).is_empty());
    let deals_left = spec.stock_action == StockAction::ThreeToEachPile && !stock_empty;
    let redeal_in_order = pos.redeals_left() > 0 && spec.redeals.gather != Gather::Shuffled;
    !deals_left && !redeal_in_order
}

/// Per-game facts the key needs, worked out once per search.
pub struct Canon {
    /// For each foundation, the salt of its rule class.
    foundation_salt: Vec<u64>,
}

const SALT_TABLEAU_FREE: u64 = 0x1000;
const SALT_TABLEAU_AT: u64 = 0x2000;
const SALT_FOUNDATION: u64 = 0x3000;
const SALT_CELL: u64 = 0x4000;
const SALT_OTHER: u64 = 0x5000;
const SALT_COUNTERS: u64 = 0x6000;

impl Canon {
    pub fn new(pos: &Position) -> Canon {
        let rules = &pos.spec().foundations;
        let foundation_salt = (0..rules.len())
            .map(|i| {
                let class = rules.iter().position(|r| *r == rules[i]).unwrap_or(i);
                SALT_FOUNDATION + class as u64
            })
            .collect();
        Canon { foundation_salt }
    }

    /// The canonical key of `pos`.
    pub fn key(&self, pos: &Position) -> Key {
        let k = keys();
        let layout = pos.layout();
        let free = tableau_order_free(pos);
        let mut total: u128 = finish(
            (pos.redeals_used() as u128) << 1 | pos.draw_used() as u128,
            SALT_COUNTERS,
        );
        for (i, cards) in pos.piles().iter().enumerate() {
            if cards.is_empty() {
                continue;
            }
            let salt = match layout.kind(patience_engine::PileId(i as u8)) {
                Some(PileKind::Tableau(t)) if !free => SALT_TABLEAU_AT + t as u64,
                Some(PileKind::Tableau(_)) => SALT_TABLEAU_FREE,
                Some(PileKind::Foundation(f)) => self.foundation_salt[f as usize],
                Some(PileKind::Cell(_)) => SALT_CELL,
                _ => SALT_OTHER + i as u64,
            };
            total = total.wrapping_add(finish(pile_sum(cards, k), salt));
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::{game, Move};

    fn lucie(text: &str) -> Position {
        Position::from_text(text, Some("la-belle-lucie")).unwrap()
    }

    #[test]
    fn fan_order_is_ignored_only_where_it_cannot_matter() {
        let a = lucie("AS 2S 3S\nKH QH JH\n").with_redeals_left(0).unwrap();
        let b = lucie("KH QH JH\nAS 2S 3S\n").with_redeals_left(0).unwrap();
        assert_ne!(a, b);
        let canon = Canon::new(&a);
        assert_eq!(canon.key(&a), canon.key(&b));
        // Shuffled redeals sort the cards first: order is free with redeals left too.
        let a2 = lucie("AS 2S 3S\nKH QH JH\n");
        let b2 = lucie("KH QH JH\nAS 2S 3S\n");
        assert_eq!(canon.key(&a2), canon.key(&b2));
        // Different cards in a fan give a different key.
        let c = lucie("AS 3S 2S\nKH QH JH\n").with_redeals_left(0).unwrap();
        assert_ne!(canon.key(&a), canon.key(&c));
        // Redeals left are part of the key.
        assert_ne!(canon.key(&a), canon.key(&a2));
    }

    #[test]
    fn in_order_redeals_keep_the_fan_order() {
        let spec = game("trilistnik").unwrap();
        let p = Position::deal(spec, 7).unwrap();
        let mut q = p.clone();
        // Swap the first two fans: another position for an in-order redeal.
        let mut piles: Vec<Vec<_>> = q.piles().to_vec();
        piles.swap(0, 1);
        q = Position::from_parts(spec, 7, piles.clone(), 0, false).unwrap();
        let canon = Canon::new(&p);
        assert_ne!(canon.key(&p), canon.key(&q));
        // With no redeal left the order no longer matters.
        let p0 = p.with_redeals_left(0).unwrap();
        let q0 = q.with_redeals_left(0).unwrap();
        assert_eq!(canon.key(&p0), canon.key(&q0));
    }

    #[test]
    fn keys_follow_moves_and_undo() {
        let spec = game("house-in-the-woods").unwrap();
        let mut p = Position::deal(spec, 3).unwrap();
        let canon = Canon::new(&p);
        let k0 = canon.key(&p);
        let moves = p.legal_moves();
        let mut seen = vec![k0];
        for m in moves.iter().filter(|m| !matches!(m, Move::Redeal)) {
            let u = p.apply(*m).unwrap();
            let k = canon.key(&p);
            assert!(!seen.contains(&k), "distinct children, distinct keys");
            seen.push(k);
            p.undo(&u);
            assert_eq!(canon.key(&p), k0);
        }
    }
}
