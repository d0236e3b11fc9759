//! Dead positions by the order of every pile, in the two-deck games with a
//! waste built down in suit (Krakowski), in their last deal.
//!
//! **The relaxation.** Each fan and the waste keep the cards they hold now,
//! in their order, and give them top first. Call a card *loose* once it has
//! left its pile without going home, and call every stock card loose from
//! the start. The relaxed game has three moves:
//!
//! 1. a pile's top card becomes loose, if a copy of the card it builds on (one
//!    rank above it in suit) is loose or is the top of a fan;
//! 2. a pile's top card goes home, onto a foundation of its suit showing the
//!    card below it (an ace onto an empty one);
//! 3. a loose card goes home the same way.
//!
//! Every real line of play is a line of the relaxed game. Map a real
//! position to the relaxed one whose piles have lost the cards of their
//! own that have left them, with the same foundations. A card of a pile's
//! own going onto a fan is move 1: the card it lands on is a fan top,
//! either a pile's own card with everything above it gone (a relaxed pile
//! top) or a card that came there since (from a pile or the stock: loose);
//! nothing is ever laid on the waste. A card going home is move 2 or 3.
//! Everything else changes nothing relaxed: a deal or a refill moves a stock
//! card, loose already, and a card that came onto a fan since stays loose
//! wherever it goes (the relaxed piles never hold it, so they are never
//! blocked by it). So a real win is a relaxed win, and a position whose
//! relaxed game cannot be won is lost. The conditions are those of
//! [`super::dead_two_deck::applies`]: one card moves at a time, the player
//! never fills an emptied fan (else a card could leave its pile for an empty
//! fan, with nothing to build on), no cells, reserve, draw or redeal, and the
//! foundations never give a card back.
//!
//! This is the relaxed game of [`super::waste_order`] with the fans kept in
//! their order: there every fan card is loose, so the game falls apart by
//! suit and is decided without search. Here a fan may hold cards of every
//! suit, so the game is searched, within a small budget of relaxed
//! positions; only a search that ends without a relaxed win calls the
//! position dead, so the budget costs verdicts, never soundness.
//!
//! **What the search may skip.** A relaxed position is its piles' lengths
//! and the two foundations' heights of each suit (which foundation is
//! which does not matter: they take the same cards). Three rules cut it,
//! each because the position it leads to can do whatever the others can:
//!
//! - *Move 1 is always made.* A loose card can do all its pile top could
//!   (be built on, go home), and the card under it is uncovered.
//! - *A card going home from a pile top is never sent home from among the
//!   loose cards instead*: the loose copy stays loose, and the pile is
//!   uncovered.
//! - *A card no card still needs goes home at once*: the card `c` a
//!   foundation takes next, where no copy of the card that builds on `c` is
//!   still in a pile, and `c` is either loose with no copy in a pile, or the
//!   top of a pile with its other copy not in a pile. Such a `c` is wanted
//!   only by its foundations. Sent home now rather than later, its
//!   foundation is only higher meanwhile; and where a line would instead
//!   have sent the other copy to this foundation first and `c` to the second
//!   foundation later, the other copy, loose or home, can take `c`'s part
//!   at that moment (the second foundation then shows the same card). Were
//!   the other copy still in a pile this would fail: leaving first, it may
//!   uncover the cards the second foundation needs (a test found such a
//!   line).
//!
//! A test holds the relaxation to a search of the real game on random
//! endings and on positions along random games: every position it calls
//! dead has no win.
//!
//! **What a search keeps** ([`Memo`]). A relaxed position is its piles'
//! cards and its foundations, every other card loose, so its verdict is
//! the same whichever real position's test meets it. The relaxed search is
//! depth first, so each relaxed position it searches to the end is known
//! lost (every child lost) or won (a child won); a search keeps them from
//! one test to the next, and a test counts the relaxed positions it looks
//! at, known or not, against its budget. Tests asked along one line of the
//! search share most of their piles: on Krakowski deal 21, whose tests at
//! an empty stock nearly all find the position dead, 10,000,000 positions
//! of the full search take 12.3 s instead of 20.2 s, and deals 1 and 69
//! take what they took (`cargo run --release -p patience-solver --example
//! full_search -- krakowski 1,21,69 10000000 1024 piles-order
//! stock-order`, with and without the memo).
//!
//! Most of what the tests cost is tests that spend their whole budget and
//! find nothing, and most of those start from a relaxed position that a
//! test before them started from and spent its budget on too: many real
//! positions, whose cards moved since differ, have one relaxed position.
//! So the memo marks a test's first position when the test outlasts its
//! budget, and a test starting from a position marked twice answers at
//! once that it does not know (once is not enough: what the memo learned
//! meanwhile may decide the second test, and deal 3's proof takes 512,038
//! positions where one mark stops the search, 143,846 as without marks).
//! A test that answers nothing only cuts less, so no verdict can change.
//! The first 6,000,000 positions of Krakowski deals 1, 21, 33 and 49 take
//! about a fifth less time, and the lost deals 3, 12, 13, 29, 60, 69, 78
//! and 91 the same positions and time (`cargo run --release -p
//! patience-solver --example full_search -- krakowski 1,21,33,49 6000000
//! 1024 piles-order stock-order`, with and without the marks).
//!
//! **Where a search asks it** ([`super::asking::Asking`]). The test's
//! worth differs from deal to deal and from one stock height to the next:
//! on Krakowski deal 1 at 5,000,000 positions nearly every test at 18 to 25
//! stock cards spends its whole budget and finds nothing, while on deal 21
//! nine tests in ten at an empty stock find the position dead. So a search
//! asks it less often at a stock height where it rarely finds a position
//! dead.

