//! Which moves are legal, and in what order they are listed. Together with
//! `tables.rs` (which card may go onto which: the build and foundation
//! sequences) this is the only place the rules of play are written.
//!
//! [`Position::legal_moves`] lists them in one deterministic order: steps by
//! source pile (tableau, foundations, cells, reserve, waste), each to the
//! foundations first, then the tableau, then the cells; then draws; then the
//! deal; then the redeal. Destinations that are interchangeable count once:
//! two foundations of the same rule with the same cards, the empty cells, the
//! empty tableau piles (only the first of each is listed; a move to another one
//! is still legal and means the same).

use crate::card::Card;
use crate::card::{bit, CardSet};
use crate::layout::{PileId, PileKind};
use crate::moves::Move;
use crate::position::Position;
use crate::spec::{Draw, EmptyPile, StockAction};

/// The cards some foundation takes now ([`Position::home_cards`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HomeCards(CardSet);

impl HomeCards {
    /// Whether some foundation takes `card` now.
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.0 & bit(card) != 0
    }
}

/// Where cards could go now, kept per pile rather than per card: a few
/// card sets that a card's destinations are read off ([`Targets::foundations`],
/// [`Position::tableau_targets`]). A move list asks this of the dozen or so
/// top cards only, so filling a table for all 56 cards at every call (as
/// the first version did: half a kilobyte cleared and scattered into per
/// node) cost more than finding the piles of the rare card that has
/// somewhere to go.
struct Targets {
    /// `home[i]`: the cards foundation `i` takes now (0 for a foundation
    /// that is full, or interchangeable with an earlier one).
    home: [CardSet; MAX_FOUNDATIONS],
    /// The union of `home`: the cards some foundation takes now.
    home_any: CardSet,
    /// The cards on top of the tableau piles.
    tops: CardSet,
    /// The cards some tableau top takes now.
    onto_any: CardSet,
    /// Foundations that are the first of their interchangeable kind.
    canonical_foundations: u16,
    first_empty: Option<PileId>,
    first_free_cell: Option<PileId>,
    /// The cards the player may put on an empty tableau pile now.
    empty_takes: CardSet,
}

/// More foundations than any game has (foundation sets are bits of a `u16`).
const MAX_FOUNDATIONS: usize = 16;

impl Targets {
    /// The foundations that take `card` now, as bits of their number, the
    /// interchangeable ones left out.
    #[inline]
    fn foundations(&self, card: Card, count: usize) -> u16 {
        if self.home_any & bit(card) == 0 {
            return 0;
        }
        let mut fs = 0;
        for (i, &takes) in self.home[..count].iter().enumerate() {
            if takes & bit(card) != 0 {
                fs |= 1 << i;
            }
        }
        fs
    }
}

