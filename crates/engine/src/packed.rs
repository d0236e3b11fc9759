//! Positions of one game packed side by side in one buffer, for searches
//! that keep a whole layer of positions at once (the solver's beam).
//!
//! A [`Position`] keeps each pile in its own heap buffer: copying one touches
//! a score of scattered allocations, and a layer of twenty thousand
//! positions spends more time in cache misses than in play. Packed, every
//! position of a game takes the same number of bytes (each pile's length,
//! then every card, since a position always holds the whole deck), so a
//! layer is one array read front to back. Only [`Packed::push`] writes the
//! bytes, from a position that exists, so [`Packed::load`] can only give
//! back a position that passed the engine's checks.

use crate::card::Card;
use crate::layout::Layout;
use crate::position::{Position, MAX_TABLEAU};
use crate::spec::GameSpec;
use crate::tables::RuleTables;

/// Bytes before the piles' lengths: the deal, the two hashes, the redeals
/// used and the draw.
const HEADER: usize = 8 + 8 + 8 + 1 + 1;

/// Positions of one game, each a fixed-size record.
pub struct Packed {
    spec: &'static GameSpec,
    layout: Layout,
    tables: &'static RuleTables,
    piles: usize,
    stride: usize,
    bytes: Vec<u8>,
}

impl Packed {
    /// An empty store for positions of `pos`'s game.
    pub fn of_game(pos: &Position) -> Packed {
        let piles = pos.piles.len();
        Packed {
            spec: pos.spec,
            layout: pos.layout,
            tables: pos.tables,
            piles,
            stride: HEADER + piles + pos.spec.card_count(),
            bytes: Vec::new(),
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.stride
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Forgets every position, keeping the buffer.
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Room for `n` more positions without growing.
    pub fn reserve(&mut self, n: usize) {
        self.bytes.reserve(n * self.stride);
    }

    /// Adds `pos`, which must be a position of this store's game.
    ///
    /// # Panics
    /// If `pos` is of another game: a caller's mistake, not input's.
    pub fn push(&mut self, pos: &Position) {
        // The pattern names every field, so a field added later cannot be
        // missed: the game's parts are the store's, the tops follow from
        // the piles.
        let Position {
            spec,
            layout: _,
            deal,
            piles,
            redeals_used,
            draw_used,
            hash,
            dealt_hash,
            tables: _,
            tops: _,
        } = pos;
        assert_eq!(spec.id, self.spec.id, "a position of another game");
        let start = self.bytes.len();
        self.bytes.extend_from_slice(&deal.to_le_bytes());
        self.bytes.extend_from_slice(&hash.to_le_bytes());
        self.bytes.extend_from_slice(&dealt_hash.to_le_bytes());
        self.bytes.push(*redeals_used);
        self.bytes.push(*draw_used as u8);
        // A pile never holds more than the deck (104 cards), so a byte.
        self.bytes.extend(piles.iter().map(|p| p.len() as u8));
        for p in piles {
            self.bytes.extend(p.iter().map(|c| c.byte()));
        }
        debug_assert_eq!(self.bytes.len() - start, self.stride);
    }

    /// Makes `into` the `i`th position pushed, reusing its piles' buffers.
    ///
    /// # Panics
    /// If `i` is not below [`Packed::len`].
    pub fn load(&self, i: usize, into: &mut Position) {
        let record = &self.bytes[i * self.stride..(i + 1) * self.stride];
        let (header, rest) = record.split_at(HEADER);
        let (lens, mut cards) = rest.split_at(self.piles);
        let word = |at: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&header[at..at + 8]);
            u64::from_le_bytes(b)
        };
        into.spec = self.spec;
        into.layout = self.layout;
        into.tables = self.tables;
        into.deal = word(0);
        into.hash = word(8);
        into.dealt_hash = word(16);
        into.redeals_used = header[24];
        into.draw_used = header[25] != 0;
        into.piles.resize_with(self.piles, Vec::new);
        for (pile, &len) in into.piles.iter_mut().zip(lens) {
            let (these, after) = cards.split_at(len as usize);
            pile.clear();
            pile.extend(these.iter().map(|&b| Card::from_byte(b)));
            cards = after;
        }
        into.tops = [0; MAX_TABLEAU];
        into.sync_tops();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::games;

    #[test]
    fn a_loaded_position_is_the_position_pushed() {
        // Positions along a game of every kind, loaded into a position of
        // another game so that nothing of the old one can stay behind.
        let other = Position::deal(crate::game("house-in-the-woods").unwrap(), 9).unwrap();
        for spec in games() {
            let mut pos = Position::deal(spec, 3).unwrap();
            let mut packed = Packed::of_game(&pos);
            let mut along = Vec::new();
            for step in 0..60 {
                packed.push(&pos);
                along.push(pos.clone());
                let moves = pos.legal_moves();
                let Some(&m) = moves.get(step * 7 % moves.len().max(1)) else {
                    break;
                };
                pos.apply(m).unwrap();
            }
            assert_eq!(packed.len(), along.len());
            for (i, want) in along.iter().enumerate().rev() {
                let mut got = other.clone();
                packed.load(i, &mut got);
                assert_eq!(&got, want, "{} step {i}", spec.id);
                assert_eq!(got.hash(), want.hash(), "{} step {i}", spec.id);
                assert_eq!(
                    got.legal_moves(),
                    want.legal_moves(),
                    "{} step {i}",
                    spec.id
                );
                assert_eq!(got.layout(), want.layout(), "{}", spec.id);
            }
        }
    }
}
