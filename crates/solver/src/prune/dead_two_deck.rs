//! Dead positions of the two-deck games built down in suit, in their last
//! deal: Krakowski, Novomanernaya, House in the Woods, Fan Layout, Swallows.
//!
//! **The rule.** Call a set `S` of cards lying in piles (fans, and the waste
//! where there is one) *stuck* when every card `x` of `S` has both of these:
//!
//! 1. *it cannot go home first:* some lower card `y` of `x`'s suit has both
//!    copies off the foundations and each copy lies under a card of `S` in
//!    its pile; or the other copy of `x` is home, and some lower card `y`
//!    has a copy off the foundations that lies under a card of `S`;
//! 2. *it cannot leave by the table first:* every copy of the card one rank
//!    above `x` in suit (the only card the build rule lets `x` onto) that is
//!    not on a foundation lies under a card of `S` in its pile; a king has no
//!    such card.
//!
//! If a stuck set is not empty, the position is lost. Take the first move of
//! any line of play that moves a card of `S` off its pile. Until then every
//! card of `S` lies where it lay, and so does every card under one (only a
//! pile's top card moves, and nothing is ever slid under a card). So, at
//! that move, the copies of (1)'s `y` are both still buried and off the
//! foundations: `x`'s foundation cannot show the card below `x`, for a
//! foundation builds up in suit from the ace through `y`. Where the other
//! copy of `x` is home, a foundation holds it, and with it one copy of every
//! lower card of the suit; `x` can only go onto the suit's other foundation,
//! which must hold the other copy of each lower card, `y`'s buried copy
//! among them: it cannot show the card below `x` either. And every copy of
//! the card above `x` is buried or home (foundations never give a card back):
//! none is a fan top to take `x`. No other way off is left: cards move one at
//! a time (no runs), an emptied fan is never filled by the player (it stays
//! empty, or takes the stock's next card at once), nothing is built on the
//! waste, there are no cells, no draw is left and no redeal gathers the
//! cards. So no such move exists, the cards of (1) never reach their
//! foundations, and the game is not won. A card in the stock is never in `S`
//! and never counts as buried: it comes out in the stock's order, to the waste
//! or to a fan.
//!
//! **Finding one.** Only the highest member of a pile buries anything: the
//! cards under it. So the test peels each pile from its top: the pile's top
//! card is the first candidate; while a pile's candidate passes (1) or (2)
//! (it may leave), it is dropped and the card under it becomes the candidate,
//! no longer buried. When no candidate can be dropped, the candidates left
//! form a stuck set: each fails (1) and (2) given exactly the cards under
//! the candidates, which are the buried ones. If every pile is peeled to the
//! bottom, no stuck set exists (dropping a card is right whatever was
//! dropped before, for a card that may leave while more cards are buried may
//! leave when fewer are), and the position is not judged dead.
//!
//! **Why stock cards count as free.** Counting a card free never makes the
//! test call a live position dead, so this is sound; the argument here is
//! that, for the first clause of (1), it loses nothing. A stock card buries
//! nothing, so it could join a stuck set only by failing (1) and (2) itself.
//! Failing (1)'s first clause needs a lower card of
//! its suit with both copies held. In that suit, take the lowest card with
//! both copies held: a copy of it held in the stock would need a lower card
//! still with both copies held, so both its copies lie in piles, in or under
//! pile cards of the set, and every card of the set in that suit fails (1)
//! through that card alone. Condition (2) counts the stock's copies as
//! takers whether they are held or not (a refill may lay one on an emptied
//! fan, where it takes a card without the player having moved it). So the
//! pile cards of a stuck set are a stuck set by themselves, with every stock
//! card free, and they are not empty when the set is not. Through the
//! second clause (one held copy, the other copy of the card home) a held
//! stock card could hold more; the test does not look for that. Likewise a waste
//! card that may only go home could be refused as a taker (it reaches a fan
//! only onto a copy of the card it builds on); on Krakowski deals 1..30 at
//! 1,500,000 positions that changes no count of positions searched, and it
//! is not done.
//!
//! **The stock held.** Where the stock's cards come out only onto emptied
//! fans (Novomanernaya's last deal: no waste, no click on the stock), the
//! test first counts every stock card held: neither free to leave nor a
//! taker. If peeling so leaves a stuck set with a card in every fan, the
//! position is lost. Take the
//! first move of any line that moves a card of `S`. A fan empties only
//! when all its cards have left, its card of `S` among them, so until that
//! move no fan empties, no refill is dealt, and the stock lies as it lay:
//! its cards were neither home nor fan tops, as the second run counted
//! them, and the argument above goes through unchanged. Once some fan is
//! peeled bare, that fan may empty and deal the stock's cards out one by
//! one, so the held stock proves nothing more: the test frees the stock's
//! cards and peels on to the greatest stuck set with the stock free (a card
//! that may leave with the stock held may leave with it free, so what was
//! peeled stays peeled).
//!
//! **After a step or a turn.** Where a position was found alive, its child
//! by a step from fan `A` (or from the waste) to fan `B`, or by a card
//! turned onto the waste, that refilled no fan, is alive too when the card
//! moved, `c`, may leave at once by the peel's rule in the child (it may go
//! home, or a copy of the card it builds on is a fan's top, or in the stock
//! with the stock free). Peel `c` first: the child's peel then stands where
//! the parent's began, or further. Each pile holds the same cards still to
//! peel as in the parent (`B` the parent's `B`, its top a taker again once
//! `c` is peeled; `A` the parent's `A` less `c`; a turned card's waste the
//! parent's waste), and the same copies are home. `c` is a taker, as it was
//! on `A`'s top or in the stock, or more than it was on the waste's top
//! (a taker there only once peeled), and free, as it was in the stock, and
//! sooner than on `A`'s or the waste's top; `A`'s new top is a taker more,
//! and the card the waste showed under `c` is its candidate at once. With nothing refilled the stock is the
//! parent's (less a turned card). A fan emptied without a refill means an
//! empty stock, free in both; else every fan that held cards still does,
//! and the stock is held or free as in the parent. A card that may leave
//! in a peel may leave in any peel that has freed more, so the child peels
//! all that the parent peeled: a fan the parent bared with the stock held,
//! and every card with the stock free.
//!
//! **A card sent home.** Where a position was found alive, its child by a
//! step that sends a card `c` home from a fan or the waste, refilling
//! nothing, is alive too when the other copy of `c`, `x`, is home, or in
//! the stock with the stock free, or on a pile's top and may leave at once
//! by the peel's rule in the child. The child's peel, `x` peeled first where
//! it lies on a top, stands where the parent's began, or further: every
//! pile holds the cards still to peel that it held in the parent, or fewer
//! (the card under `c` is a candidate, and on a fan a taker, at once); the
//! copies of `c` home or free are at least those the parent counted once it
//! had peeled `c` (`c` home now, `x` as it was, or free); and a card's way
//! home is read the same for every card above `c`, whose copies home did
//! not change. What `c` gave the parent's peel besides is a taker for the
//! card below it, and `x` gives that still: on a fan's top or in the free
//! stock it is a taker from the start, off the waste once peeled. Where
//! `x` is home too, both foundations of the suit hold `c`, so every lower
//! card of the suit is home and needs no taker. `x` itself is where the
//! child differs: with `c` home it may go home only onto the suit's other
//! foundation, which needs both copies of each lower card, so `x` buried
//! could hold a stuck set the parent did not have, and the test runs.
//!
//! With one deck this is the one-deck test of [`crate::prune`] made
//! transitive; with two decks a card over one copy of a lower card is not
//! enough: the other copy may open the foundation. The classic two-deck case:
//! a king lying on both aces of its suit, or a king on one ace in the waste
//! while the other ace lies under a queen whose kings are both buried.