/// Why a move is not legal in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A pile id beyond the game's piles.
    #[error("there is no pile {0} in this game")]
    NoSuchPile(u8),
    /// The source pile has no card.
    #[error("{0} is empty")]
    EmptySource(String),
    /// The source is a pile no card is played from (a foundation that does not give back, the stock).
    #[error("cards cannot be played from {0}")]
    NotPlayable(String),
    /// The destination does not take the card.
    #[error("{card} cannot go onto {to}")]
    Refused {
        /// The card the move would carry (the bottom card of a run).
        card: Card,
        /// The destination's name.
        to: String,
    },
    /// The game has no draw, it is used, or it is not allowed yet.
    #[error("the draw is not available now")]
    NoDraw,
    /// The draw names a pile that is not a fan, or a depth with no covered card.
    #[error("no card at that depth of {0} can be drawn")]
    BadDrawIndex(String),
    /// A stock click with nothing to deal.
    #[error("there is nothing to deal")]
    NoDeal,
    /// A redeal that is not allowed now ([`Position::redeal_refusal`] says why).
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
    ///
    /// Destinations are found by bitmask: first, for every card, the tableau
    /// piles and the foundations that would take it now; then each source's
    /// top card reads its destinations off in pile order. The masks come from
    /// `tables.rs`, which evaluates the same rules [`Position::check`]
    /// applies, so the list and the check cannot disagree (the property
    /// tests hold them to it).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        debug_assert!(
            self.layout
                .tableau_ids()
                .all(|t| self.tops[t.index()] == self.top(t).map_or(0, |c| c.byte())),
            "cached tops out of step with the piles"
        );
        out.clear();
        let l = self.layout;
        let targets = self.find_targets();
        // Most fan tops can go nowhere: a top card that no foundation, no
        // other top, no empty pile and no cell takes (and that carries no run
        // along) has no step, and its pile is passed over at the cost of one
        // test. Bit 0 is no card: an empty pile is never a source.
        let movable = if self.spec.moves_runs || targets.first_free_cell.is_some() {
            CardSet::MAX
        } else {
            targets.home_any
                | targets.onto_any
                | targets.first_empty.map_or(0, |_| targets.empty_takes)
        } & !1;
        for (i, &top) in self.tops[..l.tableau as usize].iter().enumerate() {
            if movable & 1 << top != 0 {
                self.push_tableau_steps(PileId(i as u8), Card::from_byte(top), &targets, out);
            }
        }
        if self.spec.foundation_returns {
            for f in l.foundation_ids() {
                // Foundations giving a card back are sources alike when they
                // are interchangeable destinations: list the first only.
                if targets.canonical_foundations & 1 << (f.0 - l.tableau) != 0 {
                    if let Some(card) = self.top(f) {
                        self.push_steps(f, card, &targets, out);
                    }
                }
            }
        }
        for from in l.cell_ids().chain(l.reserve).chain(l.waste) {
            if let Some(card) = self.top(from) {
                self.push_steps(from, card, &targets, out);
            }
        }
        if self.draw_available() {
            self.push_draws(&targets, out);
        }
        if self.deal_available() {
            out.push(Move::Deal);
        }
        if self.redeal_available() {
            out.push(Move::Redeal);
        }
    }

    /// Where cards could go now (see [`Targets`]).
    #[inline]
    fn find_targets(&self) -> Targets {
        let l = self.layout;
        let tb = self.tables;
        let mut t = Targets {
            home: [0; MAX_FOUNDATIONS],
            home_any: 0,
            tops: 0,
            onto_any: 0,
            canonical_foundations: 0,
            first_empty: None,
            first_free_cell: l.cell_ids().find(|&c| self.piles[c.index()].is_empty()),
            // As `tableau_takes` says of an empty pile.
            empty_takes: match self.spec.empty_pile {
                EmptyPile::TakesKing => tb.tops,
                EmptyPile::TakesWasteThenStockThenAny
                    if self.waste().is_empty() && self.stock().is_empty() =>
                {
                    CardSet::MAX
                }
                _ => 0,
            },
        };
        for (i, &top) in self.tops[..l.tableau as usize].iter().enumerate() {
            if top == 0 {
                t.first_empty.get_or_insert(PileId(i as u8));
            } else {
                t.tops |= bit(Card::from_byte(top));
                t.onto_any |= tb.onto[Card::from_byte(top).index()];
            }
        }
        for (i, f) in l.foundation_ids().enumerate() {
            let pile = &self.piles[f.index()];
            let same_as_earlier = {
                let mut earlier = tb.same_rule_before[i];
                let mut same = false;
                while earlier != 0 {
                    let j = earlier.trailing_zeros() as u8;
                    earlier &= earlier - 1;
                    let other = &self.piles[l.foundation(j).index()];
                    if other.len() == pile.len() && other.last() == pile.last() {
                        same = true;
                        break;
                    }
                }
                same
            };
            if same_as_earlier {
                continue;
            }
            t.canonical_foundations |= 1 << i;
            let cards = self.foundation_next(i);
            t.home[i] = cards;
            t.home_any |= cards;
        }
        t
    }

    /// The cards foundation `i` (counted among the foundations) takes now:
    /// what [`Position::foundation_takes`] answers for each card. Always
    /// inlined: the move list asks it of every foundation at every position,
    /// and with a plain `#[inline]` the compiler makes it a call, which
    /// makes a Novomanernaya search about 4% slower.
    #[inline(always)]
    fn foundation_next(&self, i: usize) -> CardSet {
        let l = self.layout;
        let pile = &self.piles[l.foundation(i as u8).index()];
        let rule = &self.spec.foundations[i];
        if pile.len() >= rule.capacity as usize {
            return 0;
        }
        let top = pile.last().map_or(Card::COUNT, |c| c.index());
        match rule.last_after_open {
            Some(other)
                if pile.len() + 1 == rule.capacity as usize
                    && self.piles[l.foundation(other).index()].is_empty() =>
            {
                0
            }
            _ => self.tables.next[i][top],
        }
    }

    /// The cards some foundation takes now, all at once: a search that
    /// asks of many cards whether one goes home asks this once a position.
    #[inline]
    pub fn home_cards(&self) -> HomeCards {
        HomeCards(
            (0..self.layout.foundations as usize).fold(0, |acc, i| acc | self.foundation_next(i)),
        )
    }

    /// The tableau piles whose top card takes `card` now, as bits of their
    /// pile id (empty piles are not among them). Most cards have none, and
    /// the cards `card` builds on that lie on top somewhere say so without
    /// looking at the piles.
    #[inline]
    fn tableau_targets(&self, card: Card, targets: &Targets) -> u64 {
        let mut on = self.tables.takers[card.index()] & targets.tops;
        let mut ts = 0;
        while on != 0 {
            ts |= self.piles_topped_by(on.trailing_zeros() as u8);
            on &= on - 1;
        }
        ts
    }

    /// The tableau piles whose top card has [`Card::byte`] `b` (never 0),
    /// as bits of their pile id: the cached tops compared eight at a time
    /// (a byte of `x ^ b·0x01…01` is zero where the top is `b`; the exact
    /// zero-byte test sets its high bit, and one multiply gathers the eight
    /// high bits into a byte). Branch-free: which pile holds a card is
    /// anyone's guess, and a mispredicted branch per pile cost more.
    #[inline]
    fn piles_topped_by(&self, b: u8) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let ones = 0x0101_0101_0101_0101 * b as u64;
        let mut piles = 0;
        let n = self.layout.tableau as usize;
        for (c, chunk) in self.tops[..n.next_multiple_of(8)]
            .chunks_exact(8)
            .enumerate()
        {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ ones;
            let zero = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
            piles |= ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * c);
        }
        piles
    }

    /// Where runs move: the tableau piles that take some card of the run on
    /// top of tableau pile `from` (below its top card) as the run's base.
    #[inline]
    fn run_base_targets(&self, from: PileId, targets: &Targets) -> u64 {
        let pile = &self.piles[from.index()];
        let len = pile.len();
        let mut ts = 0;
        let mut k = 1;
        while k < len && self.is_run_link(pile[len - k - 1], pile[len - k]) {
            k += 1;
            ts |= self.tableau_targets(pile[len - k], targets);
        }
        ts
    }

    /// The steps of `card`, the top card of tableau pile `from`: the general
    /// [`Position::push_steps`] without asking what kind of pile `from` is.
    #[inline]
    fn push_tableau_steps(&self, from: PileId, card: Card, targets: &Targets, out: &mut Vec<Move>) {
        let l = self.layout;
        let mut fs = targets.foundations(card, l.foundations as usize);
        while fs != 0 {
            let i = fs.trailing_zeros() as u8;
            fs &= fs - 1;
            out.push(Move::Step {
                from,
                to: l.foundation(i),
            });
        }
        let mut ts = self.tableau_targets(card, targets);
        if self.spec.moves_runs {
            ts |= self.run_base_targets(from, targets);
        }
        if let Some(e) = targets.first_empty {
            // Without runs this is `run_onto(from, e)` read off the card set:
            // the top card alone, and never a lone card (a whole pile moved
            // onto an empty one is not offered).
            let opens = if self.spec.moves_runs {
                self.empty_pile_open() && self.run_onto(from, e).is_some()
            } else {
                targets.empty_takes & bit(card) != 0 && self.piles[from.index()].len() > 1
            };
            if opens {
                ts |= 1 << e.0;
            }
        }
        ts &= !(1u64 << from.0);
        while ts != 0 {
            let to = PileId(ts.trailing_zeros() as u8);
            ts &= ts - 1;
            out.push(Move::Step { from, to });
        }
        if let Some(to) = targets.first_free_cell {
            out.push(Move::Step { from, to });
        }
    }

    /// The steps of `card`, the top card of `from`, in destination order.
    fn push_steps(&self, from: PileId, card: Card, targets: &Targets, out: &mut Vec<Move>) {
        let l = self.layout;
        let from_kind = l.kind(from);
        let from_tableau = matches!(from_kind, Some(PileKind::Tableau(_)));
        let from_foundation = matches!(from_kind, Some(PileKind::Foundation(_)));
        if !from_foundation {
            let mut fs = targets.foundations(card, l.foundations as usize);
            while fs != 0 {
                let i = fs.trailing_zeros() as u8;
                fs &= fs - 1;
                out.push(Move::Step {
                    from,
                    to: l.foundation(i),
                });
            }
        }
        if matches!(from_kind, Some(PileKind::Cell(_))) {
            return;
        }
        let mut ts = self.tableau_targets(card, targets);
        if self.spec.moves_runs && from_tableau {
            ts |= self.run_base_targets(from, targets);
        }
        if let Some(e) = targets.first_empty {
            if e != from && self.empty_pile_open() && self.run_onto(from, e).is_some() {
                ts |= 1 << e.0;
            }
        }
        if from_tableau {
            ts &= !(1u64 << from.0);
        }
        while ts != 0 {
            let to = PileId(ts.trailing_zeros() as u8);
            ts &= ts - 1;
            out.push(Move::Step { from, to });
        }
        if from_tableau {
            if let Some(to) = targets.first_free_cell {
                out.push(Move::Step { from, to });
            }
        }
    }

    /// Whether the player may ever put a card on an empty tableau pile in this game.
    fn empty_pile_open(&self) -> bool {
        matches!(
            self.spec.empty_pile,
            EmptyPile::TakesKing | EmptyPile::TakesWasteThenStockThenAny
        )
    }

    /// The draws: each covered card of each fan to every foundation and fan
    /// top that takes it, foundations first, each kind in pile order. This is
    /// [`Position::draw_target_ok`] and [`Position::canonical_target`] read off
    /// the targets: a foundation listed there takes the card and is the first
    /// of its interchangeable kind; a fan listed there has a top card that
    /// takes it (the draw's own fan included: a covered card leaves at least
    /// one card above it).
    fn push_draws(&self, targets: &Targets, out: &mut Vec<Move>) {
        let l = self.layout;
        for from in l.tableau_ids() {
            let pile = self.pile(from);
            for (index, &card) in pile.iter().enumerate().take(pile.len().saturating_sub(1)) {
                let mut fs = targets.foundations(card, l.foundations as usize);
                while fs != 0 {
                    let i = fs.trailing_zeros() as u8;
                    fs &= fs - 1;
                    out.push(Move::Draw {
                        from,
                        index: index as u8,
                        to: l.foundation(i),
                    });
                }
                let mut ts = self.tableau_targets(card, targets);
                while ts != 0 {
                    let to = PileId(ts.trailing_zeros() as u8);
                    ts &= ts - 1;
                    out.push(Move::Draw {
                        from,
                        index: index as u8,
                        to,
                    });
                }
            }
        }
    }

    /// Whether `to` is the first of the destinations interchangeable with it.
    #[cfg(test)]
    fn canonical_target(&self, to: PileId) -> bool {
        match self.layout.kind(to) {
            Some(PileKind::Foundation(i)) => {
                let pile = self.pile(to);
                let mut earlier = self.tables.same_rule_before[i as usize];
                while earlier != 0 {
                    let j = earlier.trailing_zeros() as u8;
                    earlier &= earlier - 1;
                    let other = self.pile(self.layout.foundation(j));
                    if other.len() == pile.len() && other.last() == pile.last() {
                        return false;
                    }
                }
                true
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
            Some(top) => self.tables.onto[top.index()] & bit(card) != 0,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prng::SplitMix64;
    use crate::spec::GameSpec;

    /// The draws listed the plain way: every covered card against every
    /// foundation and fan, by the rule functions themselves.
    fn draws_by_rule(pos: &Position) -> Vec<Move> {
        let l = pos.layout;
        let mut out = Vec::new();
        for from in l.tableau_ids() {
            let pile = pos.pile(from);
            for (index, &card) in pile.iter().enumerate().take(pile.len().saturating_sub(1)) {
                for to in l.foundation_ids().chain(l.tableau_ids()) {
                    if pos.draw_target_ok(from, card, to) && pos.canonical_target(to) {
                        out.push(Move::Draw {
                            from,
                            index: index as u8,
                            to,
                        });
                    }
                }
            }
        }
        out
    }

    /// Every legal move by the rule functions alone, in the documented
    /// order: each source pile in pile order (tableau, foundations that give
    /// cards back, cells, reserve, waste) to the foundations, then the
    /// tableau, then the cells, each in pile order, leaving out a
    /// destination interchangeable with an earlier one; then the draws, the
    /// deal and the redeal.
    fn moves_by_rule(pos: &Position) -> Vec<Move> {
        let l = pos.layout;
        let first_empty = l.tableau_ids().find(|&t| pos.pile(t).is_empty());
        let first_free_cell = l.cell_ids().find(|&c| pos.pile(c).is_empty());
        let mut out = Vec::new();
        let sources = l
            .tableau_ids()
            .chain(l.foundation_ids().filter(|&f| pos.canonical_target(f)))
            .chain(l.cell_ids())
            .chain(l.reserve)
            .chain(l.waste);
        for from in sources {
            let destinations = l
                .foundation_ids()
                .filter(|&f| pos.canonical_target(f))
                .chain(
                    l.tableau_ids()
                        .filter(|&t| !pos.pile(t).is_empty() || Some(t) == first_empty),
                )
                .chain(first_free_cell);
            for to in destinations {
                let mv = Move::Step { from, to };
                if pos.check(mv).is_ok() {
                    out.push(mv);
                }
            }
        }
        if pos.draw_available() {
            out.extend(draws_by_rule(pos));
        }
        for mv in [Move::Deal, Move::Redeal] {
            if pos.check(mv).is_ok() {
                out.push(mv);
            }
        }
        out
    }

    /// Every position along random games of every game, deals `1..=deals`,
    /// at most `plies` moves each, the moves drawn from a generator seeded
    /// by the deal and `salt`: `at` is shown each with its game and deal.
    fn along_random_games(
        deals: u64,
        plies: usize,
        salt: u64,
        mut at: impl FnMut(&GameSpec, u64, &Position),
    ) {
        for g in crate::games() {
            for deal in 1..=deals {
                let mut p = Position::deal(g, deal).unwrap();
                let mut rng = SplitMix64::new(deal ^ salt);
                for _ in 0..plies {
                    at(g, deal, &p);
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.apply(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
    }

    /// The move list read off the targets is the rules' list, move for move
    /// and in order, along random games of every game (the search's node
    /// counts depend on the order, not only on the set).
    #[test]
    fn the_move_list_is_the_rules_list_in_order() {
        let mut compared = 0;
        along_random_games(12, 400, 0x5eed, |g, deal, p| {
            let moves = p.legal_moves();
            assert_eq!(
                moves,
                moves_by_rule(p),
                "{} deal {deal}\n{}",
                g.id,
                p.to_text()
            );
            compared += moves.len();
        });
        assert!(compared > 20_000, "{compared}");
    }

    /// `home_cards` names exactly the cards some foundation takes, card for
    /// card, along random games of every game (foundations that open on a
    /// later card, build down, wrap or wait for a partner among them).
    #[test]
    fn the_home_cards_are_the_cards_a_foundation_takes() {
        let (mut wanted, mut unwanted) = (0, 0);
        along_random_games(6, 300, 0x4045, |g, deal, p| {
            let home = p.home_cards();
            for card in (0..Card::COUNT).filter_map(Card::from_index) {
                let takes = p
                    .layout
                    .foundation_ids()
                    .any(|f| p.foundation_takes(f, card));
                assert_eq!(home.contains(card), takes, "{} deal {deal} {card:?}", g.id);
                if takes {
                    wanted += 1;
                } else {
                    unwanted += 1;
                }
            }
        });
        assert!(wanted > 5_000 && unwanted > 50_000, "{wanted} {unwanted}");
    }

    #[test]
    fn draws_read_off_the_targets_match_the_rule_in_order() {
        let mut compared = 0;
        for g in crate::games().iter().filter(|g| g.draw != Draw::Never) {
            for deal in 1..=20 {
                let mut p = Position::deal(g, deal).unwrap();
                let mut rng = SplitMix64::new(deal);
                for _ in 0..300 {
                    let moves = p.legal_moves();
                    if p.draw_available() {
                        let draws: Vec<Move> = moves
                            .iter()
                            .copied()
                            .filter(|m| matches!(m, Move::Draw { .. }))
                            .collect();
                        assert_eq!(draws, draws_by_rule(&p), "{} deal {deal}", g.id);
                        compared += draws.len();
                    }
                    // Play on without drawing, so that the draw stays open.
                    let plays: Vec<Move> = moves
                        .into_iter()
                        .filter(|m| !matches!(m, Move::Draw { .. }))
                        .collect();
                    if plays.is_empty() {
                        break;
                    }
                    p.apply(plays[rng.below(plays.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }
}