use std::cell::RefCell;

use patience_engine::{Card, Position};

use super::dead_two_deck::{tables, Tables, NONE};
use super::relaxed::{piles, Count, Counts, PILES};
use crate::key::{prefix_terms, term};

/// Relaxed positions a test may search before it gives up (and calls the
/// position alive): a position whose relaxed game is won takes about 20, a
/// dead one at Krakowski's stock's end from a few dozen to thousands. A
/// larger budget proves more positions dead but costs the search more than
/// it saves (`cargo run --release -p patience-solver --example full_search
/// -- krakowski 1,3,18,21 3000000 1024 piles-order`, built with each
/// budget).
pub const BUDGET: usize = 100;

/// The test runs only where the stock holds at most this many cards:
/// above it the loose stock cards win nearly every relaxed game, so the
/// test would cost its budget and almost never fire (measured as
/// [`BUDGET`] is).
pub const STOCK_AT_MOST: usize = 25;

/// Whether the test applies: the two-deck dead test's conditions, a waste,
/// and few enough piles.
pub fn applies(pos: &Position) -> bool {
    let layout = pos.layout();
    layout.waste.is_some()
        && (layout.tableau as usize) < PILES
        && super::dead_two_deck::applies(pos)
}

/// One relaxed position: the cards left in each pile, and per suit the
/// cards home on its two foundations, the higher first.
#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    left: [u8; PILES],
    heights: [[u8; 2]; 4],
}

/// Relaxed positions whose verdict is known, kept by a search from one test
/// to the next ([`is_dead_remembering`]).
///
/// A relaxed position is its piles' cards and its foundations: every other
/// card is loose (the stock's from the start, the others since they left),
/// so its verdict depends on nothing else, whichever real position's test
/// met it. Tests asked along one line of the search share most of their
/// piles, and their searches meet the same relaxed positions: a test that
/// finds one lost or won saves the next tests that search. Each is kept by
/// a 128-bit key hashed as a position's piles are (fans alike, as they are
/// in the relaxed game); a slot taken by another key forgets the older one,
/// which only costs a search again. A memo belongs to one search, so a
/// search's tests find what they find however many searches ran before it.
/// It also marks the relaxed positions tests started from and outlasted
/// their budget on, so a memo serves tests of one budget. Its slots lie on
/// huge pages where the kernel allows, as the table's do: its look-ups are
/// random accesses to 16 MiB.
pub struct Memo {
    slots: Vec<u128>,
}

