//! Dead positions by the stock's order, in the two-deck games built down in
//! suit whose stock turns onto a waste (Krakowski) or leaves only by refills
//! (Novomanernaya), in their last deal.
//!
//! **The relaxation.** Each fan and the waste keep the cards they hold now,
//! in their order, and give them top first; the stock gives its cards in
//! its order. Call a card *loose* once it has left its pile without going
//! home, and *available* while a copy of it is loose, home or a fan's top.
//! The relaxed game has five moves:
//!
//! 1. a pile's top card (a fan's or the waste's) leaves: home, if a copy of
//!    the card below it in suit is home (an ace always may), else loose, if
//!    the card it builds on (one rank above it in suit) is available;
//! 2. the stock's next card leaves the same way;
//! 3. the stock's next card is turned onto the waste;
//! 4. the stock's next card is laid on a fan whose cards have all left,
//!    where it is that fan's only card;
//! 5. a loose card goes home, if a copy of the card below it is home.
//!
//! It is won when the piles and the stock are empty. Every real line of play
//! is a relaxed line. Map a real position to the relaxed one whose fans and
//! waste hold the cards they held at the start (or got by move 4) that have
//! not left, with the same stock and the same cards home. A card of a
//! pile's own going onto a fan lands on a fan top: a pile's own card with
//! everything above it gone (a relaxed fan top) or a card that came there
//! since (loose): move 1 or 2. A card going home finds the card below it on
//! a real foundation, so a copy of that card is home: move 1, 2 or 5 (the
//! relaxed foundations of a suit take a card whenever one copy of the card
//! below it is home, which the real ones allow only on the foundation that
//! shows it). A turn is move 3. A refill comes only onto an empty fan, so
//! every card of its own and every card laid on it has left it: move 4,
//! with the same card. A card that came onto a fan since is loose wherever
//! it goes, and a card home counts as available though nothing is built on
//! a foundation: both only allow more. So a real win is a relaxed win, and
//! a position whose relaxed game is lost is lost. The conditions are those
//! of [`super::pile_order::applies`].
//!
//! **What the search may skip.** Moves 1, 2 and 5 are made at once: the
//! relaxed game gets only better by them. A card home or loose stays
//! available for good, foundations only rise, a card that leaves uncovers
//! its pile or the stock, and a card sent home rather than loose loses
//! nothing (home is available too, and a loose card has nothing else to
//! do). So a search of the relaxed game chooses only between moves 3 and 4:
//! burying the waste, or taking an emptied fan, which stays taken until its
//! card leaves. Which emptied fan takes the card does not matter (all are
//! alike empty), so only the first is tried. And a card turned onto the
//! waste above both copies of the card below it in suit, and above both
//! copies of the card it builds on (a king: of the card below it), never
//! leaves: neither copy of either can go home or reach a fan before it
//! leaves the waste, which it cannot. Move 3 is not searched there.
//!
//! **A stock that leaves only by refills** ([`applies_to_refills`]:
//! Novomanernaya's last deal, no waste). There no click turns or deals the
//! stock: its next card comes out only when a fan empties, at once, onto
//! that fan. So moves 2 and 3 do not exist, and move 4 is the stock's only
//! way out; the mapping above still makes every real line a relaxed line (a
//! refill is move 4, with the same card). Move 4 is then made at once
//! too, whenever a fan's cards have all left: a relaxed line that lays the
//! card later, on a fan emptied by then, can lay it now on this fan
//! instead. Until then the card is a fan top it lacked (available, free to
//! leave), and the fan, empty, could take nothing else; when the later line
//! lays the card, both lines hold it on an emptied fan and have the same
//! fans emptied besides, which are all alike. With no choice left, one
//! closure of the moves always made decides the relaxed game, without a
//! search, at the cost of a few hundred steps: so the search asks it
//! wherever it asks the two-deck dead test in such a deal, before it
//! ([`super::is_dead`], [`super::is_dead_after`]). A child position needs
//! less. A card sent home (with the refill it may bring) is a move the
//! game makes at once, so the child's game is its parent's, won: the test
//! is not asked. A card laid on another fan's top leaves its own fan
//! loose in the parent's game, while the child's game holds it on the fan
//! it was laid on; every move made while it lies there is one the parent's
//! game makes too (the card loose only adds), so once it leaves, the
//! child's game stands where a line of the parent's stands, and is won.
//! So [`is_dead_after_step`] stops the closure there, and plays it to its
//! end only where the card never leaves. What it sees that the
//! two-deck test ([`super::dead_two_deck`]) does not is the stock's order: that
//! test frees every stock card once one fan may go bare, where here a card
//! laid on a fan holds that fan until it leaves, and the cards under it in
//! the stock wait for another fan to empty. A king laid there stays until
//! its suit's queen is home, and where the cards that queen needs lie under
//! it in the stock and no other fan can empty, the position is lost.
//!
//! **Exact foundations** ([`is_dead_within_by`]). A stronger relaxed game
//! keeps the real foundations: a card goes home only where a foundation of
//! its suit shows the card below it (more copies of that card are home than
//! of the card itself). Going home is then not always best at once: where
//! the card would take the last such foundation while its other copy still
//! lies in a pile or the stock, a real line may send that copy there first
//! and leave this one where it lies. So there going home is a move the
//! search chooses (a pile's top, the stock's next card, or a loose card);
//! such a card leaves its pile loose at once where the card it builds on is
//! available (it stays available, and what lies under it is uncovered), and
//! otherwise stays. Everywhere else going home stays a move made at once:
//! with two foundations showing the card below, or with the other copy off
//! its pile already (the two copies are then alike), no other card can want
//! the foundation it takes, and a card home still counts available. A real
//! line is still a relaxed line with those moves made at once, so a position
//! whose relaxed game is lost is lost. Its searches need hundreds of
//! thousands of relaxed positions where the game by suit needs dozens, so
//! the solve asks it only once, of the position it is asked to solve (the
//! `Relaxed` pass, `passes.rs`): at the start of Krakowski deals 1..1000 it
//! proves 77 lost within 1,000,000 relaxed positions, 23 of them deals the
//! game by suit leaves alive. Asked in the search too, after each card
//! turned where the game by suit finds the position alive, it costs more
//! than it cuts: within 1,000 relaxed positions (about 250 µs a test) it
//! finds from none to one in five of those positions dead, by stock
//! height, and asked so at 28 or more stock cards it leaves 44 of the 52
//! Krakowski deals of 1..100 unknown at 1 s unknown at 10 s, against 40
//! without it (43 asked at 34 or more within 10,000; `patience solve
//! krakowski --deal N --time-ms 10000` on each deal, with each build). A
//! test holds it, too, to a search of the real game, along the person-like
//! player's games.
//!
//! This is the relaxed game of [`super::pile_order`] with the stock kept in
//! its order, its foundations counted by suit and its cards home counted
//! available: there every stock card is loose from the start, and above 25
//! stock cards nearly every relaxed game is won. Here a relaxed game is
//! decided within a few dozen relaxed positions at 26 to 35 stock cards, and
//! proves from one in ten to two in three of the positions lost there that
//! the full search meets after a card turned, by stock height (Krakowski
//! deal 69). Only a search that ends without a
//! relaxed win within [`BUDGET`] calls the position dead, so the budget
//! costs verdicts, never soundness.
//!
//! A loose card stays available however many cards lie on it, though a
//! real card laid on a fan covers the card under it until it leaves. Kept
//! soundly, that makes the game choose which copy of a card takes the one
//! place a copy offers, and a search that chooses outgrows the budgets the
//! game is asked with: it proves fewer positions lost, not more
//! (`docs/solver.md`, *Why the relaxed games give way*). A card home
//! counts available for the same reason, since a loose card may go home at
//! any time; with exact foundations, a card kept from going home at once
//! while it is the last copy a card still to come could be laid on proves
//! most of the large lost positions lost, but in searches as large as the
//! real game's (the same section).
//!
//! A test holds the relaxation to a search of the real game along random
//! games and in random endings: every position it calls dead has no win.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use patience_engine::{Card, PileId, Position};

