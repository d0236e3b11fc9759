//! A position: every pile's cards, the redeals used, the draw, and a hash kept
//! up to date move by move.
//!
//! A `Position` can only be made by dealing ([`Position::deal`]) or from parts
//! that pass [`Position::from_parts`]'s checks, so one that holds a card twice,
//! misses one, or has a foundation out of sequence cannot exist.

use crate::card::bit;
use crate::card::Card;
use crate::layout::{Layout, PileId, PileKind};
use crate::prng::mix64;
use crate::spec::GameSpec;
use crate::tables::{lays_base, RuleTables};

/// Deal numbers run from 1 to this; 0 stands for an unknown deal (a position
/// text without a `deal:` line).
pub const MAX_DEAL: u64 = 4_294_967_295;

/// A position of one game: what is on the table, not how it came about.
#[derive(Debug)]
pub struct Position {
    pub(crate) spec: &'static GameSpec,
    pub(crate) layout: Layout,
    pub(crate) deal: u64,
    pub(crate) piles: Vec<Vec<Card>>,
    pub(crate) redeals_used: u8,
    pub(crate) draw_used: bool,
    /// The hash's keys of the piles a redeal leaves alone, and of the
    /// counters.
    pub(crate) hash: u64,
    /// The hash's keys of the piles a redeal deals anew (the tableau and the
    /// stock), kept apart so that a redeal hashes only the new piles.
    pub(crate) dealt_hash: u64,
    /// The game's rules evaluated for every card (see [`crate::tables`]).
    pub(crate) tables: &'static RuleTables,
    /// The top card of each tableau pile as its [`Card::byte`] (0: empty),
    /// kept in step with the piles so that move generation reads one small
    /// array instead of following every pile to its heap.
    pub(crate) tops: [u8; MAX_TABLEAU],
}

/// More tableau piles than any game has (House in the Woods has 35); move
/// generation keeps sets of piles as bits of a `u64`.
pub(crate) const MAX_TABLEAU: usize = 64;

impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            piles: self.piles.clone(),
            ..*self
        }
    }

    /// Reuses `self`'s piles' buffers: a loop that resets one position to
    /// another many times (the engine's playout bench) copies without
    /// allocating. The
    /// pattern names every field, so a field added later cannot be missed.
    fn clone_from(&mut self, source: &Self) {
        let Position {
            spec,
            layout,
            deal,
            piles,
            redeals_used,
            draw_used,
            hash,
            dealt_hash,
            tables,
            tops,
        } = source;
        self.spec = spec;
        self.layout = *layout;
        self.deal = *deal;
        self.piles.clone_from(piles);
        self.redeals_used = *redeals_used;
        self.draw_used = *draw_used;
        self.hash = *hash;
        self.dealt_hash = *dealt_hash;
        self.tables = tables;
        self.tops = *tops;
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.spec.id == other.spec.id
            && self.deal == other.deal
            && self.piles == other.piles
            && self.redeals_used == other.redeals_used
            && self.draw_used == other.draw_used
    }
}
impl Eq for Position {}

/// The hash key of `card` at height `index` of pile `pile` (Zobrist hashing
/// with keys computed, not tabled: a multiply-mix is as fast as a lookup and
/// needs no table for 104-card piles).
#[inline]
pub(crate) fn card_key(pile: PileId, index: usize, card: Card) -> u64 {
    mix64(((pile.0 as u64) << 24) | ((index as u64) << 8) | card.index() as u64 | (1 << 40))
}

#[inline]
fn counters_key(redeals_used: u8, draw_used: bool) -> u64 {
    mix64(((redeals_used as u64) << 1 | draw_used as u64) | (1 << 50))
}

