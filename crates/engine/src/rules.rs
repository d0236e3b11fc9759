//! Which moves are legal: the one place the rules of play are written.
//!
//! [`Position::legal_moves`] lists them in one deterministic order: steps by
//! source pile (tableau, foundations, cells, reserve, waste), each to the
//! foundations first, then the tableau, then the cells; then draws; then the
//! deal; then the redeal. Destinations that are interchangeable count once:
//! two foundations of the same rule with the same cards, the empty cells, the
//! empty tableau piles (only the first of each is listed; a move to another one
//! is still legal and means the same).

use crate::card::Card;
use crate::layout::{PileId, PileKind};
use crate::moves::Move;
use crate::position::Position;
use crate::spec::{Build, Draw, EmptyPile, StockAction};

/// Why a move is not legal in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("there is no pile {0} in this game")]
    NoSuchPile(u8),
    #[error("{0} is empty")]
    EmptySource(String),
    #[error("cards cannot be played from {0}")]
    NotPlayable(String),
    #[error("{card} cannot go onto {to}")]
    Refused { card: Card, to: String },
    #[error("the draw is not available now")]
    NoDraw,
    #[error("no card at that depth of {0} can be drawn")]
    BadDrawIndex(String),
    #[error("there is nothing to deal")]
    NoDeal,
    #[error("no redeal is available now")]
    NoRedeal,
}