use super::dead_two_deck::{tables, Tables, NONE};
use super::relaxed::{piles, Count, Counts, PILES};
use crate::key::PrehashedSet;

/// Most stock cards the test handles: one bit each in [`State::turned`].
const STOCK: usize = 128;

/// Whether the test applies: the piles' order test's conditions.
pub fn applies(pos: &Position) -> bool {
    super::pile_order::applies(pos) && pos.stock_len() <= STOCK
}

/// Whether the test applies to a stock that leaves only by refills
/// (Novomanernaya's last deal): the two-deck dead test's conditions, no
/// waste, and a stock with cards.
pub fn applies_to_refills(pos: &Position) -> bool {
    let layout = pos.layout();
    layout.waste.is_none()
        && pos.spec().stock_leaves_only_by_refills()
        && (1..=STOCK).contains(&pos.stock_len())
        && (layout.tableau as usize) < PILES
        && super::dead_two_deck::applies(pos)
}

/// One relaxed position: the cards left of each pile's own, the stock card
/// laid on each emptied fan, the stock's cards dealt and those turned onto
/// the waste and still there. By suit, the cards home and loose follow
/// from these (every card that may go home has), so they are not part of
/// it; with exact foundations going home may be a choice, so the cards home
/// are.
#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    left: [u8; PILES],
    refill: [u8; PILES],
    dealt: u8,
    turned: u128,
    /// With exact foundations, per card two bits: its copies home.
    home: u128,
}