use std::cell::RefCell;

use patience_engine::{Card, GameSpec, PileId, Position};

/// Most piles the test looks at (House in the Woods has 35 fans). Each
/// pile's cards are tracked as bits of a `u128` (a two-deck pack is 104
/// cards, so no pile is longer).
const MAX_PILES: usize = 48;

/// Whether the test applies to this game at this moment (see the module
/// documentation for why each condition is needed).
pub fn applies(pos: &Position) -> bool {
    pos.redeals_left() == 0 && !pos.draw_left() && game_allows(pos)
}

/// The conditions of [`applies`] that are the game's, not the position's:
/// worked out once per game and thread (the search asks [`applies`] at
/// every position; a game's spec lives for the whole program, so its
/// address names it).
fn game_allows(pos: &Position) -> bool {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<(*const GameSpec, bool)> = const { Cell::new((std::ptr::null(), false)) };
    }
    let spec = pos.spec();
    let (last, allows) = LAST.get();
    if std::ptr::eq(last, spec) {
        return allows;
    }
    let layout = pos.layout();
    // An emptied fan stays empty or takes the stock's next card at once:
    // never a card the player chooses.
    let fans_ok = !spec.player_may_fill_emptied_fans();
    let allows = spec.copies_of_each_card() == 2
        && spec.builds_down_in_suit()
        && spec.moves_one_card()
        && fans_ok
        && !spec.foundations_give_cards_back()
        && layout.cells == 0
        && layout.reserve.is_none()
        && (layout.tableau as usize) < MAX_PILES
        && spec.foundations_up_in_suit();
    LAST.set((spec, allows));
    allows
}

/// No card (past a king, or a place the deck lacks).
pub(super) const NONE: u8 = u8::MAX;

/// Per card its place in its suit's foundation sequence, and the card it
/// builds on in the table (the one rank above it in suit; `NONE` for a
/// king); per suit the card at each place. Asked of the engine once per
/// game and thread: the search asks the test at every position.
#[derive(Clone, Copy)]
pub(super) struct Tables {
    pub(super) order: [u8; Card::COUNT],
    pub(super) above: [u8; Card::COUNT],
    /// Per card, the card that builds on it (the one rank below it in
    /// suit; `NONE` for the first place).
    pub(super) below: [u8; Card::COUNT],
    pub(super) at: [[u8; 13]; 4],
    pub(super) top_order: usize,
}

