//! Dead positions by the order of the stock, the waste and the fans, in the
//! two-deck games with a waste built down in suit (Krakowski), in their last
//! deal, while many cards are left in the stock.
//!
//! **The relaxation.** Each fan and the waste keep the cards they hold now,
//! in their order, and give them top first; a card that has left its pile
//! without going home is *loose*. The stock's cards come out in their order,
//! each onto the waste's top (where it blocks the waste like any waste card)
//! or onto a fan that has given every card it holds and holds no stock card
//! either, as a pile of its own one card. And each suit's two foundations
//! are one *set*: a card goes home once a copy of the card below it is home
//! (the suit's first card at any time). The moves:
//!
//! 1. a pile's top card becomes loose, if a copy of the card it builds on (one
//!    rank above it in suit) is loose or is the top of a fan;
//! 2. a pile's top card or a loose card goes home;
//! 3. the stock's next card goes onto the waste, or onto an empty fan.
//!
//! Every real line of play is a line of the relaxed game. Map a real
//! position to the relaxed one whose piles have lost the cards of their own
//! that have left them, whose waste holds the real waste's cards (its own
//! and the stock's turned since, in the same order), whose fans hold the
//! stock card a refill laid there while it lies there, with the same cards
//! home and the same stock. A pile card (a fan's own, a refilled one, or the
//! waste's top) going onto a fan is move 1: the card it lands on is a fan
//! top, a relaxed pile's top or a card that came there since (loose). A card
//! going home onto a foundation that shows the card below it is move 2. A
//! card turned from the stock is move 3, and so is a refill: the fan it
//! fills is empty, so its relaxed pile is too (the real fan holds the
//! relaxed pile and above it the cards laid there since), and the rules
//! refill with one stock card or none. A card that came onto a fan since
//! stays loose wherever it goes. So a real win is a relaxed win, and a
//! position whose relaxed game cannot be won is lost. The conditions are
//! those of [`super::pile_order::applies`], and an emptied fan that takes
//! at most the stock's next card.
//!
//! The piles' order test ([`super::pile_order`]) keeps the two foundations
//! apart but counts every stock card loose, which wins nearly every relaxed
//! game while many cards are left in the stock. Here a stock card needs,
//! like a waste card, a card to build on or its foundation, or a fan emptied
//! for it. With few cards home (the first copies all to come) the set loses
//! little, and a deal whose aces and twos lie under cards that wait for them
//! is seen lost where it stands.
//!
//! **Only the stock is a choice.** With the foundations a set, every other
//! move is always made, each because the position it leads to can do
//! whatever the other can:
//!
//! - *A card that may go home goes*: its role as a card to build on is
//!   moot, since a copy of the card below it is home, so every copy of that
//!   card may go home too (the cards home of a suit are always every card
//!   up to some rank, by one copy at least), and under it a pile shows its
//!   next card.
//! - *A pile's top that may become loose does*: a loose card can do all its
//!   pile top could, and the card under it is uncovered (an emptied fan may
//!   take a stock card, never must).
//! - *The stock's next card that may go home or become loose comes out at
//!   once*: the waste and the fans are as they were, the card is freer than
//!   in the stock, and the cards behind it come nearer.
//!
//! So a relaxed position is its piles' lengths, the fans' stock cards, the
//! stock's next card and the waste's stock cards; the cards home follow from
//! them. The search tries the waste and one empty fan (empty fans are alike)
//! for each stock card that must wait; most relaxed games are decided within
//! a few hundred positions.

use std::cell::RefCell;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use patience_engine::prng::mix64;
use patience_engine::{Card, Position};

use super::dead_two_deck::{tables, NONE};
use crate::key::{Prehashed, PrehashedSet};

/// Relaxed positions a test may search before it gives up (and calls the
/// position alive): most are decided within a few hundred.
pub const BUDGET: usize = 1_000;

/// The test runs only where the stock holds more than this many cards: at
/// fewer, the piles' order test ([`super::pile_order`]) runs instead, and
/// there most of the first copies are home, where the set of foundations
/// loses the most.
pub const STOCK_MORE_THAN: usize = super::pile_order::STOCK_AT_MOST;

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
#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    /// Cards left of each pile's own.
    left: [u8; PILES],
    /// Per fan, the stock card (by its place in the stock's order) lying
    /// there, or `NONE`.
    parked: [u8; PILES],
    /// The stock's next card, by its place.
    next: u8,
    /// The stock's cards (by place) lying on the waste.
    on_waste: u128,
}

impl Hash for State {
    /// One multiply-mixed word for [`PrehashedSet`]: equal states still
    /// compare whole.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let word = |b: &[u8]| b.iter().fold(0u64, |w, &x| w << 8 | x as u64);
        let mixed = (word(&self.left[..8])
            ^ word(&self.left[8..]).rotate_left(29)
            ^ word(&self.parked[..8]).rotate_left(13)
            ^ word(&self.parked[8..]).rotate_left(37)
            ^ (self.on_waste as u64)
            ^ ((self.on_waste >> 64) as u64).rotate_left(19)
            ^ (self.next as u64).rotate_left(56))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        state.write_u64(mixed ^ mixed >> 31);
    }
}

