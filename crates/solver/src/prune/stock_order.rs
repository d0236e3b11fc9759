//! Dead positions by the order of the stock, the waste and the fans, in the
//! two-deck games with a waste built down in suit (Krakowski), in their last
//! deal.
//!
//! **The relaxation.** Each fan and the waste keep the cards they hold now,
//! in their order, and give them top first; a card that has left its pile
//! without going home is *loose*. The stock's cards come out in their order,
//! each onto the waste's top (where it blocks the waste like any waste card)
//! or onto a fan that holds no card, as a pile of its own one card. The two
//! foundations of a suit stay apart. The moves:
//!
//! 1. a pile's top card becomes loose, if a copy of the card it builds on
//!    (one rank above it in suit) is loose or is the top of a fan;
//! 2. a pile's top card or a loose card goes home, onto a foundation of its
//!    suit showing the card below it (an ace onto an empty one);
//! 3. the stock's next card goes onto the waste, or onto an empty fan.
//!
//! Every real line of play is a line of the relaxed game. Map a real
//! position to the relaxed one whose piles have lost the cards of their own
//! that have left them, whose waste holds the real waste's cards (its own
//! and the stock's turned since, in the same order), whose fans hold the
//! stock card a refill laid there while it lies there, with the same
//! foundations and the same stock. A pile card (a fan's own, a refilled
//! one, or the waste's top) going onto a fan is move 1: the card it lands on
//! is a fan top, a relaxed pile's top or a card that came there since
//! (loose). A card going home is move 2. A card turned from the stock is
//! move 3, and so is a refill: the fan it fills is empty, so its relaxed
//! pile is too (the real fan holds the relaxed pile and above it the cards
//! laid there since), and the rules refill with one stock card or none. A
//! card that came onto a fan since stays loose wherever it goes. So a real
//! win is a relaxed win, and a position whose relaxed game cannot be won is
//! lost. The conditions are those of [`super::pile_order::applies`], and an
//! emptied fan that takes at most the stock's next card.
//!
//! One more relaxation makes the relaxed games of many positions one: a
//! fan's card lying on a copy of the card it builds on starts loose (it
//! could only leave onto such a copy, or home; loose it may do both and
//! more). So the relaxed game depends only on the cards of each fan (the
//! fans in any order), of the waste and of the stock, and on the
//! foundations' heights.
//!
//! The piles' order test ([`super::pile_order`]) counts every stock card
//! loose. Here a stock card needs, like a waste card, a card to build on,
//! its foundation, or a fan emptied for it, and the fans must empty in
//! their order to take it.
//!
//! **What the search may skip.** Each rule leads to a position that can do
//! whatever the others can:
//!
//! - *A pile's top that may become loose does*: a loose card can do all its
//!   pile top could, and the card under it is uncovered (an emptied fan may
//!   take a stock card, never must).
//! - *The stock's next card that may become loose comes out at once*: the
//!   waste and the fans are as they were, the card is freer than on either,
//!   and the cards behind it come nearer (the stock is never forced out).
//! - *A card no card still needs goes home at once*, as in
//!   [`super::pile_order`], where the stock's cards, the waste's and the
//!   cards a fan took from the stock count as lying in piles.
//! - *A card going home from a pile top is never sent home from among the
//!   loose cards instead*: the loose copy stays loose, and the pile is
//!   uncovered.
//! - *A waste whose cards cannot come off in their order, with every other
//!   card loose, is lost*: that is [`super::waste_order`]'s relaxation of
//!   this one (more stock cards onto the waste only add to its load).
//!
//! **Verdicts kept.** A relaxed position's verdict (won, or lost after every
//! line from it was searched) is kept per thread by a 128-bit hash of what
//! its game depends on. The full search meets the same relaxed positions
//! from many real ones, and the relaxed search below a position whose own
//! budget ran out still leaves the verdicts of the lines it finished.

use std::cell::RefCell;