impl Memo {
    /// Most slots a search's memo takes (16 MiB).
    pub const SLOTS: usize = 1 << 20;

    /// An empty memo for a search of `memory_bytes`: a sixteenth of it, at
    /// most [`Memo::SLOTS`] slots, at least 1,024.
    pub fn for_search(memory_bytes: usize) -> Memo {
        let fits = (memory_bytes / 16 / std::mem::size_of::<u128>()).max(1);
        let slots = 1usize << fits.ilog2();
        Memo::with_slots(slots.clamp(1 << 10, Memo::SLOTS))
    }

    /// An empty memo of `slots` slots (a power of two).
    pub fn with_slots(slots: usize) -> Memo {
        debug_assert!(slots.is_power_of_two());
        Memo {
            slots: crate::key::table::zeroed_slots(slots),
        }
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u128>()
    }

    fn slot(&self, key: u128) -> usize {
        (key >> 64) as usize & (self.slots.len() - 1)
    }

    /// Brings `key`'s slot into the cache for a later [`Memo::get`].
    fn prefetch(&self, key: u128) {
        crate::key::table::prefetch(&self.slots[self.slot(key)]);
    }

    /// What is known of the relaxed position of `key`.
    fn get(&self, key: u128) -> Option<Known> {
        let v = self.slots[self.slot(key)];
        if v >> 3 != key >> 3 {
            return None;
        }
        match v & 7 {
            1 => Some(Known::Lost),
            2 => Some(Known::Won),
            3 => Some(Known::OutlastedOnce),
            4 => Some(Known::Outlasts),
            _ => None,
        }
    }

    /// Keeps what is known of `key` (0 marks an empty slot; the three low
    /// bits hold what is known).
    fn put(&mut self, key: u128, known: Known) {
        let i = self.slot(key);
        self.slots[i] = key & !7 | known as u128;
    }

    /// Counts a test from `root` that spent its budget without an answer.
    fn outlasted(&mut self, root: u128) {
        let again = self.get(root) == Some(Known::OutlastedOnce);
        self.put(
            root,
            if again {
                Known::Outlasts
            } else {
                Known::OutlastedOnce
            },
        );
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// What a [`Memo`] knows of a relaxed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    Lost = 1,
    Won = 2,
    /// A test that started from it spent its budget without an answer.
    OutlastedOnce = 3,
    /// Two tests that started from it did: a third is not searched.
    Outlasts = 4,
}

/// The open relaxed positions of a search and their children still to
/// search, kept between tests so that a test allocates nothing.
#[derive(Default)]
struct Scratch {
    /// Each open position's key and where its children begin in `kids`.
    open: Vec<(u128, usize)>,
    /// Children still to search, closed and keyed ([`Game::keyed`]).
    kids: Vec<(State, Counts, u128)>,
    /// The key terms of each pile's prefixes (see [`Game::key`]).
    terms: Vec<u128>,
}

const SALT_FAN: u64 = 0x7100;
const SALT_WASTE: u64 = 0x7200;
const SALT_HEIGHTS: u64 = 0x7300;

/// The relaxed game of one position.
struct Game<'a> {
    piles: [&'a [Card]; PILES],
    fan: [bool; PILES],
    n: usize,
    t: Tables,
    /// Where each pile's prefix terms begin in the scratch's `terms`.
    terms_at: [usize; PILES],
}
impl Game<'_> {
    fn top(&self, s: &State, k: usize) -> Option<Card> {
        let left = s.left[k] as usize;
        (left > 0).then(|| self.piles[k][left - 1])
    }

    /// The card a foundation at `height` of `suit` takes next.
    fn next(&self, suit: usize, height: u8) -> Option<usize> {
        let x = *self.t.at[suit].get(height as usize)?;
        (x != NONE).then_some(x as usize)
    }