/// The tables of `pos`'s game. Where [`applies`] holds the foundations build
/// up in suit without wrapping, so the places are the game's, not the
/// position's.
pub(super) fn tables(pos: &Position) -> Tables {
    use std::cell::Cell;
    thread_local! {
        static CACHE: Cell<Option<(&'static str, Tables)>> = const { Cell::new(None) };
    }
    let spec = pos.spec();
    if let Some((id, t)) = CACHE.get() {
        if id == spec.id {
            return t;
        }
    }
    let mut t = Tables {
        order: [NONE; Card::COUNT],
        above: [NONE; Card::COUNT],
        below: [NONE; Card::COUNT],
        at: [[NONE; 13]; 4],
        top_order: 0,
    };
    if let Some(places) = pos.suit_places() {
        for c in spec.pack() {
            let o = places.of(c);
            if let Some(slot) = t.at[c.suit().index()].get_mut(o as usize) {
                *slot = c.index() as u8;
                t.order[c.index()] = o;
                t.top_order = t.top_order.max(o as usize + 1);
            }
            if let Some(up) = pos.targets_of(c).next() {
                t.above[c.index()] = up.index() as u8;
                t.below[up.index()] = c.index() as u8;
            }
        }
    }
    CACHE.set(Some((spec.id, t)));
    t
}

/// Whether the stock holds cards that come out only onto emptied fans
/// (Novomanernaya's last deal), and every fan holds cards: then while every
/// fan holds a card of a stuck set, the stock stays as it is.
fn stock_held_till_a_fan_empties(pos: &Position) -> bool {
    let layout = pos.layout();
    pos.spec().stock_leaves_only_by_refills()
        && layout.stock.is_some_and(|s| !pos.pile(s).is_empty())
        && layout.tableau_ids().all(|f| !pos.pile(f).is_empty())
}

/// How the peel counts the stock's cards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stock {
    /// Free to leave and to take a card: they may come out at any time.
    Free,
    /// Neither: they stay in the stock while every fan holds a stuck card.
    Held,
}

/// Per suit, which places of its foundation sequence have a copy of their
/// card home or free to leave, and which have both: bits by place, so that
/// the lowest place short of one copy or of two is a count of trailing ones.
/// A card's copies home are read off the suit's foundations' heights (each
/// foundation of a suit holds that suit's cards from the first place up).
struct Freed {
    /// Per suit, the heights of its highest and second highest foundation.
    heights: [[u8; 2]; 4],
    /// Copies of each card free to leave (in the stock, or peeled).
    leave: [u8; Card::COUNT],
    /// Per suit, the places with at least one copy home or free, and with
    /// two.
    one: [u16; 4],
    two: [u16; 4],
    /// Places past the suits' last: never set, so a count stops there.
    top_order: usize,
}

impl Freed {
    fn new(pos: &Position, top_order: usize) -> Freed {
        let mut heights = [[0u8; 2]; 4];
        for f in pos.layout().foundation_ids() {
            let pile = pos.pile(f);
            if let Some(&first) = pile.first() {
                let h = &mut heights[first.suit().index()];
                let len = pile.len().min(top_order) as u8;
                if len > h[0] {
                    *h = [len, h[0]];
                } else if len > h[1] {
                    h[1] = len;
                }
            }
        }
        Freed {
            heights,
            leave: [0; Card::COUNT],
            one: [0; 4],
            two: [0; 4],
            top_order,
        }
    }

    /// Copies of the card at place `o` of suit `s` home.
    #[inline]
    fn home_at(&self, s: usize, o: usize) -> u8 {
        let [a, b] = self.heights[s];
        (o < a as usize) as u8 + (o < b as usize) as u8
    }

    /// Counts the stock's cards free to leave, with the bits they set, where
    /// nothing was peeled yet.
    fn free_stock(&mut self, stock: &StockCounts) {
        self.leave = stock.counts;
        for s in 0..4 {
            let [a, b] = self.heights[s];
            let (home_one, home_two) = (low_bits(a), low_bits(b));
            self.one[s] = home_one | stock.one[s];
            self.two[s] = home_two | (home_one & stock.one[s]) | stock.two[s];
        }
    }

    /// Counts the stock's cards free to leave after a peel with the stock
    /// held: one card at a time.
    fn free_stock_after_peeling(&mut self, stock: &[Card], order: &[u8; Card::COUNT]) {
        for &c in stock {
            self.free(c.index(), c.suit().index(), order[c.index()] as usize);
        }
    }

    /// The bits of the cards home alone (the stock held).
    fn hold_stock(&mut self) {
        for s in 0..4 {
            let [a, b] = self.heights[s];
            self.one[s] = low_bits(a);
            self.two[s] = low_bits(b);
        }
    }

    /// One more copy of card index `i`, at place `o` of suit `s`, free to
    /// leave (a card at no place, `NONE`, sets no bit).
    #[inline]
    fn free(&mut self, i: usize, s: usize, o: usize) {
        self.leave[i] += 1;
        let n = self.home_at(s, o) + self.leave[i];
        let bit = 1u16.checked_shl(o as u32).unwrap_or(0);
        if n >= 1 {
            self.one[s] |= bit;
        }
        if n >= 2 {
            self.two[s] |= bit;
        }
    }

    /// Whether the card at place `o` of suit `s` may go home first: every
    /// lower place has a copy home or free, or both where a copy of this
    /// card is home (it then needs the other foundation, which must take a
    /// copy of every lower card too).
    #[inline]
    fn goes_home(&self, s: usize, o: usize) -> bool {
        let bits = if self.home_at(s, o) > 0 {
            self.two[s]
        } else {
            self.one[s]
        };
        o <= (bits.trailing_ones() as usize).min(self.top_order)
    }
}

/// The places below `n`, as bits.
fn low_bits(n: u8) -> u16 {
    ((1u32 << n) - 1) as u16
}

/// The copies of each card in a stock, with per suit the places that hold
/// one copy or more and two.
#[derive(Clone, Copy)]
struct StockCounts {
    counts: [u8; Card::COUNT],
    one: [u16; 4],
    two: [u16; 4],
}