/// Why parts do not make a position of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The parts hold a different number of piles than the game has.
    #[error("expected {expected} piles, got {got}")]
    PileCount {
        /// Piles the game has.
        expected: usize,
        /// Piles given.
        got: usize,
    },
    /// A card the game's deck does not hold (a six in a 36-card game is fine, a two is not).
    #[error("{card} is not a card of this game's deck")]
    ForeignCard {
        /// The card.
        card: Card,
    },
    /// More copies of a card than the game's decks hold.
    #[error("{card} appears {count} times; this game has {decks} of each card")]
    TooMany {
        /// The card.
        card: Card,
        /// Its copies given.
        count: usize,
        /// The game's decks, so the copies it holds.
        decks: u8,
    },
    /// A card of the deck is nowhere.
    #[error("{card} is missing")]
    Missing {
        /// The card.
        card: Card,
    },
    /// A foundation's cards do not follow its rule from the bottom up.
    #[error("foundation {pile} is not in sequence at {card}")]
    FoundationOrder {
        /// The foundation's name.
        pile: String,
        /// The first card out of sequence.
        card: Card,
    },
    /// A flank cell holds more than its one card.
    #[error("cell {pile} holds more than one card")]
    CellOverfull {
        /// The cell's name.
        pile: String,
    },
    /// More redeals used than the game has.
    #[error("{used} redeals used, but the game has {allowed}")]
    Redeals {
        /// Redeals said to be used.
        used: u8,
        /// Redeals the game has.
        allowed: u8,
    },
    /// The draw is marked used in a game without one.
    #[error("this game has no draw")]
    NoDraw,
    /// An empty pile that the game always refills at once while cards are left to refill it.
    #[error("{pile} is empty, but the game refills it at once from the {from}")]
    Unfilled {
        /// The empty pile's name.
        pile: String,
        /// Where its refill comes from: `stock` or `waste`.
        from: &'static str,
    },
}