use patience_engine::prng::mix64;
use patience_engine::{Card, Position};

use super::dead_two_deck::{tables, NONE};
use super::waste_order::suit_clears;

/// Relaxed positions a test may expand before it gives up (and calls the
/// position alive). The search asks the test at every position, and the
/// verdicts kept carry most of the work from one test to the next; a larger
/// budget costs more than it proves (Krakowski deal 27 lost in 6,503,219
/// positions and 10.5 s at 30, in 5,249,823 and 30.6 s at 300: `cargo run
/// --release -p patience-solver --example full_search -- krakowski 27
/// 40000000 1024 piles-order`, built with each budget).
pub const BUDGET: usize = 30;

/// Fans and the waste the test handles (Krakowski has 12 fans and a waste).
const PILES: usize = 16;

/// Most stock cards the test handles: a two-deck pack's 104 fit.
const STOCK: usize = 128;

/// Most cards a pile holds: a two-deck pack.
const PILE_CAP: usize = 104;

/// Whether the test applies: the piles' order test's conditions, and an
/// emptied fan that takes at most the stock's next card.
pub fn applies(pos: &Position) -> bool {
    super::pile_order::applies(pos) && pos.spec().emptied_fan_takes_at_most_the_stocks_next_card()
}

/// One relaxed position.
#[derive(Clone, Copy)]
struct State {
    /// Cards left of each pile's own.
    left: [u8; PILES],
    /// Per fan, the stock card (by its place in the stock's order) lying
    /// there, or `NONE`; such a fan holds none of its own.
    parked: [u8; PILES],
    /// The stock's next card, by its place.
    next: u8,
    /// The stock's cards (by place) lying on the waste, above its own.
    on_waste: u128,
    /// Per suit the cards home on its two foundations, the higher first.
    heights: [[u8; 2]; 4],
    /// The sum of [`Game::waste_card`] over the stock's cards on the waste.
    waste_hash: u128,
}

/// What one relaxed position allows, kept up to date as it changes.
#[derive(Clone, Copy)]
struct Counts {
    loose: [u8; Card::COUNT],
    /// Copies in a pile, on the waste or in the stock.
    held: [u8; Card::COUNT],
    fan_tops: [u8; Card::COUNT],
}

/// A relaxed position's answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Won,
    Lost,
    /// The budget ran out first.
    Open,
}

/// The relaxed game of one position.
struct Game {
    /// Each pile's own cards (by index), bottom first.
    piles: [[u8; PILE_CAP]; PILES],
    /// Per pile the hash of its first `len` own cards, by `len`.
    prefix: [[u128; PILE_CAP + 1]; PILES],
    /// The stock's cards, the next first.
    stock: [u8; STOCK],
    /// Per place the hash of the stock from that place on.
    stock_from: [u128; STOCK + 1],
    stock_len: usize,
    waste: usize,
    n: usize,
    /// Per card its suit.
    suit: [u8; Card::COUNT],
    order: [u8; Card::COUNT],
    /// Per card the card it builds on (`NONE` for a king).
    above: [u8; Card::COUNT],
    /// Per suit the card at each place.
    at: [[u8; 13]; 4],
    top_order: u8,
}

/// A 128-bit hash of a small number in one role.
fn h(role: u64, a: u64, b: u64) -> u128 {
    let x = role.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ a << 8 ^ b << 24;
    (mix64(x) as u128) << 64 | mix64(x ^ 0x5851_f42d_4c95_7f2d) as u128
}

/// Mixes a 128-bit hash into one of a set member in `role`.
fn member(role: u64, x: u128) -> u128 {
    h(role, mix64(x as u64), mix64((x >> 64) as u64))
}

const FAN: u64 = 1;
const WASTE: u64 = 2;
const STOCK_CARD: u64 = 3;
const HEIGHTS: u64 = 4;
const FAN_SET: u64 = 5;