/// Every bottom part of the stock last seen, counted: a deal's stock only
/// loses cards from its top, so the search asks the test of one stock's
/// bottom parts until the deal changes, and the test need not count up to
/// 68 stock cards again at every position.
struct StockCache {
    cards: Vec<Card>,
    /// `bottoms[n]`: the bottom `n` cards of `cards`, counted.
    bottoms: Vec<StockCounts>,
}

impl StockCache {
    /// The counts of `stock` (bottom first), counted again only when it is
    /// not a bottom part of the stock last counted.
    fn counts(&mut self, stock: &[Card], order: &[u8; Card::COUNT]) -> StockCounts {
        if self.bottoms.is_empty() || self.cards.get(..stock.len()) != Some(stock) {
            self.cards.clear();
            self.cards.extend_from_slice(stock);
            self.bottoms.clear();
            let mut counts = StockCounts {
                counts: [0; Card::COUNT],
                one: [0; 4],
                two: [0; 4],
            };
            self.bottoms.push(counts);
            for &c in stock {
                let n = &mut counts.counts[c.index()];
                *n += 1;
                let (s, o) = (c.suit().index(), order[c.index()]);
                if o != NONE {
                    counts.one[s] |= 1 << o;
                    if *n >= 2 {
                        counts.two[s] |= 1 << o;
                    }
                }
                self.bottoms.push(counts);
            }
        }
        self.bottoms[stock.len()]
    }
}

/// The counts of `stock`, from this thread's [`StockCache`].
fn stock_counts(stock: &[Card], order: &[u8; Card::COUNT]) -> StockCounts {
    thread_local! {
        static STOCKS: RefCell<StockCache> = const {
            RefCell::new(StockCache { cards: Vec::new(), bottoms: Vec::new() })
        };
    }
    STOCKS.with_borrow_mut(|cache| cache.counts(stock, order))
}

/// Whether the card on top of `pile` (a fan, or the waste) may leave at once
/// by the peel's own rule: it may go home, or a copy of the card it builds
/// on is a fan's top or, the stock free, in the stock. Asked of a position
/// that a step from one fan to another or a card turned onto the waste just
/// made, refilling nothing, from a position [`is_dead`] found alive: then
/// this position is alive too, and the peel need not run (see *After a
/// step or a turn* in the module documentation).
pub fn top_leaves_at_once(pos: &Position, pile: PileId) -> bool {
    let Some(&c) = pos.pile(pile).last() else {
        return false;
    };
    let Tables {
        order,
        above,
        top_order,
        ..
    } = tables(pos);
    let layout = pos.layout();
    // A held stock is not counted: it frees nothing and takes nothing.
    let counted = (!stock_held_till_a_fan_empties(pos)).then(|| {
        let stock_pile = layout.stock.map_or(&[][..], |s| pos.pile(s));
        stock_counts(stock_pile, &order)
    });
    let mut freed = Freed::new(pos, top_order);
    match &counted {
        Some(counted) => freed.free_stock(counted),
        None => freed.hold_stock(),
    }
    if freed.goes_home(c.suit().index(), order[c.index()] as usize) {
        return true;
    }
    let up = above[c.index()];
    up != NONE
        && (counted.is_some_and(|k| k.counts[up as usize] > 0)
            || layout
                .tableau_ids()
                .any(|f| pos.pile(f).last().is_some_and(|t| t.index() == up as usize)))
}

/// Whether the card on top of `foundation`, just sent home by a step from a
/// position [`is_dead`] found alive, refilling nothing, leaves this
/// position alive too: its other copy is home, or in the stock with the
/// stock free, or on a pile's top and may leave at once
/// ([`top_leaves_at_once`]). See *A card sent home* in the module
/// documentation.
pub fn home_card_spares_the_peel(pos: &Position, foundation: PileId) -> bool {
    let Some(&c) = pos.pile(foundation).last() else {
        return false;
    };
    let layout = pos.layout();
    let Tables { order, .. } = tables(pos);
    let o = order[c.index()] as usize;
    if layout
        .foundation_ids()
        .any(|f| f != foundation && pos.pile(f).get(o) == Some(&c))
    {
        return true;
    }
    if !stock_held_till_a_fan_empties(pos) {
        let stock = layout.stock.map_or(&[][..], |s| pos.pile(s));
        if stock_counts(stock, &order).counts[c.index()] > 0 {
            return true;
        }
    }
    layout
        .tableau_ids()
        .chain(layout.waste)
        .any(|p| pos.pile(p).last() == Some(&c) && top_leaves_at_once(pos, p))
}

