//! What the relaxed games of the piles' order ([`super::pile_order`]) and
//! the stock's order ([`super::stock_order`]) share: the fans and the waste
//! read off a position in their order, and per card where its copies are.

use patience_engine::{Card, Position};

use super::dead_two_deck::{Tables, NONE};

/// Fans and the waste the relaxed games handle (Krakowski has 12 fans and a
/// waste, Novomanernaya 18 fans). The relaxed positions' hashes read the
/// pile lengths in three words of 8.
pub(super) const PILES: usize = 24;

/// Per card, how many copies are loose, lie in piles, are fan tops and are
/// home ([`Count`]); and each pile's top card's index ([`NONE`] when empty):
/// the searches look for a card among the tops many times a relaxed
/// position, and a byte here is nearer than the pile's card. Each count is
/// at most 2 (two decks), so the four share a byte, two bits each: the
/// searches copy a relaxed position at every step.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub(super) cards: [u8; Card::COUNT],
    pub(super) tops: [u8; PILES],
}

/// The field of a card's byte in [`Counts`]: its lowest bit.
#[derive(Clone, Copy)]
pub(super) enum Count {
    Loose = 1,
    InPiles = 4,
    FanTops = 16,
    Home = 64,
}

impl Counts {
    pub(super) fn get(&self, x: usize, field: Count) -> u8 {
        (self.cards[x] / field as u8) & 3
    }
    pub(super) fn add(&mut self, x: usize, field: Count) {
        self.cards[x] += field as u8;
    }
    pub(super) fn sub(&mut self, x: usize, field: Count) {
        self.cards[x] -= field as u8;
    }
}

/// The fans, then the waste, of a position, in their order.
pub(super) struct Piles<'a> {
    pub(super) piles: [&'a [Card]; PILES],
    pub(super) fan: [bool; PILES],
    /// Piles read.
    pub(super) n: usize,
    /// The waste's index among them (`PILES` where there is none).
    pub(super) waste: usize,
    /// Each pile's length.
    pub(super) left: [u8; PILES],
    /// Every pile card counted in piles, each top as its pile's, each fan
    /// top as a fan top.
    pub(super) counts: Counts,
}

/// The fans and the waste of `pos`; `None` where they are more than
/// [`PILES`] or a card has no place in its suit's foundation sequence.
pub(super) fn piles<'a>(pos: &'a Position, t: &Tables) -> Option<Piles<'a>> {
    let layout = pos.layout();
    let mut read = Piles {
        piles: [&[]; PILES],
        fan: [false; PILES],
        n: 0,
        waste: PILES,
        left: [0; PILES],
        counts: Counts {
            cards: [0; Card::COUNT],
            tops: [NONE; PILES],
        },
    };
    for p in layout.tableau_ids().chain(layout.waste) {
        let k = read.n;
        *read.piles.get_mut(k)? = pos.pile(p);
        let pile = read.piles[k];
        read.fan[k] = Some(p) != layout.waste;
        if !read.fan[k] {
            read.waste = k;
        }
        read.left[k] = pile.len() as u8;
        for &x in pile {
            if t.order[x.index()] == NONE {
                return None;
            }
            read.counts.add(x.index(), Count::InPiles);
        }
        if let Some(&x) = pile.last() {
            read.counts.tops[k] = x.index() as u8;
            if read.fan[k] {
                read.counts.add(x.index(), Count::FanTops);
            }
        }
        read.n += 1;
    }
    Some(read)
}

#[cfg(test)]
pub(super) mod tests {
    use patience_engine::{game, Position};

    use crate::prune::{pile_order, stock_order};
    use crate::{replays_to_win, solve, solve_with, Budget, Options, Outcome};

    /// Every position along the solver's winning lines of `deals` of
    /// `game`, each line replayed through the engine: all are winnable, so
    /// no sound dead test may call any dead.
    pub(in crate::prune) fn along_wins(game_id: &str, deals: &[u64]) -> Vec<Position> {
        let spec = game(game_id).unwrap();
        let mut positions = Vec::new();
        for &deal in deals {
            let start = Position::deal(spec, deal).unwrap();
            let Outcome::Win(line) = solve(&start, &Budget::of_nodes(2_000_000)).outcome else {
                panic!("{game_id} deal {deal} not won");
            };
            assert!(replays_to_win(&start, &line));
            let mut p = start;
            for &m in &line {
                positions.push(p.clone());
                p.apply(m).unwrap();
            }
        }
        positions
    }

    /// Searches each of `positions` (called dead by one relaxed test alone,
    /// each with a move left) with every other dominance and neither relaxed
    /// test: none may be won. Returns how many the search proves lost.
    pub(in crate::prune) fn lost_without_the_relaxed_tests<'a>(
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> usize {
        let mut proved = 0;
        for p in positions {
            assert!(!p.legal_moves().is_empty(), "{}", p.to_text());
            pile_order::OFF.set(true);
            stock_order::OFF.set(true);
            let plain = solve_with(p, &Options::with_nodes(300_000, true)).outcome;
            pile_order::OFF.set(false);
            stock_order::OFF.set(false);
            assert_ne!(plain.won(), Some(true), "{}", p.to_text());
            proved += (plain.won() == Some(false)) as usize;
        }
        proved
    }
}