impl Hash for State {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let word = |b: &[u8]| b.iter().fold(0u64, |w, &x| w << 8 | x as u64);
        let mixed = (word(&self.left[..8])
            ^ word(&self.left[8..16]).rotate_left(29)
            ^ word(&self.left[16..]).rotate_left(11)
            ^ word(&self.refill[..8]).rotate_left(7)
            ^ word(&self.refill[8..16]).rotate_left(53)
            ^ word(&self.refill[16..]).rotate_left(23)
            ^ (self.turned as u64).rotate_left(13)
            ^ ((self.turned >> 64) as u64).rotate_left(37)
            ^ self.dealt as u64
            ^ (self.home as u64).rotate_left(17)
            ^ ((self.home >> 64) as u64).rotate_left(41))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        state.write_u64(mixed ^ mixed >> 31);
    }
}

/// What the relaxed positions are searched with, kept between tests.
struct Scratch {
    seen: PrehashedSet<State>,
    stack: Vec<(State, Counts, bool)>,
}

/// The relaxed game of one position.
struct Game<'a> {
    piles: [&'a [Card]; PILES],
    fan: [bool; PILES],
    n: usize,
    waste: usize,
    /// The stock's pile: its next card is the last.
    stock: &'a [Card],
    t: Tables,
    /// Whether the stock turns onto a waste; else its cards come out only
    /// onto emptied fans, and the refill is made at once.
    turns: bool,
    /// The fan a card was just laid on from a position whose relaxed game
    /// is won, by a move the game makes at once ([`is_dead_after_step`]),
    /// or [`PILES`]: once that card leaves, the game is won.
    watch: usize,
    /// Foundations exact: a card goes home only on a foundation showing the
    /// card below it, and where that is the last such foundation while the
    /// card's other copy is still in a pile or the stock, whether it goes
    /// is a choice.
    exact: bool,
}

