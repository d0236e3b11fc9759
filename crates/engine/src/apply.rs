//! Making and unmaking moves.
//!
//! [`Position::apply`] checks a move, plays it with everything that follows
//! from it at once (an emptied pile refilled from the stock or the waste), and
//! returns an [`Undo`] that [`Position::undo`] uses to restore the exact
//! position and hash. An illegal move returns an error and changes nothing.

use crate::card::Card;
use crate::layout::{Layout, PileId};
use crate::moves::Move;
use crate::position::{card_key, Position};
use crate::prng::SplitMix64;
use crate::rules::MoveError;
use crate::spec::{EmptyPile, Gather, StockAction};

/// Cards moved as a block from one pile's top to another's, order kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Transfer {
    from: PileId,
    to: PileId,
    n: u8,
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Clone, Debug)]
pub struct Undo {
    mv: Move,
    /// Block transfers in the order they were made.
    transfers: Vec<Transfer>,
    /// The first transfer, kept inline so that a plain step allocates nothing.
    first: Option<Transfer>,
    /// The table before a redeal.
    before_redeal: Option<Box<BeforeRedeal>>,
    draw_used: bool,
    redeals_used: u8,
    /// Whether an emptied tableau pile was filled at once.
    refilled: bool,
}

/// What a redeal changes: the tableau and the stock, kept as one run of
/// cards and each pile's length, with their part of the hash before it.
#[derive(Clone, Debug)]
struct BeforeRedeal {
    cards: Vec<Card>,
    lengths: Vec<u8>,
    dealt_hash: u64,
}

impl Undo {
    /// The move this undoes.
    pub fn played(&self) -> Move {
        self.mv
    }

    /// Whether the move emptied a tableau pile that the game filled at once
    /// from the stock or the waste (for a step, its source pile).
    pub fn refilled(&self) -> bool {
        self.refilled
    }
}

impl Position {
    /// Plays a legal move; an illegal one is refused with the reason and leaves
    /// the position as it was.
    pub fn apply(&mut self, mv: Move) -> Result<Undo, MoveError> {
        let n = self.check(mv)?;
        Ok(self.apply_unchecked(mv, n))
    }

    /// Plays a move that [`Position::legal_moves_into`] listed for this very
    /// position, without checking it again: the search plays tens of millions
    /// of the engine's own moves, and [`Position::check`] would only say again
    /// what the move list already said. The rules stay here: the list is
    /// made by the engine, and the number of cards a step carries is worked
    /// out as `check` does. A move from anywhere else (a player, a file, a
    /// position the move was not listed for) must go through
    /// [`Position::apply`]; debug builds check this one too.
    pub fn play_generated(&mut self, mv: Move) -> Undo {
        debug_assert!(
            self.legal_moves().contains(&mv),
            "{mv:?} was not generated for this position"
        );
        let n = match mv {
            Move::Step { from, to } if self.spec.moves_runs && to.0 < self.layout.tableau => {
                self.run_onto(from, to).unwrap_or(1)
            }
            Move::Step { .. } | Move::Draw { .. } => 1,
            Move::Deal | Move::Redeal => 0,
        };
        self.apply_unchecked(mv, n)
    }