/// Whether the position is lost by the rule of the module documentation,
/// or by the rule with the stock held where the stock leaves only by
/// refills. Call only where [`applies`] holds. At most a few hundred steps
/// a peel: each pass over the piles peels at least one card or ends it.
pub fn is_dead(pos: &Position) -> bool {
    // Where the stock leaves only by refills, peel first with the stock
    // held; once a fan is bare or nothing more peels with no fan bare (then
    // the position is lost), free the stock's cards and peel on. Peeling is
    // monotone, and a card that may leave with the stock held may leave with
    // it free, so what is left at the end is the test's greatest stuck set.
    let mut stock = if stock_held_till_a_fan_empties(pos) {
        Stock::Held
    } else {
        Stock::Free
    };
    let layout = pos.layout();
    let Tables {
        order,
        above,
        top_order,
        ..
    } = tables(pos);
    // Copies of each card home or free to leave (in the stock, or peeled),
    // and copies that may yet take a card on the table (those free to
    // leave, and the candidates of fans, which stay but may be uncovered).
    let mut freed = Freed::new(pos, top_order);
    let mut target = [0u8; Card::COUNT];
    let stock_pile = layout.stock.map_or(&[][..], |s| pos.pile(s));
    // The stock's cards as targets, counted only once the stock is free (a
    // held stock, most positions of Novomanernaya's last deal, is not).
    let free_target = |target: &mut [u8; Card::COUNT]| {
        let counted = stock_counts(stock_pile, &order);
        for (t, n) in target.iter_mut().zip(counted.counts) {
            *t += n;
        }
        counted
    };
    if stock == Stock::Free {
        let counted = free_target(&mut target);
        freed.free_stock(&counted);
    } else {
        freed.hold_stock();
    }
    // Each pile's candidate, as its height plus one (0 once peeled to the
    // bottom), and whether the pile is a fan (else the waste).
    let mut ids = [PileId(0); MAX_PILES];
    let mut next = [0usize; MAX_PILES];
    let mut n = 0;
    for p in layout.tableau_ids().chain(layout.waste) {
        let pile = pos.pile(p);
        if let Some(&top) = pile.last() {
            ids[n] = p;
            next[n] = pile.len();
            if Some(p) != layout.waste {
                target[top.index()] += 1;
            }
            n += 1;
        }
    }
    loop {
        let mut peeled = false;
        let mut left = false;
        let mut bare_fan = false;
        for k in 0..n {
            let pile = pos.pile(ids[k]);
            let fan = Some(ids[k]) != layout.waste;
            while next[k] > 0 {
                let x = pile[next[k] - 1];
                let o = order[x.index()] as usize;
                let s = x.suit().index();
                let up = above[x.index()];
                let goes_on_table = up != NONE && target[up as usize] > 0;
                if !(goes_on_table || freed.goes_home(s, o)) {
                    break;
                }
                // Peel `x`: it may leave, and the card under it is the
                // pile's candidate, uncovered.
                next[k] -= 1;
                peeled = true;
                freed.free(x.index(), s, o);
                if !fan {
                    target[x.index()] += 1;
                }
                if fan && next[k] > 0 {
                    target[pile[next[k] - 1].index()] += 1;
                }
            }
            bare_fan |= fan && next[k] == 0;
            left |= next[k] > 0;
        }
        if stock == Stock::Held && (bare_fan || !peeled) {
            if !bare_fan {
                return true;
            }
            stock = Stock::Free;
            freed.free_stock_after_peeling(stock_pile, &order);
            free_target(&mut target);
            continue;
        }
        if !left {
            return false;
        }
        if !peeled {
            return true;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::{solve_with, Options};
    use patience_engine::prng::SplitMix64;
    use patience_engine::{Move, PileKind, Suit};

    /// The stuck-set rule written out as the module documentation states it:
    /// start with every card in a fan or the waste, drop any card that may
    /// leave given the set, until none is dropped; then, where the stock
    /// leaves only by refills, the same with the stock held, dead when a
    /// card of the set is left in every fan. The peeling of [`is_dead`] must
    /// agree.
    fn is_dead_by_fixed_point(pos: &Position) -> bool {
        let fans = pos.layout().tableau as usize;
        stuck_by_fixed_point(pos, false)
            .iter()
            .flatten()
            .any(|&m| m)
            || (stock_held_till_a_fan_empties(pos)
                && stuck_by_fixed_point(pos, true)[..fans]
                    .iter()
                    .all(|fan| fan.iter().any(|&m| m)))
    }

    /// The greatest stuck set, as membership by pile (the fans, then the
    /// waste) and height; the stock's cards count as free, or as held
    /// (neither free nor takers) when `held`.
    fn stuck_by_fixed_point(pos: &Position, held: bool) -> Vec<Vec<bool>> {
        let spec = pos.spec();
        let layout = pos.layout();
        let piles: Vec<PileId> = layout.tableau_ids().chain(layout.waste).collect();
        let mut member: Vec<Vec<bool>> = piles
            .iter()
            .map(|&p| vec![true; pos.pile(p).len()])
            .collect();
        let home: Vec<Card> = layout
            .foundation_ids()
            .flat_map(|f| pos.pile(f).to_vec())
            .collect();
        let stock: Vec<Card> = match layout.stock {
            Some(s) if !held => pos.pile(s).to_vec(),
            _ => Vec::new(),
        };
        loop {
            // Where every copy of every card is: home, stock, or (pile, height).
            let buried =
                |k: usize, i: usize, member: &Vec<Vec<bool>>| member[k][i + 1..].iter().any(|&m| m);
            // A copy "may leave": in the stock, or in a pile, neither a member nor buried.
            let may_leave = |c: Card, member: &Vec<Vec<bool>>| {
                stock.contains(&c)
                    || piles.iter().enumerate().any(|(k, &p)| {
                        pos.pile(p)
                            .iter()
                            .enumerate()
                            .any(|(i, &d)| d == c && !member[k][i] && !buried(k, i, member))
                    })
            };
            // A copy may take a card: it may leave, or it is an unburied fan card.
            let may_take = |c: Card, member: &Vec<Vec<bool>>| {
                may_leave(c, member)
                    || piles.iter().enumerate().any(|(k, &p)| {
                        Some(p) != layout.waste
                            && pos
                                .pile(p)
                                .iter()
                                .enumerate()
                                .any(|(i, &d)| d == c && !buried(k, i, member))
                    })
            };
            let mut dropped = false;
            for k in 0..piles.len() {
                for i in 0..member[k].len() {
                    if !member[k][i] {
                        continue;
                    }
                    let x = pos.pile(piles[k])[i];
                    let o = spec.order(x) as usize;
                    // Copies of `y` home or free to leave.
                    let free = |y: Card| {
                        home.iter().filter(|&&h| h == y).count()
                            + stock.iter().filter(|&&h| h == y).count()
                            + piles
                                .iter()
                                .enumerate()
                                .map(|(k, &p)| {
                                    (0..pos.pile(p).len())
                                        .filter(|&i| {
                                            pos.pile(p)[i] == y
                                                && !member[k][i]
                                                && !buried(k, i, &member)
                                        })
                                        .count()
                                })
                                .sum::<usize>()
                    };
                    // The other copy home: every lower card twice.
                    let needed = 1 + home.contains(&x) as usize;
                    let goes_home = (0..o).all(|lo| {
                        let y = Card::new(spec.ranks.rank_at(lo).unwrap(), x.suit());
                        free(y) >= needed
                    });
                    let goes_on_table = spec
                        .ranks
                        .rank_at(o + 1)
                        .is_some_and(|r| may_take(Card::new(r, x.suit()), &member));
                    if goes_home || goes_on_table {
                        member[k][i] = false;
                        dropped = true;
                    }
                }
            }
            if !dropped {
                return member;
            }
        }
    }

    #[test]
    fn a_king_is_dead_over_both_aces_or_over_the_ace_its_foundation_lacks() {
        // House in the Woods, last deal: every card home but the spades
        // laid out in the fans, one line a fan.
        let p = |fans: &str| {
            let spec = patience_engine::game("house-in-the-woods").unwrap();
            let mut piles =
                vec![Vec::new(); Position::deal(spec, 1).unwrap().layout().piles as usize];
            let mut rest: Vec<Card> = spec.pack();
            for (i, line) in fans.lines().enumerate() {
                for t in line.split_whitespace() {
                    let c: Card = t.parse().unwrap();
                    let at = rest.iter().position(|&d| d == c).unwrap();
                    rest.remove(at);
                    piles[i].push(c);
                }
            }
            // Everything else home, suit by suit, each copy on its own foundation.
            let l = *Position::deal(spec, 1).unwrap().layout();
            for (k, s) in Suit::ALL.into_iter().enumerate() {
                for copy in 0..2 {
                    let f = l.foundation(4 * copy + k as u8);
                    let mut run = Vec::new();
                    for r in spec.ranks.ranks() {
                        let c = Card::new(r, s);
                        match rest.iter().position(|&d| d == c) {
                            Some(at) => {
                                rest.remove(at);
                                run.push(c);
                            }
                            None => break,
                        }
                    }
                    piles[f.index()] = run;
                }
            }
            Position::from_parts(spec, 1, piles, 2, false).unwrap()
        };
        // Both aces of spades under a king of spades: dead.
        let dead =
            p("AS AS KS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS");
        assert!(applies(&dead));
        assert!(is_dead(&dead) && is_dead_by_fixed_point(&dead));
        // One ace free: alive.
        let alive = p(
            "AS KS\nAS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        );
        assert!(!is_dead(&alive) && !is_dead_by_fixed_point(&alive));
        // Transitive: the king covers one ace; the other ace lies under a
        // queen whose two kings are both under that king.
        // The other king is stuck too, so the queen under it stays and so
        // does the second ace: no card of either fan alone shows it.
        let chain = p(
            "AS KS\nAS QS KS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS",
        );
        assert!(is_dead(&chain) && is_dead_by_fixed_point(&chain));
        // A king on the second ace, its other king home: the king can only
        // go onto the foundation that lacks an ace, so it never leaves, though
        // every card of spades has a copy home.
        let second = p("AS KS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS");
        assert_eq!(second.pile(second.layout().foundation(0)).len(), 13);
        assert!(is_dead(&second) && is_dead_by_fixed_point(&second));
        // With the ace free of it the king waits for that ace: alive.
        let apart = p("AS\nKS\n2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS");
        assert!(!is_dead(&apart) && !is_dead_by_fixed_point(&apart));
        // With redeals left the test is off.
        assert!(!applies(&dead.clone().with_redeals_left(1).unwrap()));
    }

    /// A random game's move: a foundation move when there is one (most of
    /// the time), so that games go deep enough for dead positions.
    fn random_move(p: &Position, rng: &mut SplitMix64) -> Option<Move> {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let home = |m: &&Move| {
            matches!(m, Move::Step { to, .. }
                if matches!(p.layout().kind(*to), Some(PileKind::Foundation(_))))
        };
        if rng.below(4) != 0 {
            if let Some(&m) = moves.iter().find(home) {
                return Some(m);
            }
        }
        Some(moves[rng.below(moves.len() as u64) as usize])
    }

    const GAMES: [&str; 4] = [
        "krakowski",
        "novomanernaya",
        "house-in-the-woods",
        "fan-layout",
    ];

    #[test]
    fn peeling_agrees_with_the_fixed_point_along_random_games() {
        let mut dead = 0;
        let mut seen = 0;
        for g in GAMES {
            let spec = patience_engine::game(g).unwrap();
            for deal in 1..=12 {
                let mut p = Position::deal(spec, deal)
                    .unwrap()
                    .with_redeals_left(0)
                    .unwrap();
                assert!(applies(&p), "{g}");
                let mut rng = SplitMix64::new(deal);
                for _ in 0..400 {
                    let d = is_dead(&p);
                    assert_eq!(d, is_dead_by_fixed_point(&p), "{g} {deal}\n{}", p.to_text());
                    dead += d as usize;
                    seen += 1;
                    let Some(m) = random_move(&p, &mut rng) else {
                        break;
                    };
                    p.apply(m).unwrap();
                }
            }
        }
        eprintln!("{dead} dead of {seen}");
        assert!(dead > seen / 10, "{dead} dead of {seen}");
    }

    /// The test after a move ([`crate::prune::is_dead_after`]) judges every
    /// child of a live position as the full test does, along random games
    /// of the games it applies to and random endings of Krakowski: both
    /// where the card a step onto a fan (from a fan or the waste) or a turn
    /// moved may leave at once, or a card sent home spares the peel (no peel
    /// runs), and where not.
    #[test]
    fn the_test_after_a_step_or_a_turn_agrees_with_the_full_one() {
        use crate::prune::{is_dead as full_test, is_dead_after};
        let (mut skipped, mut dead) = (0, 0);
        let mut from_waste = (0, 0);
        let mut home = (0, 0);
        for g in GAMES.into_iter().chain(["swallows"]) {
            let mut positions = along_random_games(g, 12, 400, 1, 0);
            // Random endings have long wastes: many steps from the waste.
            if g == "krakowski" {
                positions.extend((0..2000).map(|seed| ending(g, seed)));
            }
            for mut p in positions {
                if full_test(&p) {
                    continue;
                }
                for m in p.legal_moves() {
                    let u = p.apply(m).unwrap();
                    let full = full_test(&p);
                    assert_eq!(
                        is_dead_after(&p, &u, true),
                        full,
                        "{g} {m:?}\n{}",
                        p.to_text()
                    );
                    dead += full as usize;
                    let fan = |q| matches!(p.layout().kind(q), Some(PileKind::Tableau(_)));
                    let moved_to = match m {
                        Move::Step { from, to }
                            if (fan(from) || Some(from) == p.layout().waste) && fan(to) =>
                        {
                            Some(to)
                        }
                        Move::Deal => p.layout().waste,
                        _ => None,
                    };
                    let skips =
                        moved_to.is_some_and(|to| !u.refilled() && top_leaves_at_once(&p, to));
                    skipped += skips as usize;
                    if moved_to.is_some()
                        && matches!(m, Move::Step { from, .. } if Some(from) == p.layout().waste)
                    {
                        if skips {
                            from_waste.0 += 1;
                        } else {
                            from_waste.1 += full as usize;
                        }
                    }
                    if let Move::Step { to, .. } = m {
                        if matches!(p.layout().kind(to), Some(PileKind::Foundation(_))) {
                            if !u.refilled() && home_card_spares_the_peel(&p, to) {
                                home.0 += 1;
                            } else {
                                home.1 += full as usize;
                            }
                        }
                    }
                    p.undo(&u);
                }
            }
        }
        assert!(
            skipped > 5000,
            "the moved card often leaves at once: {skipped}"
        );
        assert!(dead > 100, "some children are dead: {dead}");
        // Steps from the waste onto a fan: the peel skipped, and dead where
        // it runs.
        assert!(from_waste.0 > 200, "{from_waste:?}");
        assert!(from_waste.1 > 0, "{from_waste:?}");
        // Cards sent home: the peel skipped, and dead where it runs.
        assert!(home.0 > 1000 && home.1 > 20, "{home:?}");
    }

    /// The stock held (Novomanernaya's last deal): wherever the peel with
    /// the stock held alone calls a position with a move left dead, along
    /// random games from the deal and in random endings, a search without
    /// any dominance finds no win, and it proves the loss in enough of them
    /// to mean something.
    #[test]
    fn the_stock_held_calls_dead_only_positions_a_plain_search_loses() {
        let mut positions: Vec<Position> =
            (0..400).map(|seed| ending("novomanernaya", seed)).collect();
        positions.extend(along_random_games("novomanernaya", 40, 300, 1, 0x57c0));
        let (mut fired, mut proved) = (0, 0);
        for p in &positions {
            // Only positions with a move left: a plain search of one with
            // none proves nothing about the rule.
            let free_alone = stuck_by_fixed_point(p, false).iter().flatten().any(|&m| m);
            if free_alone || !is_dead(p) || p.legal_moves().is_empty() {
                continue;
            }
            fired += 1;
            let plain = solve_with(p, &Options::with_nodes(300_000, false)).outcome;
            assert_ne!(plain.won(), Some(true), "{}", p.to_text());
            proved += (plain.won() == Some(false)) as usize;
        }
        eprintln!("the stock held fired in {fired}, a plain search proved {proved} lost");
        assert!(proved >= 10, "fired {fired}, proved {proved}");
    }

    /// Positions along random games of `game`'s deals `1..=deals` in their
    /// last deal: every `every`-th of the first `plies` plies of each, the
    /// moves drawn from a generator seeded by the deal and `salt`.
    pub(in crate::prune) fn along_random_games(
        game: &str,
        deals: u64,
        plies: usize,
        every: usize,
        salt: u64,
    ) -> Vec<Position> {
        let spec = patience_engine::game(game).unwrap();
        let mut positions = Vec::new();
        for deal in 1..=deals {
            let mut p = Position::deal(spec, deal)
                .unwrap()
                .with_redeals_left(0)
                .unwrap();
            let mut rng = SplitMix64::new(deal ^ salt);
            for ply in 0..plies {
                if ply % every == every - 1 {
                    positions.push(p.clone());
                }
                let Some(m) = random_move(&p, &mut rng) else {
                    break;
                };
                p.apply(m).unwrap();
            }
        }
        positions
    }

    /// A random ending of `game` in its last deal: each suit's two
    /// foundations built to random heights, the cards left shuffled into
    /// the fans (a few each), the waste and the stock.
    pub(in crate::prune) fn ending(game: &str, seed: u64) -> Position {
        let spec = patience_engine::game(game).unwrap();
        let l = *Position::deal(spec, 1).unwrap().layout();
        let mut rng = SplitMix64::new(seed);
        let mut piles = vec![Vec::new(); l.piles as usize];
        let mut rest = Vec::new();
        let ranks = spec.ranks.ranks();
        for (k, s) in Suit::ALL.into_iter().enumerate() {
            for copy in 0..2u8 {
                // Two suits left, two home.
                let h = if k < 2 { rng.below(5) as usize } else { 13 };
                let f = l.foundation(4 * copy + k as u8);
                piles[f.index()] = ranks[..h].iter().map(|&r| Card::new(r, s)).collect();
                rest.extend(ranks[h..].iter().map(|&r| Card::new(r, s)));
            }
        }
        // Low cards mostly first, so mostly deep: how mostly, by seed, so
        // that some endings are won and some lost.
        let noise = 2 + seed % 30;
        let mut keyed: Vec<(u64, Card)> = rest
            .iter()
            .map(|&c| (spec.order(c) as u64 + rng.below(noise), c))
            .collect();
        keyed.sort_by_key(|&(k, _)| k);
        let rest: Vec<Card> = keyed.into_iter().map(|(_, c)| c).collect();
        // Fans first (a pile is never empty while the stock has cards), then
        // the waste, then the stock.
        let fans = l.tableau as usize;
        let in_fans = (fans * 2).min(rest.len());
        debug_assert!(l.stock.is_none() || rest.len() <= in_fans || in_fans >= fans);
        let in_waste = if l.waste.is_some() {
            (rest.len() - in_fans) / 2
        } else {
            0
        };
        for (i, &c) in rest.iter().enumerate() {
            let pile = if i < in_fans {
                l.tableau((i % fans) as u8)
            } else if i < in_fans + in_waste {
                l.waste.unwrap()
            } else {
                l.stock.unwrap_or(l.tableau((i % fans) as u8))
            };
            piles[pile.index()].push(c);
        }
        let used = spec.redeals_allowed();
        Position::from_parts(spec, 1, piles, used, false).unwrap()
    }

    /// Positions of every game the test applies to, solved with and without
    /// the dominances: an unsound dead test would turn a win into a proven
    /// loss. Random endings (mostly won) and positions along random games
    /// from the deal (mostly lost, many dead at once) both; each game must
    /// give at least 8 decided pairs of each verdict, and the test must fire
    /// near at least 24 of the lost ones (most in Krakowski, whose waste
    /// buries cards most). The default run takes a third of the positions,
    /// with the bars scaled; the full sweep: `cargo test -p patience-solver -- --ignored`.
    #[test]
    fn positions_keep_their_verdicts_under_the_dead_test() {
        keep_their_verdicts(10, 3, 2, 6);
    }

    #[test]
    #[ignore = "the full sweep, a minute: cargo test -p patience-solver -- --ignored"]
    fn positions_keep_their_verdicts_under_the_dead_test_full() {
        keep_their_verdicts(30, 10, 8, 24);
    }

    /// The sweep over `endings` random endings and the positions along
    /// `deals` random games of each game: each verdict at least `least`
    /// times a game, the test fired near at least `fired_least` losses.
    fn keep_their_verdicts(endings: u64, deals: u64, least: usize, fired_least: usize) {
        let mut fired_in_all = 0;
        for g in GAMES {
            let (mut won, mut lost, mut fired) = (0, 0, 0);
            let mut positions: Vec<Position> = (0..endings).map(|seed| ending(g, seed)).collect();
            positions.extend(along_random_games(g, deals, 200, 25, 0xdead));
            for p in &positions {
                let verdict = |dominances| {
                    solve_with(p, &Options::with_nodes(200_000, dominances))
                        .outcome
                        .won()
                };
                let (with, without) = (verdict(true), verdict(false));
                if let (Some(a), Some(b)) = (with, without) {
                    assert_eq!(a, b, "{g}: with the test {a}, without {b}\n{}", p.to_text());
                    if a {
                        won += 1;
                    } else {
                        lost += 1;
                        fired += search_fires(p) as usize;
                    }
                }
            }
            eprintln!("{g}: won {won}, lost {lost}, dead test fired in {fired}");
            assert!(won >= least && lost >= least, "{g}: won {won}, lost {lost}");
            fired_in_all += fired;
        }
        assert!(fired_in_all >= fired_least, "fired {fired_in_all}");
    }

    /// Whether `p` or a position two moves on is dead.
    fn search_fires(p: &Position) -> bool {
        let near = |q: &Position| {
            is_dead(q)
                || q.legal_moves().into_iter().any(|m| {
                    let mut r = q.clone();
                    r.apply(m).unwrap();
                    is_dead(&r)
                })
        };
        near(p)
            || p.legal_moves().into_iter().any(|m| {
                let mut q = p.clone();
                q.apply(m).unwrap();
                near(&q)
            })
    }
}