impl Game<'_> {
    /// The stock's `i`-th card to come out.
    fn stock_card(&self, i: usize) -> Card {
        self.stock[self.stock.len() - 1 - i]
    }

    /// The stock's `i`-th card to come out, if the stock holds so many.
    fn stock_card_at(&self, i: usize) -> Option<&Card> {
        let n = self.stock.len();
        (i < n).then(|| &self.stock[n - 1 - i])
    }

    /// Pile `k`'s top card in `s`.
    fn top(&self, s: &State, k: usize) -> Option<Card> {
        if k == self.waste && s.turned != 0 {
            return Some(self.stock_card(127 - s.turned.leading_zeros() as usize));
        }
        let left = s.left[k] as usize;
        if s.refill[k] != NONE {
            return (left > 0).then(|| self.stock_card(s.refill[k] as usize));
        }
        (left > 0).then(|| self.piles[k][left - 1])
    }

    /// Whether a copy of `y` is loose, home or a fan top.
    fn available(c: &Counts, y: u8) -> bool {
        /// The bits of a card's byte that count copies loose, fan tops or home.
        const AVAILABLE: u8 = 3 * (Count::Loose as u8 | Count::FanTops as u8 | Count::Home as u8);
        y != NONE && c.cards[y as usize] & AVAILABLE != 0
    }

    /// Whether `x` may go home: the card below it has a copy home (with
    /// exact foundations: more copies home than `x` has).
    fn homeable(&self, c: &Counts, x: usize) -> bool {
        let b = self.t.below[x];
        if !self.exact {
            return b == NONE || c.get(b as usize, Count::Home) > 0;
        }
        if b == NONE {
            c.get(x, Count::Home) < 2
        } else {
            c.get(b as usize, Count::Home) > c.get(x, Count::Home)
        }
    }

    /// With exact foundations, whether `x` going home would take the last
    /// foundation that shows the card below it while its other copy is
    /// still in a pile or the stock (`in_pile`: `x` itself is still there).
    fn contended(&self, c: &Counts, x: usize, in_pile: bool) -> bool {
        let b = self.t.below[x];
        self.exact
            && b != NONE
            && c.get(x, Count::InPiles) > in_pile as u8
            && c.get(b as usize, Count::Home) == c.get(x, Count::Home) + 1
    }

    /// Whether `x` goes home at once: it may, and nothing is chosen by it.
    fn home_at_once(&self, c: &Counts, x: usize, in_pile: bool) -> bool {
        self.homeable(c, x) && !self.contended(c, x, in_pile)
    }

    /// Counts one more copy of `x` home.
    fn add_home(&self, s: &mut State, c: &mut Counts, x: usize) {
        c.add(x, Count::Home);
        if self.exact {
            s.home += 1 << (2 * x);
        }
    }

    /// Sends `x`, just off its pile, home, and after it every loose card of
    /// its suit that may follow.
    fn go_home(&self, s: &mut State, c: &mut Counts, x: usize) {
        self.add_home(s, c, x);
        let mut y = x;
        loop {
            // `above` is the card one rank up in suit: the next card home.
            let up = self.t.above[y];
            if up == NONE {
                return;
            }
            let up = up as usize;
            let mut moved = false;
            while c.get(up, Count::Loose) > 0 && self.home_at_once(c, up, false) {
                c.sub(up, Count::Loose);
                self.add_home(s, c, up);
                moved = true;
            }
            if !moved {
                return;
            }
            y = up;
        }
    }

    /// Takes pile `k`'s top card `x` off: home if it may go, else loose.
    fn take(&self, s: &mut State, c: &mut Counts, k: usize, x: usize) {
        self.take_home_if(s, c, k, x, false);
    }

    /// [`Self::take`], sending `x` home even where that is a choice
    /// (`chosen`).
    fn take_home_if(&self, s: &mut State, c: &mut Counts, k: usize, x: usize, chosen: bool) {
        if k == self.waste && s.turned != 0 {
            s.turned &= !(1 << (127 - s.turned.leading_zeros()));
        } else {
            s.left[k] -= 1;
        }
        c.sub(x, Count::InPiles);
        let under = self.top(s, k);
        c.tops[k] = under.map_or(NONE, |y| y.index() as u8);
        if self.fan[k] {
            c.sub(x, Count::FanTops);
            if let Some(y) = under {
                c.add(y.index(), Count::FanTops);
            }
        }
        if self.home_at_once(c, x, false) || chosen {
            self.go_home(s, c, x);
        } else {
            c.add(x, Count::Loose);
        }
    }

    /// Deals the stock's next cards while each may leave at once (home, or
    /// loose where a copy of the card it builds on is available); whether
    /// any did.
    fn deal_leaving(&self, s: &mut State, c: &mut Counts) -> bool {
        let mut moved = false;
        while let Some(&x) = self.stock_card_at(s.dealt as usize) {
            let x = x.index();
            let home = self.home_at_once(c, x, true);
            if !home && !Self::available(c, self.t.above[x]) {
                break;
            }
            s.dealt += 1;
            c.sub(x, Count::InPiles);
            if home {
                self.go_home(s, c, x);
            } else {
                c.add(x, Count::Loose);
            }
            moved = true;
        }
        moved
    }

    /// Lays the stock's next card `x` on emptied fan `k` (a refill).
    fn lay_on_emptied_fan(&self, s: &mut State, c: &mut Counts, k: usize, x: usize) {
        s.refill[k] = s.dealt;
        s.left[k] = 1;
        s.dealt += 1;
        c.tops[k] = x as u8;
        c.add(x, Count::FanTops);
    }

    /// Lays the stock's next card on the first emptied fan, while one is
    /// (a stock that leaves only by refills); whether any was laid.
    fn refill_at_once(&self, s: &mut State, c: &mut Counts) -> bool {
        let mut moved = false;
        while let Some(&x) = self.stock_card_at(s.dealt as usize) {
            let Some(k) = (0..self.n).find(|&k| self.fan[k] && c.tops[k] == NONE) else {
                break;
            };
            self.lay_on_emptied_fan(s, c, k, x.index());
            moved = true;
        }
        moved
    }

    /// Makes every move that is always made, or stops once the watched
    /// fan's top leaves; whether it did.
    fn close(&self, s: &mut State, c: &mut Counts) -> bool {
        loop {
            let mut moved = false;
            for k in 0..self.n {
                while c.tops[k] != NONE {
                    let x = c.tops[k] as usize;
                    if !self.home_at_once(c, x, true) && !Self::available(c, self.t.above[x]) {
                        break;
                    }
                    self.take(s, c, k, x);
                    if k == self.watch {
                        return true;
                    }
                    moved = true;
                }
            }
            if self.turns {
                moved |= self.deal_leaving(s, c);
            } else {
                moved |= self.refill_at_once(s, c);
            }
            if !moved {
                return false;
            }
        }
    }

    /// Whether `x`, turned onto the waste of `s`, would lie on both copies
    /// of the card below it in its suit and on both copies of the card it
    /// builds on: then it never leaves.
    fn buries_its_way_out(&self, s: &State, c: &Counts, x: usize) -> bool {
        let (b, up) = (self.t.below[x], self.t.above[x]);
        let held = |y: u8| c.get(y as usize, Count::InPiles) == 2;
        if b == NONE || !held(b) || (up != NONE && !held(up)) {
            return false;
        }
        let w = self.waste;
        let (mut nb, mut nu) = (0, 0);
        let mut count = |y: usize| {
            nb += (y == b as usize) as u8;
            nu += (y == up as usize) as u8;
        };
        for &y in &self.piles[w][..s.left[w] as usize] {
            count(y.index());
        }
        let mut t = s.turned;
        while t != 0 {
            count(self.stock_card(t.trailing_zeros() as usize).index());
            t &= t - 1;
        }
        nb == 2 && (up == NONE || nu == 2)
    }

    /// With exact foundations, stacks each position where one card that
    /// may go home only by choice (a pile's top, the stock's next card or a
    /// loose card) goes home.
    fn push_chosen_homes(&self, s: &State, c: &Counts, stack: &mut Vec<(State, Counts, bool)>) {
        let chosen = |x: usize, in_pile: bool| self.homeable(c, x) && self.contended(c, x, in_pile);
        for k in 0..self.n {
            let x = c.tops[k];
            if x != NONE && chosen(x as usize, true) {
                let (mut t, mut d) = (*s, *c);
                self.take_home_if(&mut t, &mut d, k, x as usize, true);
                stack.push((t, d, true));
            }
        }
        if let Some(&x) = self.stock_card_at(s.dealt as usize) {
            let x = x.index();
            if chosen(x, true) {
                let (mut t, mut d) = (*s, *c);
                t.dealt += 1;
                d.sub(x, Count::InPiles);
                self.go_home(&mut t, &mut d, x);
                stack.push((t, d, true));
            }
        }
        for x in 0..Card::COUNT {
            if c.get(x, Count::Loose) > 0 && chosen(x, false) {
                let (mut t, mut d) = (*s, *c);
                d.sub(x, Count::Loose);
                self.go_home(&mut t, &mut d, x);
                stack.push((t, d, true));
            }
        }
    }

    /// Whether every card of the piles and the stock has left.
    fn is_won(&self, s: &State, c: &Counts) -> bool {
        s.dealt as usize == self.stock.len() && c.tops[..self.n].iter().all(|&t| t == NONE)
    }

    /// Whether the relaxed game is won within `budget` relaxed positions
    /// (`None`: the budget ran out first). A stacked position carries
    /// whether it needs the moves always made: after a turn only the stock's
    /// next card can move, and that is done before it is stacked.
    fn won(&self, start: (State, Counts), budget: usize, scratch: &mut Scratch) -> Option<bool> {
        if !self.turns && !self.exact {
            // Nothing to choose: the moves always made decide the game.
            let (mut s, mut c) = start;
            let watched_left = self.close(&mut s, &mut c);
            return Some(watched_left || self.is_won(&s, &c));
        }
        let Scratch { seen, stack } = scratch;
        seen.clear();
        // Clearing a set costs its capacity, not its length: one large test
        // (the solver's at the position itself, a million relaxed positions)
        // would otherwise make each of the search's small tests after it
        // clear megabytes.
        seen.shrink_to(budget.saturating_add(1));
        stack.clear();
        stack.push((start.0, start.1, true));
        while let Some((mut s, mut c, full)) = stack.pop() {
            if full {
                self.close(&mut s, &mut c);
            }
            if self.is_won(&s, &c) {
                return Some(true);
            }
            if !seen.insert(s) {
                continue;
            }
            if seen.len() > budget {
                return None;
            }
            if self.exact {
                self.push_chosen_homes(&s, &c, stack);
            }
            if !self.turns {
                continue;
            }
            let Some(&x) = self.stock_card_at(s.dealt as usize) else {
                continue;
            };
            let x = x.index();
            if !self.buries_its_way_out(&s, &c, x) {
                let (mut t, mut d) = (s, c);
                t.turned |= 1 << t.dealt;
                t.dealt += 1;
                d.tops[self.waste] = x as u8;
                // Nothing but the stock's next card can move now: `x` could
                // not leave from the stock, nor can it from the waste.
                let full = self.deal_leaving(&mut t, &mut d);
                stack.push((t, d, full));
            }
            if let Some(k) = (0..self.n).find(|&k| self.fan[k] && c.tops[k] == NONE) {
                let (mut t, mut d) = (s, c);
                self.lay_on_emptied_fan(&mut t, &mut d, k, x);
                stack.push((t, d, true));
            }
        }
        Some(false)
    }
}

