//! Where a search asks a costly dead-position test: the piles' order
//! ([`super::pile_order`]) and the stock's order ([`super::stock_order`]),
//! each a small search of a relaxed game asked after each card turned.
//!
//! A test's worth differs from deal to deal and from one stock height to
//! the next: on Krakowski deal 1 at 5,000,000 positions nearly every piles'
//! order test at 18 to 25 stock cards spends its whole budget and finds
//! nothing, while on deal 21 nine in ten at an empty stock find the
//! position dead. So a search keeps one [`Asking`] a test, and counts per
//! stock height the tests it asked and those that found a position dead;
//! at a height where [`RARE_ASKED`] tests have been asked and fewer than one
//! in the test's own threshold ([`RARE`] for the piles' order) found one
//! dead, it asks the test at one position in [`RARE_EVERY`] only. A test not asked cuts nothing and calls nothing
//! dead, so this changes what the search costs, never what it proves; the
//! counts are the search's own, so a node budget still answers the same on
//! every machine.

use patience_engine::Position;

/// Tests asked at a stock height before [`Asking`] judges their rate there.
pub const RARE_ASKED: u32 = 512;

/// A stock height where fewer than one piles' order test in this many
/// found a position dead is one where the test is rarely of use.
pub const RARE: u32 = 64;

/// Where a test is rarely of use, it is asked at one position in this
/// many. With [`RARE_ASKED`] and [`RARE`], the setting that decided the
/// most of the Krakowski deals of 1..100 left unknown at 1 s, solved at
/// 10 s with the piles' order test (every 8, 16 or 32, one in 16 or 64, and
/// that test's budget of 40, 100 or 300 relaxed positions tried).
pub const RARE_EVERY: u32 = 8;

/// Most stock cards a tally is kept for; a deeper stock is never asked.
const HEIGHTS: usize = 128;

/// A search's record of where one test was asked and what it found.
#[derive(Clone, Debug)]
pub struct Asking {
    /// Fewer than one test in this many finding a position dead makes a
    /// stock height one where the test is rarely of use.
    rare: u32,
    /// Per stock height (cards left in the stock): tests asked, positions
    /// found dead, and positions the test was not asked at.
    at: [Tally; HEIGHTS + 1],
}

/// One stock height's tests.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    asked: u32,
    dead: u32,
    passed: u32,
}

impl Default for Asking {
    /// A record for a test rarely of use below one dead position in
    /// [`RARE`].
    fn default() -> Self {
        Asking::rare_below(RARE)
    }
}

impl Asking {
    /// A record for a test rarely of use below one dead position in
    /// `rare` tests.
    pub fn rare_below(rare: u32) -> Asking {
        Asking {
            rare,
            at: [Tally::default(); HEIGHTS + 1],
        }
    }

    /// Whether `pos` is dead by `test`, where this search still asks the
    /// test at its stock height; `false` where it does not.
    pub fn ask(&mut self, pos: &Position, test: impl FnOnce(&Position) -> bool) -> bool {
        let Some(h) = self.at.get_mut(pos.stock_len()) else {
            return false;
        };
        if h.asked >= RARE_ASKED && h.dead * self.rare < h.asked {
            h.passed += 1;
            if !h.passed.is_multiple_of(RARE_EVERY) {
                return false;
            }
        }
        h.asked += 1;
        let dead = test(pos);
        h.dead += dead as u32;
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::game;

    /// A search asks a test at every position of a stock height until it
    /// has asked it [`RARE_ASKED`] times there; where it found too few
    /// positions dead, at one in [`RARE_EVERY`] after that (a dead position
    /// among the others is then missed, never called alive when asked);
    /// where it found enough, at every position still. Other heights keep
    /// their own counts.
    #[test]
    fn a_test_rarely_of_use_at_a_stock_height_is_asked_there_less_often() {
        let spec = game("krakowski").unwrap();
        let p = Position::deal(spec, 1).unwrap();
        let mut deeper = p.clone();
        deeper.apply(patience_engine::Move::Deal).unwrap();
        assert_ne!(p.stock_len(), deeper.stock_len());

        let mut rare = Asking::default();
        for _ in 0..RARE_ASKED {
            assert!(!rare.ask(&p, |_| false));
        }
        let found: Vec<bool> = (0..2 * RARE_EVERY)
            .map(|_| rare.ask(&p, |_| true))
            .collect();
        assert_eq!(found.iter().filter(|&&d| d).count(), 2, "{found:?}");
        assert!(found[RARE_EVERY as usize - 1], "{found:?}");
        // Another height is asked as before.
        assert!(rare.ask(&deeper, |_| true));

        // One dead in RARE: still asked at every position.
        let mut useful = Asking::default();
        for i in 0..RARE_ASKED {
            let dead = i % RARE == 0;
            assert_eq!(useful.ask(&p, |_| dead), dead);
        }
        assert!((0..RARE_EVERY).all(|_| useful.ask(&p, |_| true)));
    }
}