impl Game {
    /// Pile `k`'s top card (by index).
    fn top(&self, s: &State, k: usize) -> Option<usize> {
        if k == self.waste && s.on_waste != 0 {
            return Some(self.stock[127 - s.on_waste.leading_zeros() as usize] as usize);
        }
        match s.left[k] {
            0 => (s.parked[k] != NONE).then(|| self.stock[s.parked[k] as usize] as usize),
            left => Some(self.piles[k][left as usize - 1] as usize),
        }
    }

    /// A stock card at depth `depth` of the waste, for [`State::waste_hash`].
    fn waste_card(x: usize, depth: u32) -> u128 {
        h(WASTE, x as u64, depth as u64)
    }

    /// The card a foundation at `height` of `suit` takes next.
    fn next_home(&self, suit: usize, height: u8) -> Option<usize> {
        let x = *self.at[suit].get(height as usize)?;
        (x != NONE).then_some(x as usize)
    }

    fn may_become_loose(&self, c: &Counts, x: usize) -> bool {
        let up = self.above[x];
        up != NONE && (c.loose[up as usize] > 0 || c.fan_tops[up as usize] > 0)
    }

    /// Takes pile `k`'s top card `x` off: loose, or home on foundation `f`
    /// of its suit.
    fn take(&self, s: &mut State, c: &mut Counts, k: usize, x: usize, home: Option<usize>) {
        if k == self.waste && s.on_waste != 0 {
            let bit = 127 - s.on_waste.leading_zeros();
            let depth = s.left[k] as u32 + s.on_waste.count_ones() - 1;
            s.waste_hash = s.waste_hash.wrapping_sub(Self::waste_card(x, depth));
            s.on_waste &= !(1u128 << bit);
        } else if s.left[k] > 0 {
            s.left[k] -= 1;
        } else {
            s.parked[k] = NONE;
        }
        if k != self.waste {
            c.fan_tops[x] -= 1;
            if let Some(y) = self.top(s, k) {
                c.fan_tops[y] += 1;
            }
        }
        c.held[x] -= 1;
        match home {
            Some(f) => self.raise(s, x, f),
            None => c.loose[x] += 1,
        }
    }

    /// Raises foundation `f` of card `x`'s suit by one card, `x`.
    fn raise(&self, s: &mut State, x: usize, f: usize) {
        let h = &mut s.heights[self.suit[x] as usize];
        h[f] += 1;
        if h[1] > h[0] {
            h.swap(0, 1);
        }
    }