/// Relaxed positions a test may search before it gives up (and calls the
/// position alive). Most tests end within a few dozen; a larger budget
/// proves a few more positions dead but costs the search more than it
/// saves (`cargo run --release -p patience-solver --example full_search --
/// krakowski 69,350 40000000 1024 piles-order`, built with 50, 100, 300 and
/// 1,000, and with 4, 8 or 16 a stock card).
pub const BUDGET: usize = 100;

/// A stock height where fewer than one test in this many finds a position
/// dead is one where the test is rarely of use ([`super::asking`]): a
/// position it finds dead saves the search a few dozen positions on
/// average, about as much time as a few tests cost, so it must find many
/// more than the piles' order test to pay. On Krakowski deals 13, 69, 78,
/// 350 and 20068 the full search takes 22.2 s in all with 4 and 21.6 s
/// with 2, against about 23 s without the test; with the piles' order
/// test's 64, deal 20068 alone takes 9.1 s, against 3.9 s without (`cargo
/// run --release -p patience-solver --example full_search -- krakowski
/// 20068,69,350,13,78 40000000 1024 piles-order stock-order`, built with
/// each).
pub const RARE: u32 = 4;

/// [`is_dead_within`] at the test's [`BUDGET`].
pub fn is_dead(pos: &Position) -> bool {
    is_dead_within(pos, BUDGET)
}

