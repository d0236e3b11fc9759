//! Where a depth-first search spends its positions: counted only when the
//! solver is built with the `profile` feature, and written to stderr as each
//! depth-first search ends. Without the feature every function here is empty
//! and the search carries no counter.
//!
//! Each new position (one the transposition table had not seen) is counted
//! by the cards left in the face-down stock, the cards on the waste and the
//! cards home; each child cut as dead by the stock cards left. That says
//! where in the game a search that runs out spends its budget
//! (`docs/solver.md`, *Where the search runs out*):
//!
//! ```text
//! cargo run --release -p patience-cli --features patience-solver/profile -- \
//!     solve krakowski --deal 2 --nodes 15000000
//! ```
//!
//! One line a search: its width (`None` for a full search), positions
//! counted, how it ended; then the counts, stock cards left one by one up to
//! 15 and then in tens, waste in fives, home in eights.
//!
//! With the feature a search can also keep a sample of its new positions at
//! one stock height ([`sample_at`], [`sampled`]): `examples/subtrees.rs`
//! searches each again to see which of them hold the search's positions.

use patience_engine::Position;

#[cfg(feature = "profile")]
mod on {
    use super::Position;
    use std::cell::RefCell;

    /// Counts of one search: new positions by stock, waste and home cards,
    /// dead children by stock cards.
    pub(super) struct Counts {
        pub stock: [u64; 128],
        pub waste: [u64; 128],
        pub home: [u64; 128],
        pub dead: [u64; 128],
    }

    /// The positions kept at one stock height: one new position in `every`.
    pub(super) struct Sample {
        pub stock: usize,
        pub every: u64,
        pub met: u64,
        pub kept: Vec<Position>,
    }

    thread_local! {
        pub(super) static SAMPLE: RefCell<Option<Sample>> = const { RefCell::new(None) };
        pub(super) static COUNTS: RefCell<Counts> = const {
            RefCell::new(Counts { stock: [0; 128], waste: [0; 128], home: [0; 128], dead: [0; 128] })
        };
    }

    /// Cards in the stock and on the waste.
    pub(super) fn talon(pos: &Position) -> (usize, usize) {
        let l = pos.layout();
        let len = |p: Option<_>| p.map_or(0, |p| pos.pile(p).len()).min(127);
        (len(l.stock), len(l.waste))
    }

    /// `h` summed in buckets of `w`, the empty buckets at the end left off.
    pub(super) fn buckets(h: &[u64], w: usize) -> String {
        let mut v: Vec<u64> = h.chunks(w).map(|c| c.iter().sum()).collect();
        while v.last() == Some(&0) {
            v.pop();
        }
        v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    }

    /// Stock counts one by one to 15, then in tens from 16.
    pub(super) fn stock(h: &[u64]) -> String {
        format!(
            "{} | from 16 in tens: {}",
            buckets(&h[..16], 1),
            buckets(&h[16..], 10)
        )
    }
}

/// Counts a new position reached by a depth-first search.
#[inline]
pub fn new_position(pos: &Position) {
    #[cfg(feature = "profile")]
    on::COUNTS.with(|c| {
        let mut c = c.borrow_mut();
        let (stock, waste) = on::talon(pos);
        c.stock[stock] += 1;
        c.waste[waste] += 1;
        c.home[pos.foundation_cards().min(127)] += 1;
        on::SAMPLE.with_borrow_mut(|s| {
            if let Some(s) = s.as_mut().filter(|s| s.stock == stock) {
                if s.met % s.every == 0 {
                    s.kept.push(pos.clone());
                }
                s.met += 1;
            }
        });
    });
    #[cfg(not(feature = "profile"))]
    let _ = pos;
}

/// Counts a child found dead.
#[inline]
pub fn dead(pos: &Position) {
    #[cfg(feature = "profile")]
    on::COUNTS.with(|c| c.borrow_mut().dead[on::talon(pos).0] += 1);
    #[cfg(not(feature = "profile"))]
    let _ = pos;
}

/// Writes the counts of the search that just ended (its `width`, `nodes`
/// and how it `ended`) and clears them.
#[inline]
pub fn report(width: Option<usize>, nodes: u64, ended: &str) {
    #[cfg(feature = "profile")]
    on::COUNTS.with(|c| {
        let mut c = c.borrow_mut();
        eprintln!(
            "profile: width {width:?}, {nodes} positions, {ended}, {} new\n  new by stock: {}\n  new by waste (fives): {}\n  new by home (eights): {}\n  dead by stock: {}",
            c.stock.iter().sum::<u64>(),
            on::stock(&c.stock),
            on::buckets(&c.waste, 5),
            on::buckets(&c.home, 8),
            on::stock(&c.dead),
        );
        *c = on::Counts { stock: [0; 128], waste: [0; 128], home: [0; 128], dead: [0; 128] };
    });
    #[cfg(not(feature = "profile"))]
    let _ = (width, nodes, ended);
}

/// Keeps, from now on in this thread, one new position in `every` (the
/// first, then every `every`-th) that the searches meet with `stock` cards
/// left in the stock. Only with the `profile` feature: without it nothing
/// is kept.
pub fn sample_at(stock: usize, every: u64) {
    #[cfg(feature = "profile")]
    on::SAMPLE.with_borrow_mut(|s| {
        *s = Some(on::Sample {
            stock,
            every: every.max(1),
            met: 0,
            kept: Vec::new(),
        })
    });
    #[cfg(not(feature = "profile"))]
    let _ = (stock, every);
}

/// The positions kept since [`sample_at`], and how many positions of that
/// stock height were met; sampling stops.
pub fn sampled() -> (Vec<Position>, u64) {
    #[cfg(feature = "profile")]
    return on::SAMPLE
        .with_borrow_mut(|s| s.take())
        .map_or((Vec::new(), 0), |s| (s.kept, s.met));
    #[cfg(not(feature = "profile"))]
    (Vec::new(), 0)
}