impl Position {
    /// The game this is a position of.
    pub fn spec(&self) -> &'static GameSpec {
        self.spec
    }

    /// The game's piles and their ids.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The deal number the redeal shuffles derive from; 0 when unknown (see
    /// [`Position::missing_deal_number`]).
    pub fn deal_number(&self) -> u64 {
        self.deal
    }

    /// The cards of pile `id`, bottom first.
    pub fn pile(&self, id: PileId) -> &[Card] {
        &self.piles[id.index()]
    }

    /// Cards left in the face-down stock (none where the game has no stock).
    pub fn stock_len(&self) -> usize {
        self.layout.stock.map_or(0, |s| self.piles[s.index()].len())
    }

    /// Every pile's cards, bottom first, in [`Layout`]'s order.
    pub fn piles(&self) -> &[Vec<Card>] {
        &self.piles
    }

    /// The top card of pile `id`, the one a move takes.
    pub fn top(&self, id: PileId) -> Option<Card> {
        self.piles[id.index()].last().copied()
    }

    /// Redeals taken so far.
    pub fn redeals_used(&self) -> u8 {
        self.redeals_used
    }

    /// Redeals still to take.
    pub fn redeals_left(&self) -> u8 {
        self.spec.redeals.count - self.redeals_used
    }

    /// Whether the once-per-game draw has been used.
    pub fn draw_used(&self) -> bool {
        self.draw_used
    }

    /// Exact hash of the position (piles in place, redeals, draw); kept
    /// incrementally by every move and its undo.
    pub fn hash(&self) -> u64 {
        self.hash ^ self.dealt_hash
    }

    /// Cards on the foundations.
    pub fn foundation_cards(&self) -> usize {
        self.layout
            .foundation_ids()
            .map(|f| self.piles[f.index()].len())
            .sum()
    }

    /// Every card on the foundations.
    pub fn is_won(&self) -> bool {
        self.foundation_cards() == self.spec.card_count()
    }

    /// Not won, and no move (a redeal or a deal included) is left.
    pub fn is_stuck(&self) -> bool {
        !self.is_won() && self.legal_moves().is_empty()
    }

    pub(crate) fn stock(&self) -> &[Card] {
        self.layout.stock.map_or(&[], |s| &self.piles[s.index()])
    }

    pub(crate) fn waste(&self) -> &[Card] {
        self.layout.waste.map_or(&[], |s| &self.piles[s.index()])
    }

    /// Brings the cached top of tableau pile `pile` up to date (other piles
    /// have none).
    #[inline]
    pub(crate) fn sync_top(&mut self, pile: PileId) {
        if pile.0 < self.layout.tableau {
            self.tops[pile.index()] = self.piles[pile.index()].last().map_or(0, |c| c.byte());
        }
    }

    /// Brings every cached tableau top up to date.
    pub(crate) fn sync_tops(&mut self) {
        for t in self.layout.tableau_ids() {
            self.sync_top(t);
        }
    }

    pub(crate) fn recompute_hash(&mut self) {
        self.hash = counters_key(self.redeals_used, self.draw_used);
        self.dealt_hash = 0;
        for p in 0..self.piles.len() {
            self.rehash_pile(PileId(p as u8));
        }
    }

    /// XORs a pile's keys in or out of the hash.
    pub(crate) fn rehash_pile(&mut self, pile: PileId) {
        let mut h = 0;
        for (i, &c) in self.piles[pile.index()].iter().enumerate() {
            h ^= card_key(pile, i, c);
        }
        *self.hash_of(pile) ^= h;
    }

    pub(crate) fn set_counters(&mut self, redeals_used: u8, draw_used: bool) {
        self.hash ^= counters_key(self.redeals_used, self.draw_used);
        self.redeals_used = redeals_used;
        self.draw_used = draw_used;
        self.hash ^= counters_key(self.redeals_used, self.draw_used);
    }

    /// Builds a position from its piles, checking that it could arise in the game:
    /// every card of the pack exactly as often as the decks hold it, foundations in
    /// sequence, cells of at most one card, counters in range.
    pub fn from_parts(
        spec: &'static GameSpec,
        deal: u64,
        piles: Vec<Vec<Card>>,
        redeals_used: u8,
        draw_used: bool,
    ) -> Result<Position, SetupError> {
        let layout = Layout::of(spec);
        if piles.len() != layout.piles as usize {
            return Err(SetupError::PileCount {
                expected: layout.piles as usize,
                got: piles.len(),
            });
        }
        if redeals_used > spec.redeals.count {
            return Err(SetupError::Redeals {
                used: redeals_used,
                allowed: spec.redeals.count,
            });
        }
        if draw_used && spec.draw == crate::spec::Draw::Never {
            return Err(SetupError::NoDraw);
        }
        let mut counts = [0usize; Card::COUNT];
        for &c in piles.iter().flatten() {
            if !spec.holds(c) {
                return Err(SetupError::ForeignCard { card: c });
            }
            counts[c.index()] += 1;
            if counts[c.index()] > spec.decks as usize {
                return Err(SetupError::TooMany {
                    card: c,
                    count: counts[c.index()],
                    decks: spec.decks,
                });
            }
        }
        if let Some(&card) = spec
            .pack()
            .iter()
            .find(|c| counts[c.index()] < spec.decks as usize)
        {
            return Err(SetupError::Missing { card });
        }
        let mut pos = Position {
            spec,
            layout,
            deal,
            piles: vec![Vec::new(); layout.piles as usize],
            redeals_used,
            draw_used,
            hash: 0,
            dealt_hash: 0,
            tables: RuleTables::for_spec(spec),
            tops: [0; MAX_TABLEAU],
        };
        // Foundations are checked by building them card by card under the rules.
        for f in layout.foundation_ids() {
            let cards = &piles[f.index()];
            for (i, &c) in cards.iter().enumerate() {
                let rule = &spec.foundations[(f.0 - layout.tableau) as usize];
                let free_start = i == 0 && lays_base(rule, c);
                if !free_start && !pos.foundation_takes_ignoring_partner(f, c) {
                    return Err(SetupError::FoundationOrder {
                        pile: layout.name(f).to_string(),
                        card: c,
                    });
                }
                pos.piles[f.index()].push(c);
            }
        }
        for c in layout.cell_ids() {
            if piles[c.index()].len() > 1 {
                return Err(SetupError::CellOverfull {
                    pile: layout.name(c).to_string(),
                });
            }
        }
        pos.piles = piles;
        pos.sync_tops();
        pos.check_refilled()?;
        pos.recompute_hash();
        Ok(pos)
    }

    /// In games that refill an emptied pile at once, an empty pile beside a
    /// source that could have filled it never arises in play.
    fn check_refilled(&self) -> Result<(), SetupError> {
        use crate::spec::EmptyPile;
        let from = match self.spec.empty_pile {
            EmptyPile::TakesStockCard | EmptyPile::TakesThreeStockCards => {
                (!self.stock().is_empty()).then_some("stock")
            }
            EmptyPile::TakesWasteThenStockThenAny => {
                if !self.waste().is_empty() {
                    Some("waste")
                } else {
                    (!self.stock().is_empty()).then_some("stock")
                }
            }
            EmptyPile::Stays | EmptyPile::TakesKing => None,
        };
        match (
            from,
            self.layout.tableau_ids().find(|t| self.pile(*t).is_empty()),
        ) {
            (Some(from), Some(t)) => Err(SetupError::Unfilled {
                pile: self.layout.name(t).to_string(),
                from,
            }),
            _ => Ok(()),
        }
    }

    /// Foundation rule without the paired-house condition, for validating
    /// foundations built up from nothing.
    fn foundation_takes_ignoring_partner(&self, f: PileId, card: Card) -> bool {
        self.foundation_step_ok(f, card)
    }

    /// Whether `card` continues foundation `f` (sequence, suit or colour, capacity).
    #[inline]
    pub(crate) fn foundation_step_ok(&self, f: PileId, card: Card) -> bool {
        let i = (f.0 - self.layout.tableau) as usize;
        let pile = &self.piles[f.index()];
        let top = pile.last().map_or(Card::COUNT, |c| c.index());
        pile.len() < self.spec.foundations[i].capacity as usize
            && self.tables.next[i][top] & bit(card) != 0
    }

    /// The kind of pile `id` is.
    pub fn kind(&self, id: PileId) -> Option<PileKind> {
        self.layout.kind(id)
    }

    /// The same position with `left` redeals still to use (0 turns them off),
    /// for studying a position under fewer redeals than the game allows.
    pub fn with_redeals_left(mut self, left: u8) -> Result<Position, SetupError> {
        let allowed = self.spec.redeals.count;
        if left > allowed {
            return Err(SetupError::Redeals {
                used: left,
                allowed,
            });
        }
        self.set_counters(allowed - left, self.draw_used);
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::game;

    use super::*;

    /// `clone_from` into a position of another game and deal leaves an exact
    /// copy: the same piles, counters, hash, and moves.
    #[test]
    fn clone_from_makes_an_exact_copy_whatever_it_overwrites() {
        let mut target = Position::deal(game("house-in-the-woods").unwrap(), 9).unwrap();
        for (id, deal) in [("krakowski", 3), ("la-belle-lucie", 5), ("nivernaise", 2)] {
            let mut source = Position::deal(game(id).unwrap(), deal).unwrap();
            for _ in 0..5 {
                let moves = source.legal_moves();
                source.apply(moves[moves.len() / 2]).unwrap();
            }
            target.clone_from(&source);
            assert_eq!(target, source, "{id}");
            assert_eq!(target.hash(), source.hash(), "{id}");
            assert_eq!(target.layout(), source.layout(), "{id}");
            assert_eq!(target.legal_moves(), source.legal_moves(), "{id}");
            assert_eq!(target.to_text(), source.to_text(), "{id}");
        }
    }
}