#[cfg(test)]
thread_local! {
    /// Turns the test off in this thread, for tests that compare verdicts
    /// with and without it.
    pub(crate) static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the relaxed game is lost, searched within `budget` relaxed
/// positions. Call only where [`applies`] holds.
pub fn is_dead_within(pos: &Position, budget: usize) -> bool {
    is_dead_within_by(pos, budget, false)
}

/// [`is_dead_within`] with exact foundations (`exact`): a stronger test
/// whose searches cost more.
pub fn is_dead_within_by(pos: &Position, budget: usize, exact: bool) -> bool {
    is_dead_watching(pos, budget, exact, None)
}

/// [`is_dead`] where the stock leaves only by refills ([`applies_to_refills`]),
/// for a position reached by a card laid on fan `to` from a position whose
/// relaxed game is won, the card's move one the relaxed game makes at once
/// (onto a fan's top). The relaxed game here is the parent's with that card
/// held on `to` instead of loose: every move made while it lies there is
/// one the parent's game makes too (the card loose only adds), so once it
/// leaves, the game stands where a line of the parent's game stands, and
/// with no choice in the game that line is won. So the closure stops there
/// and calls the position alive; it runs to its end only where the card
/// never leaves (a parent found alive otherwise than by this test only
/// makes the test call fewer positions dead). Call only where
/// [`applies_to_refills`] holds.
pub fn is_dead_after_step(pos: &Position, to: PileId) -> bool {
    // A card laid on an emptied fan is no move the game makes at once.
    let watch = (pos.pile(to).len() > 1)
        .then(|| pos.layout().tableau_ids().position(|p| p == to))
        .flatten();
    is_dead_watching(pos, BUDGET, false, watch)
}

/// [`is_dead_within_by`], the game won once fan `watch` (by its index among
/// the fans) loses its top, where one is given.
fn is_dead_watching(pos: &Position, budget: usize, exact: bool, watch: Option<usize>) -> bool {
    #[cfg(test)]
    if OFF.get() {
        return false;
    }
    let layout = pos.layout();
    let t = tables(pos);
    let Some(stock) = layout.stock else {
        return false;
    };
    let Some(read) = piles(pos, &t) else {
        return false;
    };
    let turns = read.waste != PILES;
    let game = Game {
        piles: read.piles,
        fan: read.fan,
        n: read.n,
        waste: read.waste,
        stock: pos.pile(stock),
        t,
        turns,
        // Only the game without a choice stops early.
        watch: watch.filter(|_| !turns && !exact).unwrap_or(PILES),
        exact,
    };
    let mut counts = read.counts;
    let mut start = State {
        left: read.left,
        refill: [NONE; PILES],
        dealt: 0,
        turned: 0,
        home: 0,
    };
    if (game.waste == PILES && !pos.spec().stock_leaves_only_by_refills())
        || game.stock.len() > STOCK
    {
        return false;
    }
    for &x in game.stock {
        counts.add(x.index(), Count::InPiles);
    }
    for f in layout.foundation_ids() {
        for &x in pos.pile(f) {
            counts.add(x.index(), Count::Home);
            if exact {
                start.home += 1 << (2 * x.index());
            }
        }
    }
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
            seen: PrehashedSet::default(),
            stack: Vec::new(),
        });
    }
    SCRATCH.with_borrow_mut(|scratch| game.won((start, counts), budget, scratch) == Some(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prune::dead_two_deck;
    use crate::prune::dead_two_deck::tests::{along_random_games, ending};
    use crate::prune::pile_order::{self, STOCK_AT_MOST};
    use crate::prune::relaxed::tests::{along_wins, lost_without_the_relaxed_tests};

    /// A budget large enough that the test decides every position here.
    const WIDE: usize = 20_000;

    #[test]
    fn no_position_on_a_winning_line_is_called_dead() {
        // Each position a win passes through is winnable; the relaxed game
        // must find each won, however early.
        for p in along_wins("krakowski", &[4, 9, 11]) {
            assert!(!applies(&p) || !is_dead_within(&p, WIDE), "{}", p.to_text());
            assert!(
                !applies(&p) || !is_dead_within_by(&p, WIDE, true),
                "{}",
                p.to_text()
            );
        }
    }

    /// The positions of `positions` where the test applies, with a move
    /// left, that the two-deck, waste's order and piles' order tests pass
    /// and `dead` calls dead.
    fn passed_by_the_others(
        positions: &[Position],
        dead: impl Fn(&Position) -> bool,
    ) -> Vec<&Position> {
        positions
            .iter()
            .filter(|p| {
                applies(p)
                    && !crate::prune::is_dead(p)
                    && (p.stock_len() > STOCK_AT_MOST
                        || !pile_order::is_dead_within(p, pile_order::BUDGET))
                    && !p.legal_moves().is_empty()
                    && dead(p)
            })
            .collect()
    }

    /// Positions only this test calls dead (the two-deck, waste's order and
    /// piles' order tests pass them), with a move left: the search with
    /// every other dominance and neither relaxed test finds no win in any,
    /// and proves enough of them lost to mean something, most of all above
    /// the piles' order test's stock heights.
    #[test]
    fn positions_only_the_stock_order_calls_dead_are_lost() {
        // Along random games: the random endings of the other tests have no
        // stock.
        let positions = along_random_games("krakowski", 24, 300, 3, 0x570c);
        let fired = passed_by_the_others(&positions, |p| is_dead_within(p, WIDE));
        let deep = fired
            .iter()
            .filter(|p| p.stock_len() > STOCK_AT_MOST)
            .count();
        let proved = lost_without_the_relaxed_tests(fired.iter().copied());
        let fired = fired.len();
        eprintln!(
            "the stock's order fired in {fired} ({deep} with more than {STOCK_AT_MOST} stock \
             cards), the search without it proved {proved} lost"
        );
        assert!(
            proved >= 10 && deep >= 5,
            "fired {fired} ({deep} deep), proved {proved}"
        );
    }

    /// The same with exact foundations, for the positions the test by
    /// suit finds alive.
    #[test]
    fn positions_only_exact_foundations_call_dead_are_lost() {
        // Along the person-like player's games: random games are lost so
        // early that the test by suit already finds them dead.
        let spec = patience_engine::game("krakowski").unwrap();
        let mut positions = Vec::new();
        for deal in 1..=12 {
            let mut p = Position::deal(spec, deal).unwrap();
            let mut player = crate::levels::PersonPlayer::new(deal);
            for ply in 0..200 {
                if ply % 2 == 0 {
                    positions.push(p.clone());
                }
                match player.choose(&crate::levels::View::of(&p)) {
                    Some(m) if p.apply(m).is_ok() => {}
                    _ => break,
                }
            }
        }
        let fired = passed_by_the_others(&positions, |p| {
            !is_dead_within(p, WIDE) && is_dead_within_by(p, WIDE, true)
        });
        let proved = lost_without_the_relaxed_tests(fired.iter().copied());
        let fired = fired.len();
        eprintln!(
            "exact foundations fired in {fired}, the search without them proved {proved} lost"
        );
        assert!(proved >= 10, "fired {fired}, proved {proved}");
    }

    /// Random Novomanernaya endings, and positions along random last deals
    /// (`salt` picks the games).
    fn novomanernaya_last_deals(salt: u64) -> Vec<Position> {
        let mut positions: Vec<Position> = (0..300).map(|s| ending("novomanernaya", s)).collect();
        positions.extend(along_random_games("novomanernaya", 40, 300, 3, salt));
        positions
    }

    /// Novomanernaya's last deal, whose stock leaves only by refills:
    /// positions only this test calls dead (the two-deck test passes them),
    /// with a move left, in random endings and along random games. The
    /// search with every other dominance and without this test finds no win
    /// in any, and proves enough of them lost to mean something.
    #[test]
    fn positions_only_the_refills_order_calls_dead_are_lost() {
        let positions = novomanernaya_last_deals(0x51);
        let fired: Vec<&Position> = positions
            .iter()
            .filter(|p| {
                applies_to_refills(p)
                    && !dead_two_deck::is_dead(p)
                    && !p.legal_moves().is_empty()
                    && is_dead(p)
            })
            .collect();
        let proved = lost_without_the_relaxed_tests(fired.iter().copied());
        let fired = fired.len();
        eprintln!(
            "the refills' order fired in {fired}, the search without it proved {proved} lost"
        );
        assert!(proved >= 50, "fired {fired}, proved {proved}");
    }

    /// The closure that stops once the card just laid on a fan leaves
    /// answers as the whole closure, after every step onto a fan from a
    /// position whose relaxed game is won.
    #[test]
    fn a_step_after_a_won_relaxed_game_keeps_the_whole_closures_verdict() {
        use patience_engine::{Move, PileKind};
        let parents = novomanernaya_last_deals(0x57);
        let (mut asked, mut dead) = (0, 0);
        for p in parents
            .iter()
            .filter(|p| applies_to_refills(p) && !is_dead(p))
        {
            for m in p.legal_moves() {
                let Move::Step { to, .. } = m else { continue };
                if !matches!(p.layout().kind(to), Some(PileKind::Tableau(_))) {
                    continue;
                }
                let mut child = p.clone();
                child.apply(m).unwrap();
                let whole = is_dead(&child);
                assert_eq!(is_dead_after_step(&child, to), whole, "{}", child.to_text());
                asked += 1;
                dead += whole as usize;
            }
        }
        eprintln!("{asked} steps onto a fan, {dead} of them dead");
        assert!(asked > 500 && dead > 50, "asked {asked}, dead {dead}");
    }

    #[test]
    fn no_position_on_a_novomanernaya_win_is_called_dead() {
        // The last deal of each win, where the test applies while the stock
        // lasts.
        let mut asked = 0;
        for p in along_wins("novomanernaya", &[1, 2, 3, 5]) {
            if applies_to_refills(&p) {
                asked += 1;
                assert!(!is_dead(&p), "{}", p.to_text());
            }
        }
        assert!(asked > 0);
    }

    #[test]
    fn the_refills_order_applies_only_to_a_stock_that_leaves_by_refills() {
        let last = |id| {
            let spec = patience_engine::game(id).unwrap();
            Position::deal(spec, 1)
                .unwrap()
                .with_redeals_left(0)
                .unwrap()
        };
        assert!(applies_to_refills(&last("novomanernaya")));
        assert!(!applies(&last("novomanernaya")));
        for id in [
            "krakowski",
            "house-in-the-woods",
            "nivernaise",
            "blondes-and-brunettes",
        ] {
            assert!(!applies_to_refills(&last(id)), "{id}");
        }
        // Before the last deal the redeal gathers the stock too.
        let first = Position::deal(patience_engine::game("novomanernaya").unwrap(), 1).unwrap();
        assert!(!applies_to_refills(&first));
    }
}