/// What one relaxed position allows, kept up to date as it changes.
#[derive(Clone, Copy)]
struct Counts {
    loose: [u8; Card::COUNT],
    fan_tops: [u8; Card::COUNT],
    /// Per suit, how many of its first ranks have a copy home.
    home: [u8; 4],
}

/// The relaxed game of one position.
struct Game {
    /// Each pile's cards (by index), bottom first.
    piles: [[u8; PILE_CAP]; PILES],
    /// The stock's cards, the next first.
    stock: [u8; STOCK],
    stock_len: usize,
    waste: usize,
    n: usize,
    /// Per card its suit and its place in the suit's foundation sequence.
    suit: [u8; Card::COUNT],
    order: [u8; Card::COUNT],
    /// Per card the card it builds on (`NONE` for a king).
    above: [u8; Card::COUNT],
    /// Per suit the card at each place.
    at: [[u8; 13]; 4],
}

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

    fn may_go_home(&self, c: &Counts, x: usize) -> bool {
        self.order[x] <= c.home[self.suit[x] as usize]
    }

    fn may_become_loose(&self, c: &Counts, x: usize) -> bool {
        let up = self.above[x];
        up != NONE && (c.loose[up as usize] > 0 || c.fan_tops[up as usize] > 0)
    }

    /// Card `x` goes home: its suit's run of ranks home may grow, and loose
    /// cards of the ranks it reaches follow.
    fn send_home(&self, c: &mut Counts, x: usize) {
        let su = self.suit[x] as usize;
        if self.order[x] == c.home[su] {
            c.home[su] += 1;
        }
        // No loose card of a rank at or below the run is left (each went
        // home as it became free), so only the next rank may follow.
        while let Some(y) = self.card_at(su, c.home[su]) {
            if c.loose[y] == 0 {
                break;
            }
            c.loose[y] = 0;
            c.home[su] += 1;
        }
    }

    fn card_at(&self, suit: usize, order: u8) -> Option<usize> {
        let x = *self.at[suit].get(order as usize)?;
        (x != NONE).then_some(x as usize)
    }

    /// Takes pile `k`'s top card `x` off, home where it may go, else loose.
    fn take(&self, s: &mut State, c: &mut Counts, k: usize, x: usize) {
        if k == self.waste && s.on_waste != 0 {
            s.on_waste &= !(1u128 << (127 - s.on_waste.leading_zeros()));
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
        self.free(c, x);
    }

    /// Card `x`, off its pile or out of the stock: home, else loose.
    fn free(&self, c: &mut Counts, x: usize) {
        if self.may_go_home(c, x) {
            self.send_home(c, x);
        } else {
            c.loose[x] += 1;
        }
    }

    /// Makes every move that is always made (the module documentation's
    /// rules).
    fn close(&self, s: &mut State, c: &mut Counts) {
        loop {
            let mut moved = false;
            for k in 0..self.n {
                while let Some(x) = self.top(s, k) {
                    if !self.may_go_home(c, x) && !self.may_become_loose(c, x) {
                        break;
                    }
                    self.take(s, c, k, x);
                    moved = true;
                }
            }
            while (s.next as usize) < self.stock_len {
                let x = self.stock[s.next as usize] as usize;
                if !self.may_go_home(c, x) && !self.may_become_loose(c, x) {
                    break;
                }
                s.next += 1;
                self.free(c, x);
                moved = true;
            }
            if !moved {
                return;
            }
        }
    }

    /// Whether the relaxed game is won within `budget` relaxed positions
    /// (`None`: the budget ran out first).
    /// What the relaxed game of a closed position depends on, whichever
    /// position it came from: each fan's cards (the fans in any order), the
    /// waste's, the stock's still to come and each suit's ranks home.
    fn key(&self, s: &State, c: &Counts) -> u128 {
        let mut sum = 0u128;
        for k in 0..self.n {
            let own = &self.piles[k][..s.left[k] as usize];
            let mut h = Hash2::new(if k == self.waste { 1 } else { 2 });
            for x in own {
                h.add(*x as u64);
            }
            if s.parked[k] != NONE {
                h.add(64 + self.stock[s.parked[k] as usize] as u64);
            }
            sum = sum.wrapping_add(h.finish());
        }
        let mut h = Hash2::new(3);
        for &x in &self.stock[s.next as usize..self.stock_len] {
            h.add(x as u64);
        }
        for su in c.home {
            h.add(128 + su as u64);
        }
        sum.wrapping_add(h.finish())
    }

    fn won(
        &self,
        start: (State, Counts),
        budget: usize,
        seen: &mut PrehashedSet<State>,
        stack: &mut Vec<(State, Counts)>,
    ) -> Option<bool> {
        stack.clear();
        stack.push(start);
        while let Some((mut s, mut c)) = stack.pop() {
            self.close(&mut s, &mut c);
            let stock_out = s.next as usize == self.stock_len;
            if stock_out && (0..self.n).all(|k| self.top(&s, k).is_none()) {
                return Some(true);
            }
            if stock_out || !seen.insert(s) {
                continue;
            }
            if seen.len() > budget {
                return None;
            }
            let i = s.next as usize;
            let mut onto_waste = s;
            onto_waste.next += 1;
            onto_waste.on_waste |= 1u128 << i;
            stack.push((onto_waste, c));
            let empty =
                (0..self.n).find(|&k| k != self.waste && s.left[k] == 0 && s.parked[k] == NONE);
            if let Some(k) = empty {
                let (mut parked, mut pc) = (s, c);
                parked.next += 1;
                parked.parked[k] = i as u8;
                pc.fan_tops[self.stock[i] as usize] += 1;
                stack.push((parked, pc));
            }
        }
        Some(false)
    }
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
    let mut game = Game {
        piles: [[0; PILE_CAP]; PILES],
        stock: [0; STOCK],
        stock_len: stock_cards.len(),
        waste: PILES,
        n: 0,
        suit: [NONE; Card::COUNT],
        order: t.order,
        above: t.above,
        at: t.at,
    };
    for (slot, &x) in game.stock.iter_mut().zip(stock_cards.iter().rev()) {
        *slot = x.index() as u8;
    }
    for (su, places) in t.at.iter().enumerate() {
        for &x in places.iter().filter(|&&x| x != NONE) {
            game.suit[x as usize] = su as u8;
        }
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
    let mut counts = Counts {
        loose: [0; Card::COUNT],
        fan_tops: [0; Card::COUNT],
        home: [0; 4],
    };
    for f in layout.foundation_ids() {
        if let Some(&x) = pos.pile(f).last() {
            let su = game.suit[x.index()] as usize;
            counts.home[su] = counts.home[su].max(t.order[x.index()] + 1);
        }
    }
    let mut start = State {
        left: [0; PILES],
        parked: [NONE; PILES],
        next: 0,
        on_waste: 0,
    };
    for p in layout.tableau_ids().chain(layout.waste) {
        if game.n == PILES {
            return false;
        }
        let pile = pos.pile(p);
        let fan = Some(p) != layout.waste;
        let mut len = 0;
        for (i, &x) in pile.iter().enumerate() {
            // A fan's card lying on a copy of the card it builds on counts
            // as loose (the module documentation says why).
            let on_its_card = i > 0 && t.above[x.index()] == pile[i - 1].index() as u8;
            if fan && on_its_card {
                game.free(&mut counts, x.index());
            } else {
                game.piles[game.n][len] = x.index() as u8;
                len += 1;
            }
        }
        if !fan {
            game.waste = game.n;
        } else if len > 0 {
            counts.fan_tops[game.piles[game.n][len - 1] as usize] += 1;
        }
        start.left[game.n] = len as u8;
        game.n += 1;
    }
    game.close(&mut start, &mut counts);
    let key = game.key(&start, &counts);
    let id = pos.spec().id;
    let known = CACHE.with_borrow_mut(|(game_id, cache)| {
        if *game_id != id {
            *game_id = id;
            cache.clear();
        }
        cache.get(&key).copied()
    });
    if let Some(dead) = known {
        return dead;
    }
    let dead = SCRATCH.with_borrow_mut(|(seen, stack)| {
        seen.clear();
        game.won((start, counts), budget, seen, stack) == Some(false)
    });
    CACHE.with_borrow_mut(|(_, cache)| {
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, dead);
    });
    dead
}