    /// Takes pile `k`'s top card `x` off: loose, or home on foundation `f`
    /// of its suit.
    fn take(
        &self,
        s: &mut State,
        c: &mut Counts,
        k: usize,
        x: usize,
        home: Option<(usize, usize)>,
    ) {
        s.left[k] -= 1;
        c.sub(x, Count::InPiles);
        let under = self.top(s, k);
        c.tops[k] = under.map_or(NONE, |y| y.index() as u8);
        if self.fan[k] {
            c.sub(x, Count::FanTops);
            if let Some(y) = under {
                c.add(y.index(), Count::FanTops);
            }
        }
        match home {
            Some((suit, f)) => Self::raise(s, suit, f),
            None => c.add(x, Count::Loose),
        }
    }

    /// Raises foundation `f` of `suit` by one card.
    fn raise(s: &mut State, suit: usize, f: usize) {
        s.heights[suit][f] += 1;
        if s.heights[suit][1] > s.heights[suit][0] {
            s.heights[suit].swap(0, 1);
        }
    }

    /// Makes every move that is always made (the module documentation's
    /// rules).
    fn close(&self, s: &mut State, c: &mut Counts) {
        loop {
            let mut moved = false;
            // Move 1.
            for k in 0..self.n {
                while c.tops[k] != NONE {
                    let x = c.tops[k] as usize;
                    let up = self.t.above[x];
                    if up == NONE
                        || (c.get(up as usize, Count::Loose) == 0
                            && c.get(up as usize, Count::FanTops) == 0)
                    {
                        break;
                    }
                    self.take(s, c, k, x, None);
                    moved = true;
                }
            }
            // A card no card still needs goes home.
            for suit in 0..4 {
                for f in 0..2 {
                    let h = s.heights[suit][f];
                    let Some(x) = self.next(suit, h) else {
                        continue;
                    };
                    let (in_piles, loose) = (c.get(x, Count::InPiles), c.get(x, Count::Loose));
                    if in_piles > 1 || (in_piles == 0 && loose == 0) {
                        continue;
                    }
                    let builder = h.checked_sub(1).and_then(|b| self.next(suit, b));
                    if builder.is_some_and(|b| c.get(b, Count::InPiles) > 0) {
                        continue;
                    }
                    if in_piles == 0 {
                        c.sub(x, Count::Loose);
                        Self::raise(s, suit, f);
                        moved = true;
                    } else if let Some(k) = (0..self.n).find(|&k| c.tops[k] as usize == x) {
                        self.take(s, c, k, x, Some((suit, f)));
                        moved = true;
                    }
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// Relaxed position `(s, c)` after the moves that are always made
    /// ([`Game::close`]), and its key. The key's memo slot is fetched into
    /// the cache now: children are keyed as they are listed and looked up
    /// as the search comes to them, so the look-up seldom waits on memory.
    fn keyed(
        &self,
        (mut s, mut c): (State, Counts),
        terms: &[u128],
        memo: &Memo,
    ) -> (State, Counts, u128) {
        self.close(&mut s, &mut c);
        let key = self.key(&s, terms);
        memo.prefetch(key);
        (s, c, key)
    }

    /// The key of relaxed position `s`: its piles' prefix terms and its
    /// foundations' heights (already the higher first).
    fn key(&self, s: &State, terms: &[u128]) -> u128 {
        let mut k = term(
            s.heights
                .as_flattened()
                .iter()
                .fold(0u128, |w, &h| w << 8 | h as u128),
            SALT_HEIGHTS,
        );
        for p in 0..self.n {
            k = k.wrapping_add(terms[self.terms_at[p] + s.left[p] as usize]);
        }
        k
    }

    /// Pushes onto `out` the relaxed positions a choice leads to from `s`:
    /// a card the foundation takes next sent home from a pile's top, or
    /// from among the loose cards where no pile's top is one, each keyed
    /// ([`Game::keyed`]).
    fn children(
        &self,
        s: &State,
        c: &Counts,
        terms: &[u128],
        memo: &Memo,
        out: &mut Vec<(State, Counts, u128)>,
    ) {
        for suit in 0..4 {
            for f in 0..2 {
                let h = s.heights[suit][f];
                if f == 1 && h == s.heights[suit][0] {
                    continue;
                }
                let Some(x) = self.next(suit, h) else {
                    continue;
                };
                let mut from_pile = false;
                for k in 0..self.n {
                    if c.tops[k] as usize == x {
                        let (mut s, mut c) = (*s, *c);
                        self.take(&mut s, &mut c, k, x, Some((suit, f)));
                        out.push(self.keyed((s, c), terms, memo));
                        from_pile = true;
                    }
                }
                if !from_pile && c.get(x, Count::Loose) > 0 {
                    let (mut s, mut c) = (*s, *c);
                    c.sub(x, Count::Loose);
                    Self::raise(&mut s, suit, f);
                    out.push(self.keyed((s, c), terms, memo));
                }
            }
        }
    }

    /// Whether the relaxed game is won, searching at most `budget` relaxed
    /// positions not in `memo` (`None`: the budget ran out first). Depth
    /// first, so that every position searched to its end is known: lost
    /// when all its children are, won when one is, and kept in `memo`.
    fn won(
        &self,
        start: (State, Counts),
        budget: usize,
        memo: &mut Memo,
        scratch: &mut Scratch,
    ) -> Option<bool> {
        let Scratch { open, kids, terms } = scratch;
        open.clear();
        kids.clear();
        let mut searched = 0;
        let mut next = Some(self.keyed(start, terms, memo));
        loop {
            if let Some((s, c, key)) = next.take() {
                // With every pile empty each card left is loose, and the
                // foundations take them in order.
                let won = s.left[..self.n].iter().all(|&l| l == 0);
                if searched == budget {
                    if let Some(&(root, _)) = open.first() {
                        memo.outlasted(root);
                    }
                    return None;
                }
                searched += 1;
                match if won { Some(Known::Won) } else { memo.get(key) } {
                    Some(Known::Won) => {
                        for &(k, _) in open.iter() {
                            memo.put(k, Known::Won);
                        }
                        return Some(true);
                    }
                    Some(Known::Lost) => {}
                    // A test from here outlasted its budget twice.
                    Some(Known::Outlasts) if open.is_empty() => return None,
                    _ => {
                        open.push((key, kids.len()));
                        self.children(&s, &c, terms, memo, kids);
                    }
                }
            }
            // The open position's next child, or its end: lost.
            loop {
                let Some(&(key, from)) = open.last() else {
                    return Some(false);
                };
                if kids.len() > from {
                    next = kids.pop();
                    break;
                }
                open.pop();
                memo.put(key, Known::Lost);
            }
        }
    }
}

/// Whether the relaxed game of the module documentation is lost, searched
/// within `budget` relaxed positions not in `memo`, and keeping in `memo`
/// what the search learns. Call only where [`applies`] holds.
pub fn is_dead_remembering(pos: &Position, budget: usize, memo: &mut Memo) -> bool {
    relaxed_won(pos, budget, memo) == Some(false)
}

/// Whether the relaxed game of `pos` is won, searched within `budget`
/// relaxed positions (`None`: the budget ran out first, or [`piles`] cannot
/// read the position).
fn relaxed_won(pos: &Position, budget: usize, memo: &mut Memo) -> Option<bool> {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::default();
    }
    SCRATCH.with_borrow_mut(|scratch| {
        let (game, start) = read(pos, &mut scratch.terms)?;
        game.won(start, budget, memo, scratch)
    })
}

/// Whether the relaxed game of the module documentation is lost, searched
/// within `budget` relaxed positions, remembering nothing from one test to
/// the next. Call only where [`applies`] holds.
pub fn is_dead_within(pos: &Position, budget: usize) -> bool {
    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(Memo::with_slots(1 << 15));
    }
    MEMO.with_borrow_mut(|memo| {
        memo.clear();
        is_dead_remembering(pos, budget, memo)
    })
}

/// The relaxed game of `pos` and its start, with each pile's prefix terms
/// written to `terms`; `None` where [`piles`] cannot read it.
fn read<'a>(pos: &'a Position, terms: &mut Vec<u128>) -> Option<(Game<'a>, (State, Counts))> {
    let layout = pos.layout();
    let t = tables(pos);
    let read = piles(pos, &t)?;
    let mut terms_at = [0; PILES];
    terms.clear();
    for (k, at) in terms_at.iter_mut().enumerate().take(read.n) {
        *at = terms.len();
        let salt = if read.fan[k] { SALT_FAN } else { SALT_WASTE };
        prefix_terms(read.piles[k], salt, terms);
    }
    let game = Game {
        piles: read.piles,
        fan: read.fan,
        n: read.n,
        t,
        terms_at,
    };
    let mut counts = read.counts;
    let mut start = State {
        left: read.left,
        heights: [[0; 2]; 4],
    };
    if let Some(s) = layout.stock {
        for &x in pos.pile(s) {
            counts.add(x.index(), Count::Loose);
        }
    }
    let mut started = [0usize; 4];
    for f in layout.foundation_ids() {
        let pile = pos.pile(f);
        if let Some(&first) = pile.first() {
            let s = first.suit().index();
            if let Some(h) = start.heights[s].get_mut(started[s]) {
                *h = pile.len() as u8;
            }
            started[s] += 1;
        }
    }
    for h in &mut start.heights {
        if h[1] > h[0] {
            h.swap(0, 1);
        }
    }
    Some((game, (start, counts)))
}

#[cfg(test)]
thread_local! {
    /// Turns the test off in this thread, for tests that compare verdicts
    /// with and without it.
    pub(crate) static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// [`is_dead_remembering`] at the test's [`BUDGET`], where the stock
/// holds at most [`STOCK_AT_MOST`] cards.
pub fn is_dead(pos: &Position, memo: &mut Memo) -> bool {
    #[cfg(test)]
    if OFF.get() {
        return false;
    }
    if pos.stock_len() > STOCK_AT_MOST {
        return false;
    }
    is_dead_remembering(pos, BUDGET, memo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prune::dead_two_deck::tests::{along_random_games, ending};
    use crate::prune::relaxed::tests::{along_wins, lost_without_the_relaxed_tests};

    /// A budget large enough that the test decides every position here.
    const WIDE: usize = 20_000;

    /// A memo kept from one test to the next changes no verdict: each
    /// position along random games where the test is asked (at most
    /// [`STOCK_AT_MOST`] stock cards) and each random ending, tested in turn
    /// with one memo, gets the verdict of its test with a memo of its own,
    /// and the memo answers at once a position tested before. A key that
    /// left out part of the relaxed position (the foundations' heights,
    /// say) would give one position's verdict to another. Tests at the
    /// search's budget through a third memo, each asked three times so that
    /// those that outlast it are marked, answer nothing but the verdict.
    #[test]
    fn a_memo_kept_from_one_test_to_the_next_changes_no_verdict() {
        let mut positions = along_random_games("krakowski", 12, 400, 2, 0x3e30);
        positions.extend((0..300).map(|seed| ending("krakowski", seed)));
        let (mut kept, mut own) = (Memo::with_slots(1 << 16), Memo::with_slots(1 << 16));
        let mut marked = Memo::with_slots(1 << 16);
        let (mut dead, mut won, mut undecided) = (0, 0, 0);
        for p in positions
            .iter()
            .filter(|p| applies(p) && p.stock_len() <= STOCK_AT_MOST)
        {
            own.clear();
            let alone = relaxed_won(p, WIDE, &mut own);
            if alone.is_none() {
                undecided += 1;
                continue;
            }
            assert_eq!(relaxed_won(p, WIDE, &mut kept), alone, "{}", p.to_text());
            assert_eq!(relaxed_won(p, 1, &mut kept), alone, "{}", p.to_text());
            // Tests at the search's budget, some outlasting it, each asked
            // three times: what they answer is the verdict.
            for _ in 0..3 {
                let at_budget = relaxed_won(p, BUDGET, &mut marked);
                assert!(
                    at_budget.is_none_or(|v| Some(v) == alone),
                    "{}",
                    p.to_text()
                );
            }
            dead += (alone == Some(false)) as usize;
            won += (alone == Some(true)) as usize;
        }
        eprintln!("{dead} dead, {won} won, {undecided} undecided");
        assert!(
            dead >= 100 && won >= 100 && undecided * 20 < dead + won,
            "{dead} dead, {won} won, {undecided} undecided"
        );
    }

    /// A test that twice spent its budget from a relaxed position without
    /// an answer is not searched a third time from there: the memo answers
    /// at once that it does not know, however large the third test's
    /// budget. Once only, it is searched again, for the memo may know more
    /// by then.
    #[test]
    fn a_test_that_outlasted_its_budget_twice_is_not_searched_again() {
        let mut positions = along_random_games("krakowski", 12, 400, 2, 0x0a57);
        positions.extend((0..300).map(|seed| ending("krakowski", seed)));
        let mut own = Memo::with_slots(1 << 16);
        let mut seen = 0;
        for p in positions
            .iter()
            .filter(|p| applies(p) && p.stock_len() <= STOCK_AT_MOST)
        {
            own.clear();
            if relaxed_won(p, BUDGET, &mut own).is_some() {
                continue;
            }
            own.clear();
            let Some(verdict) = relaxed_won(p, WIDE, &mut own) else {
                continue;
            };
            let mut kept = Memo::with_slots(1 << 16);
            assert_eq!(relaxed_won(p, BUDGET, &mut kept), None);
            assert_eq!(
                relaxed_won(p, WIDE, &mut kept),
                Some(verdict),
                "searched again"
            );
            kept.clear();
            assert_eq!(relaxed_won(p, BUDGET, &mut kept), None);
            if relaxed_won(p, BUDGET, &mut kept).is_some() {
                // What the first test kept decided the second.
                continue;
            }
            assert_eq!(relaxed_won(p, WIDE, &mut kept), None, "{}", p.to_text());
            seen += 1;
        }
        assert!(seen >= 20, "{seen} positions outlast the budget");
    }

    #[test]
    fn no_position_on_a_winning_line_is_called_dead() {
        // Each position a win passes through is winnable; the relaxed game
        // must find each won, however late.
        for p in along_wins("krakowski", &[4, 9]) {
            assert!(!is_dead_within(&p, WIDE), "{}", p.to_text());
        }
    }

    /// Positions only this test calls dead (the two-deck and waste tests
    /// pass them), with a move left: the search with every other dominance
    /// and without this test finds no win in any, and proves enough of them
    /// lost to mean something. The default run takes a third of the
    /// positions; the full sweep: `cargo test -p patience-solver -- --ignored`.
    #[test]
    fn positions_only_the_piles_order_calls_dead_are_lost() {
        only_the_piles_order_calls_dead_and_lost(330, 10, 10);
    }

    #[test]
    #[ignore = "the full sweep: cargo test -p patience-solver -- --ignored"]
    fn positions_only_the_piles_order_calls_dead_are_lost_full() {
        only_the_piles_order_calls_dead_and_lost(1000, 30, 20);
    }

    /// The sweep over `endings` random endings and the positions along
    /// `deals` random games: at least `least` proved lost.
    fn only_the_piles_order_calls_dead_and_lost(endings: u64, deals: u64, least: usize) {
        let mut positions: Vec<Position> =
            (0..endings).map(|seed| ending("krakowski", seed)).collect();
        positions.extend(along_random_games("krakowski", deals, 400, 2, 0x9113));
        let fired: Vec<&Position> = positions
            .iter()
            .filter(|p| {
                applies(p)
                    && !crate::prune::is_dead(p)
                    && is_dead_within(p, WIDE)
                    && !p.legal_moves().is_empty()
            })
            .collect();
        let proved = lost_without_the_relaxed_tests(fired.iter().copied());
        let fired = fired.len();
        eprintln!("the piles' order fired in {fired}, the search without it proved {proved} lost");
        assert!(proved >= least, "fired {fired}, proved {proved}");
    }
}