    fn apply_unchecked(&mut self, mv: Move, n: usize) -> Undo {
        let mut undo = Undo {
            mv,
            transfers: Vec::new(),
            first: None,
            before_redeal: None,
            draw_used: self.draw_used,
            redeals_used: self.redeals_used,
            refilled: false,
        };
        match mv {
            Move::Step { from, to } => {
                self.transfer(from, to, n, &mut undo);
            }
            Move::Draw { from, index, to } => {
                let card = self.piles[from.index()][index as usize];
                self.remove_at(from, index as usize);
                self.push(to, card);
                self.set_counters(self.redeals_used, true);
            }
            Move::Deal => match self.spec.stock_action {
                StockAction::OneToWaste => {
                    let (s, w) = (
                        self.layout.stock.unwrap_or(PileId(0)),
                        self.layout.waste.unwrap_or(PileId(0)),
                    );
                    self.transfer(s, w, 1, &mut undo);
                }
                StockAction::ThreeToEachPile => {
                    let s = self.layout.stock.unwrap_or(PileId(0));
                    'rounds: for _ in 0..3 {
                        for t in self.layout.tableau_ids() {
                            if self.piles[s.index()].is_empty() {
                                break 'rounds;
                            }
                            self.transfer(s, t, 1, &mut undo);
                        }
                    }
                }
                StockAction::None => {}
            },
            Move::Redeal => {
                undo.before_redeal = Some(Box::new(self.table_before_redeal()));
                self.redeal();
            }
        }
        match mv {
            // A step empties its source at most: every other tableau pile
            // that is empty now was empty before it, with nothing to take.
            Move::Step { from, .. } => {
                if from.0 < self.layout.tableau && self.piles[from.index()].is_empty() {
                    self.refill(from, &mut undo);
                }
            }
            Move::Redeal => {}
            Move::Draw { .. } | Move::Deal => {
                for t in self.layout.tableau_ids() {
                    if self.piles[t.index()].is_empty() {
                        self.refill(t, &mut undo);
                    }
                }
            }
        }
        undo
    }

    /// Takes back the move `undo` was made for. It must be the last move played.
    pub fn undo(&mut self, undo: &Undo) {
        if let Some(before) = &undo.before_redeal {
            let mut cards = before.cards.as_slice();
            for (id, &n) in self.redealt_piles().zip(&before.lengths) {
                let (pile, rest) = cards.split_at(n as usize);
                self.piles[id.index()].clear();
                self.piles[id.index()].extend_from_slice(pile);
                cards = rest;
            }
            self.sync_tops();
            self.set_counters(undo.redeals_used, undo.draw_used);
            self.dealt_hash = before.dealt_hash;
            return;
        }
        for t in undo.transfers.iter().rev().chain(undo.first.iter()) {
            self.move_block(t.to, t.from, t.n as usize);
        }
        if let Move::Draw { from, index, to } = undo.mv {
            if let Some(card) = self.pop(to) {
                self.insert_at(from, index as usize, card);
            }
        }
        self.set_counters(undo.redeals_used, undo.draw_used);
    }

    /// The piles a redeal deals anew: the tableau, then the stock. A redeal
    /// leaves every other pile as it was.
    pub fn redealt_piles(&self) -> impl Iterator<Item = PileId> {
        let layout = self.layout;
        (0..layout.piles)
            .map(PileId)
            .filter(move |&p| is_redealt(&layout, p))
    }

    /// The part of the hash that holds `pile`'s keys: `dealt_hash` for the
    /// piles a redeal deals anew, `hash` for the others.
    #[inline]
    pub(crate) fn hash_of(&mut self, pile: PileId) -> &mut u64 {
        if is_redealt(&self.layout, pile) {
            &mut self.dealt_hash
        } else {
            &mut self.hash
        }
    }

    fn table_before_redeal(&self) -> BeforeRedeal {
        let mut cards = Vec::with_capacity(self.spec.card_count());
        let mut lengths = Vec::with_capacity(self.layout.tableau as usize + 1);
        for id in self.redealt_piles() {
            cards.extend_from_slice(&self.piles[id.index()]);
            lengths.push(self.piles[id.index()].len() as u8);
        }
        BeforeRedeal {
            cards,
            lengths,
            dealt_hash: self.dealt_hash,
        }
    }

    fn transfer(&mut self, from: PileId, to: PileId, n: usize, undo: &mut Undo) {
        self.move_block(from, to, n);
        let t = Transfer {
            from,
            to,
            n: n as u8,
        };
        if undo.first.is_none() {
            undo.first = Some(t);
        } else {
            undo.transfers.push(t);
        }
    }

    fn move_block(&mut self, from: PileId, to: PileId, n: usize) {
        if n == 1 {
            if let Some(c) = self.pop(from) {
                self.push(to, c);
            }
            return;
        }
        let start = self.piles[from.index()].len() - n;
        for i in start..start + n {
            let c = self.piles[from.index()][i];
            *self.hash_of(from) ^= card_key(from, i, c);
            let j = self.piles[to.index()].len();
            *self.hash_of(to) ^= card_key(to, j, c);
            self.piles[to.index()].push(c);
        }
        self.piles[from.index()].truncate(start);
        self.sync_top(from);
        self.sync_top(to);
    }

    #[inline]
    fn push(&mut self, pile: PileId, card: Card) {
        let p = &mut self.piles[pile.index()];
        let key = card_key(pile, p.len(), card);
        p.push(card);
        *self.hash_of(pile) ^= key;
        self.sync_top(pile);
    }

    #[inline]
    fn pop(&mut self, pile: PileId) -> Option<Card> {
        let p = &mut self.piles[pile.index()];
        let c = p.pop()?;
        let key = card_key(pile, p.len(), c);
        *self.hash_of(pile) ^= key;
        self.sync_top(pile);
        Some(c)
    }

    fn remove_at(&mut self, pile: PileId, index: usize) {
        self.rehash_pile(pile);
        self.piles[pile.index()].remove(index);
        self.rehash_pile(pile);
        self.sync_top(pile);
    }

    fn insert_at(&mut self, pile: PileId, index: usize, card: Card) {
        self.rehash_pile(pile);
        self.piles[pile.index()].insert(index, card);
        self.rehash_pile(pile);
        self.sync_top(pile);
    }

    /// Fills the emptied tableau pile `t` at once where the game says so.
    ///
    /// A tableau pile is left empty after a move only where its rule has
    /// nothing to give it: the stock (and, where the waste gives first, the
    /// waste) is empty. Neither ever gains a card but by a deal from the
    /// stock, which needs the stock not to be empty, or by a redeal, which
    /// deals the tableau anew. So a pile empty before a step stays
    /// unfillable, and only the step's own source needs looking at.
    fn refill(&mut self, t: PileId, undo: &mut Undo) {
        let (stock, waste) = (self.layout.stock, self.layout.waste);
        match self.spec.empty_pile {
            EmptyPile::TakesStockCard | EmptyPile::TakesThreeStockCards => {
                let n = if self.spec.empty_pile == EmptyPile::TakesStockCard {
                    1
                } else {
                    3
                };
                let Some(s) = stock else { return };
                for _ in 0..n {
                    if !self.piles[s.index()].is_empty() {
                        self.transfer(s, t, 1, undo);
                        undo.refilled = true;
                    }
                }
            }
            EmptyPile::TakesWasteThenStockThenAny => {
                if let Some(w) = waste.filter(|w| !self.piles[w.index()].is_empty()) {
                    self.transfer(w, t, 1, undo);
                    undo.refilled = true;
                } else if let Some(s) = stock.filter(|s| !self.piles[s.index()].is_empty()) {
                    self.transfer(s, t, 1, undo);
                    undo.refilled = true;
                }
            }
            EmptyPile::Stays | EmptyPile::TakesKing => {}
        }
    }

    /// Gathers the table as the game says, shuffles where it shuffles, and deals again.
    fn redeal(&mut self) {
        let r = self.spec.redeals;
        let n = self.layout.tableau;
        let mut cards = Vec::with_capacity(self.spec.card_count());
        for i in 0..n {
            let t = match r.gather {
                Gather::LastFanFirst => n - 1 - i,
                _ => i,
            };
            cards.append(&mut self.piles[t as usize]);
        }
        if r.gather == Gather::InOrderWithStock {
            if let Some(s) = self.layout.stock {
                // The stock's next card is the last of its pile.
                cards.extend(self.piles[s.index()].drain(..).rev());
            }
        }
        let next = self.redeals_used + 1;
        if r.gather == Gather::Shuffled {
            // Sorting first makes the shuffle depend on which cards are left,
            // not on the order the fans happen to hold them in: positions that
            // differ only in pile order redeal alike, which the solver relies on.
            sort_cards(&mut cards);
            SplitMix64::for_shuffle(self.spec.id, self.deal, next as u32).shuffle(&mut cards);
        }
        crate::deal::deal_fans(self, &cards, r.fan_size as usize);
        self.set_counters(next, self.draw_used);
        self.sync_tops();
        // Only the tableau and the stock changed, and their keys are the
        // hash's part of its own: it is made anew.
        self.dealt_hash = 0;
        for id in self.redealt_piles() {
            self.rehash_pile(id);
        }
    }
}