    /// Makes every move that is always made (the module documentation's
    /// rules).
    fn close(&self, s: &mut State, c: &mut Counts) {
        loop {
            let mut moved = false;
            for k in 0..self.n {
                while let Some(x) = self.top(s, k) {
                    if !self.may_become_loose(c, x) {
                        break;
                    }
                    self.take(s, c, k, x, None);
                    moved = true;
                }
            }
            while (s.next as usize) < self.stock_len {
                let x = self.stock[s.next as usize] as usize;
                if !self.may_become_loose(c, x) {
                    break;
                }
                s.next += 1;
                c.held[x] -= 1;
                c.loose[x] += 1;
                moved = true;
            }
            // A card no card still needs goes home.
            for suit in 0..4 {
                for f in 0..2 {
                    let height = s.heights[suit][f];
                    let Some(x) = self.next_home(suit, height) else {
                        continue;
                    };
                    if c.held[x] > 1 || (c.held[x] == 0 && c.loose[x] == 0) {
                        continue;
                    }
                    let builder = height.checked_sub(1).and_then(|b| self.next_home(suit, b));
                    if builder.is_some_and(|b| c.held[b] > 0) {
                        continue;
                    }
                    if c.held[x] == 0 {
                        c.loose[x] -= 1;
                        self.raise(s, x, f);
                        moved = true;
                    } else if let Some(k) = (0..self.n).find(|&k| self.top(s, k) == Some(x)) {
                        self.take(s, c, k, x, Some(f));
                        moved = true;
                    }
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// Whether the waste's cards can come off in their order with every
    /// other card loose ([`super::waste_order`]).
    fn waste_clears(&self, s: &State) -> bool {
        let mut orders = [[0u8; 26]; 4];
        let mut count = [0usize; 4];
        let mut put = |x: usize| {
            let su = self.suit[x] as usize;
            if let Some(slot) = orders[su].get_mut(count[su]) {
                *slot = self.order[x];
                count[su] += 1;
            }
        };
        let mut on = s.on_waste;
        while on != 0 {
            let bit = 127 - on.leading_zeros();
            put(self.stock[bit as usize] as usize);
            on &= !(1u128 << bit);
        }
        for &x in self.piles[self.waste][..s.left[self.waste] as usize]
            .iter()
            .rev()
        {
            put(x as usize);
        }
        (0..4).all(|su| suit_clears(&orders[su][..count[su]], s.heights[su], 2, self.top_order))
    }

    /// What the relaxed game of a position depends on, whichever position
    /// it came from (the module documentation).
    fn key(&self, s: &State) -> u128 {
        let mut sum = 0u128;
        for k in 0..self.n {
            let pile = if s.parked[k] != NONE {
                let x = self.stock[s.parked[k] as usize] as u64;
                h(FAN, x, 0)
            } else {
                self.prefix[k][s.left[k] as usize]
            };
            sum = sum.wrapping_add(if k == self.waste {
                pile.wrapping_add(s.waste_hash)
            } else {
                member(FAN_SET, pile)
            });
        }
        let heights = s.heights.as_flattened();
        let word = heights.iter().fold(0u64, |w, &x| w << 8 | x as u64);
        sum.wrapping_add(self.stock_from[s.next as usize])
            .wrapping_add(h(HEIGHTS, word, 0))
    }

    /// The relaxed game from `s` (not yet closed), within the budget left.
    fn search(&self, mut s: State, mut c: Counts, run: &mut Run) -> Verdict {
        self.close(&mut s, &mut c);
        let stock_out = s.next as usize == self.stock_len;
        if stock_out && (0..self.n).all(|k| self.top(&s, k).is_none()) {
            return Verdict::Won;
        }
        if !self.waste_clears(&s) {
            return Verdict::Lost;
        }
        let key = self.key(&s);
        if let Some(v) = run.known.get(key) {
            return v;
        }
        if run.expanded >= run.budget {
            return Verdict::Open;
        }
        run.expanded += 1;
        let mut open = false;
        let mut answer = |v: Verdict, run: &mut Run| -> Option<Verdict> {
            match v {
                Verdict::Won => {
                    run.known.put(key, Verdict::Won);
                    Some(Verdict::Won)
                }
                Verdict::Lost => None,
                Verdict::Open => {
                    open = true;
                    let spent = run.expanded >= run.budget;
                    if spent {
                        run.known.put(key, Verdict::Open);
                    }
                    spent.then_some(Verdict::Open)
                }
            }
        };
        // Home moves: from each pile showing the card, else a loose copy.
        for suit in 0..4 {
            for f in 0..2 {
                let height = s.heights[suit][f];
                if f == 1 && height == s.heights[suit][0] {
                    continue;
                }
                let Some(x) = self.next_home(suit, height) else {
                    continue;
                };
                let mut from_pile = false;
                for k in 0..self.n {
                    if self.top(&s, k) == Some(x) {
                        from_pile = true;
                        let (mut s2, mut c2) = (s, c);
                        self.take(&mut s2, &mut c2, k, x, Some(f));
                        if let Some(v) = answer(self.search(s2, c2, run), run) {
                            return v;
                        }
                    }
                }
                if !from_pile && c.loose[x] > 0 {
                    let (mut s2, mut c2) = (s, c);
                    c2.loose[x] -= 1;
                    self.raise(&mut s2, x, f);
                    if let Some(v) = answer(self.search(s2, c2, run), run) {
                        return v;
                    }
                }
            }
        }
        if !stock_out {
            let i = s.next as usize;
            let x = self.stock[i] as usize;
            let empty =
                (0..self.n).find(|&k| k != self.waste && s.left[k] == 0 && s.parked[k] == NONE);
            if let Some(k) = empty {
                let (mut s2, mut c2) = (s, c);
                s2.next += 1;
                s2.parked[k] = i as u8;
                c2.fan_tops[x] += 1;
                if let Some(v) = answer(self.search(s2, c2, run), run) {
                    return v;
                }
            }
            let mut s2 = s;
            let depth = s.left[self.waste] as u32 + s.on_waste.count_ones();
            s2.next += 1;
            s2.on_waste |= 1u128 << i;
            s2.waste_hash = s2.waste_hash.wrapping_add(Self::waste_card(x, depth));
            if let Some(v) = answer(self.search(s2, c, run), run) {
                return v;
            }
        }
        if open {
            run.known.put(key, Verdict::Open);
            return Verdict::Open;
        }
        run.known.put(key, Verdict::Lost);
        Verdict::Lost
    }
}

/// One test's search: its budget and the verdicts kept.
struct Run<'a> {
    expanded: usize,
    budget: usize,
    known: &'a mut Known,
}

/// Verdicts of relaxed positions, by key: one slot a key, the newest kept.
/// A slot holds the key above its lowest byte, and there the verdict: won,
/// lost, or open since which epoch.
struct Known {
    game: &'static str,
    slots: Vec<u128>,
    /// Tests asked since the table was made.
    tests: u64,
}

/// Slots kept per thread (16 MiB).
const SLOTS: usize = 1 << 20;

const WON: u8 = 1;
const LOST: u8 = 2;

impl Known {
    fn slot(key: u128) -> usize {
        (key >> 8) as usize & (SLOTS - 1)
    }

    /// The tag of an open verdict now: it is kept until the epoch turns
    /// ([`EPOCH_SHIFT`]), after which the lines later tests finished may
    /// decide it.
    fn epoch(&self) -> u8 {
        3 + ((self.tests >> EPOCH_SHIFT) % 250) as u8
    }

    fn get(&self, key: u128) -> Option<Verdict> {
        let v = *self.slots.get(Self::slot(key))?;
        if v >> 8 != key >> 8 {
            return None;
        }
        match v as u8 {
            WON => Some(Verdict::Won),
            LOST => Some(Verdict::Lost),
            e => (e == self.epoch()).then_some(Verdict::Open),
        }
    }

    fn put(&mut self, key: u128, v: Verdict) {
        let tag = match v {
            Verdict::Won => WON,
            Verdict::Lost => LOST,
            Verdict::Open => self.epoch(),
        };
        let i = Self::slot(key);
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = (key & !0xff) | tag as u128;
        }
    }
}

/// An open verdict is kept for 2^this many tests.
const EPOCH_SHIFT: u32 = 16;

thread_local! {
    /// The verdicts kept, and the relaxed game of the test being asked.
    static SCRATCH: RefCell<(Known, Option<Box<Game>>)> =
        const { RefCell::new((Known { game: "", slots: Vec::new(), tests: 0 }, None)) };
}

/// Whether the relaxed game of the module documentation is lost, searched
/// within `budget` relaxed positions. Call only where [`applies`] holds.
pub fn is_dead_within(pos: &Position, budget: usize) -> bool {
    let layout = pos.layout();
    let t = tables(pos);
    let Some(stock_pile) = layout.stock else {
        return false;
    };
    let stock_cards = pos.pile(stock_pile);
    if stock_cards.len() > STOCK {
        return false;
    }
    let unplaced = |p| {
        pos.pile(p)
            .iter()
            .any(|x: &Card| t.order[x.index()] == NONE)
    };
    if layout
        .tableau_ids()
        .chain(layout.waste)
        .chain([stock_pile])
        .any(unplaced)
    {
        return false;
    }
    SCRATCH.with_borrow_mut(|(known, game)| {
        let game = game.get_or_insert_with(|| {
            Box::new(Game {
                piles: [[0; PILE_CAP]; PILES],
                prefix: [[0; PILE_CAP + 1]; PILES],
                stock: [0; STOCK],
                stock_from: [0; STOCK + 1],
                stock_len: 0,
                waste: PILES,
                n: 0,
                suit: [NONE; Card::COUNT],
                order: t.order,
                above: t.above,
                at: t.at,
                top_order: t.top_order as u8,
            })
        });
        let id = pos.spec().id;
        if known.game != id || known.slots.len() != SLOTS {
            known.game = id;
            known.slots.clear();
            known.slots.resize(SLOTS, 0);
        }
        test(pos, game, known, budget)
    })
}

/// [`is_dead_within`] with its scratch: the relaxed game loaded into
/// `game`, the verdicts kept in `known`.
fn test(pos: &Position, game: &mut Game, known: &mut Known, budget: usize) -> bool {
    let layout = pos.layout();
    let t = tables(pos);
    let Some(stock_pile) = layout.stock else {
        return false;
    };
    let stock_cards = pos.pile(stock_pile);
    game.stock_len = stock_cards.len();
    game.waste = PILES;
    game.n = 0;
    game.order = t.order;
    game.above = t.above;
    game.at = t.at;
    game.top_order = t.top_order as u8;
    game.suit = [NONE; Card::COUNT];
    for (su, places) in t.at.iter().enumerate() {
        for &x in places.iter().filter(|&&x| x != NONE) {
            game.suit[x as usize] = su as u8;
        }
    }
    let mut counts = Counts {
        loose: [0; Card::COUNT],
        held: [0; Card::COUNT],
        fan_tops: [0; Card::COUNT],
    };
    // The stock, next first; its hash from each place on counts places from
    // the bottom, which stay where they are as the stock is dealt.
    for (slot, &x) in game.stock.iter_mut().zip(stock_cards.iter().rev()) {
        *slot = x.index() as u8;
        counts.held[x.index()] += 1;
    }
    game.stock_from[game.stock_len] = 0;
    for i in (0..game.stock_len).rev() {
        let from_bottom = (game.stock_len - 1 - i) as u64;
        game.stock_from[i] =
            game.stock_from[i + 1].wrapping_add(h(STOCK_CARD, game.stock[i] as u64, from_bottom));
    }
    let mut start = State {
        left: [0; PILES],
        parked: [NONE; PILES],
        next: 0,
        on_waste: 0,
        heights: [[0; 2]; 4],
        waste_hash: 0,
    };
    let mut started = [0usize; 4];
    for f in layout.foundation_ids() {
        let pile = pos.pile(f);
        if let Some(&first) = pile.first() {
            let su = game.suit[first.index()] as usize;
            if let Some(h) = start.heights[su].get_mut(started[su]) {
                *h = pile.len() as u8;
            }
            started[su] += 1;
        }
    }
    for h in &mut start.heights {
        if h[1] > h[0] {
            h.swap(0, 1);
        }
    }
    for p in layout.tableau_ids().chain(layout.waste) {
        if game.n == PILES {
            return false;
        }
        let pile = pos.pile(p);
        let fan = Some(p) != layout.waste;
        let role = if fan { FAN } else { WASTE };
        let k = game.n;
        game.prefix[k][0] = 0;
        let mut len = 0;
        for (i, &x) in pile.iter().enumerate() {
            // A fan's card lying on a copy of the card it builds on starts
            // loose (the module documentation says why).
            let on_its_card = i > 0 && t.above[x.index()] == pile[i - 1].index() as u8;
            if fan && on_its_card {
                counts.loose[x.index()] += 1;
            } else {
                game.piles[k][len] = x.index() as u8;
                game.prefix[k][len + 1] =
                    game.prefix[k][len].wrapping_add(h(role, x.index() as u64, len as u64));
                counts.held[x.index()] += 1;
                len += 1;
            }
        }
        if !fan {
            game.waste = k;
        } else if len > 0 {
            counts.fan_tops[game.piles[k][len - 1] as usize] += 1;
        }
        start.left[k] = len as u8;
        game.n += 1;
    }
    if game.waste == PILES {
        return false;
    }
    {
        known.tests += 1;
        let mut run = Run {
            expanded: 0,
            budget,
            known,
        };
        game.search(start, counts, &mut run) == Verdict::Lost
    }
}

#[cfg(test)]
thread_local! {
    /// Turns the test off in this thread, for tests that compare verdicts
    /// with and without it.
    pub(crate) static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// [`is_dead_within`] at the test's [`BUDGET`].
pub fn is_dead(pos: &Position) -> bool {
    #[cfg(test)]
    if OFF.get() {
        return false;
    }
    is_dead_within(pos, BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prune::dead_two_deck::tests::along_random_games;
    use crate::{replays_to_win, solve, solve_with, Budget, Options, Outcome};
    use patience_engine::game;

    /// A budget large enough that the test decides the positions here.
    const WIDE: usize = 200_000;

    #[test]
    fn no_position_on_a_winning_line_is_called_dead() {
        // Each position a win passes through is winnable, however many
        // cards are left in the stock.
        let spec = game("krakowski").unwrap();
        for deal in [4, 9] {
            let start = Position::deal(spec, deal).unwrap();
            let Outcome::Win(line) = solve(&start, &Budget::of_nodes(2_000_000)).outcome else {
                panic!("deal {deal} not won");
            };
            assert!(replays_to_win(&start, &line));
            let mut p = start;
            for (i, &m) in line.iter().enumerate() {
                assert!(applies(&p));
                assert!(
                    !is_dead_within(&p, WIDE),
                    "deal {deal}, move {i}\n{}",
                    p.to_text()
                );
                p.apply(m).unwrap();
            }
        }
    }

    #[test]
    fn only_games_whose_stock_comes_out_one_card_at_a_time_ask_it() {
        // Krakowski turns its stock onto a waste and refills with one card;
        // Blondes and Brunettes refill from the waste (and their
        // foundations give cards back); La Belle Lucie has no stock.
        let at = |id| Position::deal(game(id).unwrap(), 1).unwrap();
        assert!(applies(&at("krakowski")));
        assert!(!applies(&at("blondes-and-brunettes")));
        assert!(!applies(&at("la-belle-lucie")));
    }

    /// Positions along random games of Krakowski that only this test calls
    /// dead (the two-deck, waste and piles' order tests pass them), with a
    /// move left: the search with every other dominance and without this
    /// test finds no win in any, and proves enough of them lost to mean
    /// something.
    #[test]
    fn positions_only_the_stock_order_calls_dead_are_lost() {
        let positions = along_random_games("krakowski", 40, 300, 3, 0x5170);
        let (mut fired, mut proved) = (0, 0);
        for p in &positions {
            if !applies(p)
                || crate::prune::is_dead(p)
                || crate::prune::pile_order::is_dead_within(p, 20_000)
                || !is_dead_within(p, WIDE)
                || p.legal_moves().is_empty()
            {
                continue;
            }
            fired += 1;
            OFF.set(true);
            crate::prune::pile_order::OFF.set(true);
            let plain = solve_with(p, &Options::with_nodes(300_000, true)).outcome;
            OFF.set(false);
            crate::prune::pile_order::OFF.set(false);
            assert_ne!(plain.won(), Some(true), "{}", p.to_text());
            proved += (plain.won() == Some(false)) as usize;
        }
        eprintln!("the stock's order fired in {fired}, the search without it proved {proved} lost");
        assert!(proved >= 10, "fired {fired}, proved {proved}");
    }
}