/// Verdicts kept per thread (about 8 MiB), by [`Game::key`]: the search
/// meets the same relaxed game from many arrangements of the fans (on
/// Krakowski deal 27, one test in ten searches).
const CACHE_ENTRIES: usize = 1 << 18;

/// The relaxed positions seen and the search's stack, kept between tests.
type Scratch = (PrehashedSet<State>, Vec<(State, Counts)>);

type Verdicts = std::collections::HashMap<u128, bool, BuildHasherDefault<Prehashed>>;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Default::default());
    /// The game the verdicts are of, and the verdicts.
    static CACHE: RefCell<(&'static str, Verdicts)> = RefCell::new(("", Verdicts::default()));
}

/// A 128-bit hash of a sequence of small numbers.
struct Hash2(u64, u64);

impl Hash2 {
    fn new(salt: u64) -> Self {
        Hash2(mix64(salt), mix64(!salt))
    }
    fn add(&mut self, v: u64) {
        self.0 = mix64(self.0 ^ v);
        self.1 = mix64(self.1.rotate_left(17) ^ v.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
    fn finish(&self) -> u128 {
        (self.0 as u128) << 64 | self.1 as u128
    }
}

#[cfg(test)]
thread_local! {
    /// Turns the test off in this thread, for tests that compare verdicts
    /// with and without it.
    pub(crate) static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// [`is_dead_within`] at the test's [`BUDGET`], where more than
/// [`STOCK_MORE_THAN`] cards are left in the stock.
pub fn is_dead(pos: &Position) -> bool {
    #[cfg(test)]
    if OFF.get() {
        return false;
    }
    if pos.layout().stock.map_or(0, |s| pos.pile(s).len()) <= STOCK_MORE_THAN {
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

    /// A budget large enough that the test decides every position here.
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