/// Whether a redeal deals `pile` anew (see [`Position::redealt_piles`]).
#[inline]
fn is_redealt(layout: &Layout, pile: PileId) -> bool {
    pile.0 < layout.tableau || Some(pile) == layout.stock
}

/// Sorts cards by their index (the order of [`Card`]'s `Ord`), counting them:
/// a redeal gathers at most 104 cards of at most 56 kinds.
fn sort_cards(cards: &mut Vec<Card>) {
    let mut counts = [0u8; Card::COUNT];
    for c in cards.iter() {
        counts[c.index()] += 1;
    }
    cards.clear();
    for (i, &n) in counts.iter().enumerate() {
        if let Some(c) = Card::from_index(i) {
            cards.extend(std::iter::repeat_n(c, n as usize));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unchecked path plays every generated move exactly as the checked
    /// one: the same position, hash and cached tops, and an undo that
    /// restores the same position, along random games of every game.
    #[test]
    fn a_generated_move_plays_alike_checked_or_not() {
        let mut compared = 0;
        for g in crate::games() {
            for deal in 1..=10u64 {
                let mut p = Position::deal(g, deal).unwrap();
                let mut rng = SplitMix64::new(deal ^ 0xa11);
                for _ in 0..300 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let (mut checked, mut unchecked) = (p.clone(), p.clone());
                        let cu = checked.apply(m).unwrap();
                        let uu = unchecked.play_generated(m);
                        assert_eq!(checked, unchecked, "{} deal {deal} {m:?}", g.id);
                        assert_eq!(checked.hash(), unchecked.hash());
                        assert_eq!(checked.tops, unchecked.tops);
                        checked.undo(&cu);
                        unchecked.undo(&uu);
                        assert_eq!(checked, p);
                        assert_eq!(unchecked, p);
                        assert_eq!(unchecked.hash(), p.hash());
                        assert_eq!(unchecked.tops, p.tops);
                        compared += 1;
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    p.apply(m).unwrap();
                }
            }
        }
        assert!(compared > 50_000, "{compared}");
    }

    #[test]
    fn counting_sort_sorts_like_sort() {
        let pack = crate::catalogue::game("house-in-the-woods").unwrap().pack();
        let mut cards: Vec<Card> = pack.iter().rev().step_by(3).copied().collect();
        let mut expected = cards.clone();
        expected.sort();
        sort_cards(&mut cards);
        assert_eq!(cards, expected);
    }
}