impl Position {
    /// Every legal move, in the documented order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(32);
        self.legal_moves_into(&mut v);
        v
    }

    /// As [`Position::legal_moves`], into a buffer the caller reuses.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let l = self.layout;
        let sources = l
            .tableau_ids()
            .chain(l.foundation_ids().filter(|_| self.spec.foundation_returns))
            .chain(l.cell_ids())
            .chain(l.reserve)
            .chain(l.waste);
        for from in sources {
            let Some(card) = self.top(from) else { continue };
            // Foundations giving a card back are sources alike when they are
            // interchangeable destinations: list the first only.
            if matches!(l.kind(from), Some(PileKind::Foundation(_))) && !self.canonical_target(from)
            {
                continue;
            }
            self.push_steps(from, card, out);
        }
        if self.draw_available() {
            for from in l.tableau_ids() {
                let pile = self.pile(from);
                for index in 0..pile.len().saturating_sub(1) {
                    let card = pile[index];
                    for to in l.foundation_ids().chain(l.tableau_ids()) {
                        if self.draw_target_ok(from, card, to) && self.canonical_target(to) {
                            out.push(Move::Draw {
                                from,
                                index: index as u8,
                                to,
                            });
                        }
                    }
                }
            }
        }
        if self.deal_available() {
            out.push(Move::Deal);
        }
        if self.redeal_available() {
            out.push(Move::Redeal);
        }
    }

    fn push_steps(&self, from: PileId, card: Card, out: &mut Vec<Move>) {
        let l = self.layout;
        let from_kind = l.kind(from);
        if !matches!(from_kind, Some(PileKind::Foundation(_))) {
            for to in l.foundation_ids() {
                if self.foundation_takes(to, card) && self.canonical_target(to) {
                    out.push(Move::Step { from, to });
                }
            }
        }
        let mut empty_seen = false;
        for to in l.tableau_ids() {
            if to == from {
                continue;
            }
            if self.pile(to).is_empty() {
                if empty_seen {
                    continue;
                }
                empty_seen = true;
            }
            if self.run_onto(from, to).is_some() {
                out.push(Move::Step { from, to });
            }
        }
        if matches!(from_kind, Some(PileKind::Tableau(_))) {
            if let Some(to) = l.cell_ids().find(|&c| self.pile(c).is_empty()) {
                out.push(Move::Step { from, to });
            }
        }
    }

    /// Whether `to` is the first of the destinations interchangeable with it.
    fn canonical_target(&self, to: PileId) -> bool {
        match self.layout.kind(to) {
            Some(PileKind::Foundation(i)) => {
                let rule = &self.spec.foundations[i as usize];
                let pile = self.pile(to);
                !(0..i).any(|j| {
                    let other = self.layout.foundation(j);
                    self.spec.foundations[j as usize] == *rule
                        && self.pile(other).len() == pile.len()
                        && self.pile(other).last() == pile.last()
                })
            }
            _ => true,
        }
    }

    /// Whether foundation `f` takes `card` now.
    #[inline]
    pub fn foundation_takes(&self, f: PileId, card: Card) -> bool {
        if !self.foundation_step_ok(f, card) {
            return false;
        }
        let i = (f.0 - self.layout.tableau) as usize;
        let rule = &self.spec.foundations[i];
        match rule.last_after_open {
            Some(other) if self.pile(f).len() + 1 == rule.capacity as usize => {
                !self.pile(self.layout.foundation(other)).is_empty()
            }
            _ => true,
        }
    }

    /// Whether tableau pile `to` takes `card` on its top (or, empty, at all).
    #[inline]
    pub fn tableau_takes(&self, to: PileId, card: Card) -> bool {
        match self.top(to) {
            Some(top) => {
                let (c, t) = (self.spec.order(card), self.spec.order(top));
                match self.spec.build {
                    Build::None => false,
                    Build::DownInSuit => card.suit() == top.suit() && t == c + 1,
                    Build::UpOrDownInSuit => card.suit() == top.suit() && t.abs_diff(c) == 1,
                    Build::DownAlternateColour => card.colour() != top.colour() && t == c + 1,
                }
            }
            None => match self.spec.empty_pile {
                EmptyPile::TakesKing => self.spec.order(card) == self.spec.top_order(),
                EmptyPile::TakesWasteThenStockThenAny => {
                    self.waste().is_empty() && self.stock().is_empty()
                }
                _ => false,
            },
        }
    }

    /// How many cards a step from `from` onto tableau pile `to` carries, if it
    /// is legal: 1, or where runs move, the run whose base fits.
    pub(crate) fn run_onto(&self, from: PileId, to: PileId) -> Option<usize> {
        let from_kind = self.layout.kind(from)?;
        if matches!(from_kind, PileKind::Cell(_) | PileKind::Stock) {
            return None;
        }
        let pile = self.pile(from);
        let len = pile.len();
        let top = *pile.last()?;
        let to_empty = self.pile(to).is_empty();
        let mut best = self.tableau_takes(to, top).then_some(1);
        if self.spec.moves_runs && matches!(from_kind, PileKind::Tableau(_)) {
            let mut k = 1;
            while k < len && self.is_run_link(pile[len - k - 1], pile[len - k]) {
                k += 1;
                if self.tableau_takes(to, pile[len - k]) {
                    best = Some(k);
                }
            }
        }
        let n = best?;
        // Moving a whole pile onto an empty one changes nothing but the pile's
        // place: not offered, so that no game or search loops on it.
        if to_empty && n == len && matches!(from_kind, PileKind::Tableau(_)) {
            return None;
        }
        Some(n)
    }

    fn is_run_link(&self, lower: Card, upper: Card) -> bool {
        lower.suit() == upper.suit() && self.spec.order(lower) == self.spec.order(upper) + 1
    }

    pub(crate) fn draw_available(&self) -> bool {
        !self.draw_used
            && match self.spec.draw {
                Draw::Never => false,
                Draw::InLastDeal => self.redeals_used == self.spec.redeals.count,
                Draw::Anytime => true,
            }
    }

    pub(crate) fn draw_target_ok(&self, from: PileId, card: Card, to: PileId) -> bool {
        match self.layout.kind(to) {
            Some(PileKind::Foundation(_)) => self.foundation_takes(to, card),
            Some(PileKind::Tableau(_)) => {
                // Onto the top card by the usual rule; the top of its own fan counts.
                self.top(to).is_some()
                    && self.tableau_takes(to, card)
                    && (to != from || self.pile(from).len() >= 2)
            }
            _ => false,
        }
    }

    pub(crate) fn deal_available(&self) -> bool {
        self.spec.stock_action != StockAction::None && !self.stock().is_empty()
    }

    pub(crate) fn redeal_available(&self) -> bool {
        let r = &self.spec.redeals;
        self.redeals_used < r.count
            && (!r.needs_empty_stock || self.stock().is_empty())
            && self.layout.tableau_ids().any(|t| !self.pile(t).is_empty())
    }

    /// Checks a move and says how many cards it carries (0 for deals and redeals).
    pub fn check(&self, mv: Move) -> Result<usize, MoveError> {
        let l = self.layout;
        let name = |p: PileId| l.name(p).to_string();
        let exists = |p: PileId| {
            if p.0 < l.piles {
                Ok(())
            } else {
                Err(MoveError::NoSuchPile(p.0))
            }
        };
        match mv {
            Move::Step { from, to } => {
                exists(from)?;
                exists(to)?;
                let card = self
                    .top(from)
                    .ok_or_else(|| MoveError::EmptySource(name(from)))?;
                let refused = || MoveError::Refused { card, to: name(to) };
                let from_kind = l.kind(from).ok_or(MoveError::NoSuchPile(from.0))?;
                match from_kind {
                    PileKind::Stock => return Err(MoveError::NotPlayable(name(from))),
                    PileKind::Foundation(_) if !self.spec.foundation_returns => {
                        return Err(MoveError::NotPlayable(name(from)))
                    }
                    _ => {}
                }
                if from == to {
                    return Err(refused());
                }
                match l.kind(to) {
                    Some(PileKind::Foundation(_)) => {
                        if !matches!(from_kind, PileKind::Foundation(_))
                            && self.foundation_takes(to, card)
                        {
                            Ok(1)
                        } else {
                            Err(refused())
                        }
                    }
                    Some(PileKind::Tableau(_)) => self.run_onto(from, to).ok_or_else(refused),
                    Some(PileKind::Cell(_)) => {
                        if matches!(from_kind, PileKind::Tableau(_)) && self.pile(to).is_empty() {
                            Ok(1)
                        } else {
                            Err(refused())
                        }
                    }
                    _ => Err(refused()),
                }
            }
            Move::Draw { from, index, to } => {
                exists(from)?;
                exists(to)?;
                if !self.draw_available() {
                    return Err(MoveError::NoDraw);
                }
                let pile = self.pile(from);
                if !matches!(l.kind(from), Some(PileKind::Tableau(_)))
                    || index as usize + 1 >= pile.len()
                {
                    return Err(MoveError::BadDrawIndex(name(from)));
                }
                let card = pile[index as usize];
                if self.draw_target_ok(from, card, to) {
                    Ok(1)
                } else {
                    Err(MoveError::Refused { card, to: name(to) })
                }
            }
            Move::Deal => self.deal_available().then_some(0).ok_or(MoveError::NoDeal),
            Move::Redeal => self
                .redeal_available()
                .then_some(0)
                .ok_or(MoveError::NoRedeal),
        }
    }
}
