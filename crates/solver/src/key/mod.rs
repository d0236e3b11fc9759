//! The canonical key of a position: a 128-bit hash that is equal for positions
//! that play alike, so the transposition table recognises them.
//!
//! Each pile's cards are hashed in order (bottom first, one random key per
//! height and card); the pile's sum is then put through a non-linear finaliser
//! salted with the pile's *class*, and the classes are added together. Where
//! the piles of a class are interchangeable the salt is the same for all of
//! them, so the sum does not depend on which pile holds which cards:
//!
//! - **Foundations** of the same rule (the two spade foundations of a two-deck
//!   game, the eight any-suit foundations of Blondes and Brunettes) are
//!   interchangeable: nothing in the rules names a foundation but by its rule,
//!   and the only cross-reference (`last_after_open`, Nivernaise) is between
//!   foundations of different rules.
//! - **Flank cells** (Nivernaise) are interchangeable: a cell card only goes to
//!   a foundation, and a card goes to the first empty cell.
//! - **Tableau piles** are interchangeable when nothing still to come depends
//!   on their order ([`tableau_order_free`]): no Nivernaise deal (three cards
//!   round by round, left to right) is left, and no redeal is left that gathers
//!   in order. The shuffled redeals sort the gathered cards before shuffling,
//!   so they depend only on the set of cards left, never on the order. Refills
//!   from the stock happen the moment a pile empties, so at most one pile is
//!   empty while the stock lasts and the refill order never matters.
//! - Reserve, waste and stock are positional; the redeals used and the draw
//!   are hashed too.
//!
//! Two different classes of positions collide only by a 128-bit accident
//! (about 2^-128 for a pair; far below 10^-20 for a billion positions), which
//! is the price of storing 16 bytes a state instead of the whole layout.

pub mod suit_blind;
pub mod table;

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use patience_engine::prng::{mix64, SplitMix64};
use patience_engine::{Card, EmptiedFan, GameSpec, Move, PileId, PileKind, Position};

/// Highest pile height with its own keys; higher cards reuse them (a pile of
/// more than 128 cards cannot occur: the largest pack is 104).
const HEIGHTS: usize = 128;

/// A canonical key.
pub type Key = u128;

/// A set of keys or position hashes, which are already well-mixed hashes:
/// folding them is hashing enough (the default hasher cost a tenth of the
/// beam's time and of the person-like player's).
pub type PrehashedSet<T> = HashSet<T, BuildHasherDefault<Prehashed>>;

/// The hasher of [`PrehashedSet`]: a 64-bit value is its own hash, a
/// 128-bit one its halves folded.
#[derive(Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
    fn write_u128(&mut self, k: u128) {
        self.0 = (k as u64) ^ ((k >> 64) as u64);
    }
}

struct Keys {
    /// `card[height * 56 + card index]`.
    card: Vec<u128>,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = SplitMix64::new(0x5eed_5017_e4c0_ffee);
        let card = (0..HEIGHTS * 56)
            .map(|_| (rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
            .collect();
        Keys { card }
    })
}

/// The keys for `spec`: where suits never matter ([`suit_blind`]), each
/// card takes the keys of its stand-in, so a card hashes by rank and colour.
fn keys_for(spec: &GameSpec) -> &'static Keys {
    static BLIND: OnceLock<Keys> = OnceLock::new();
    if !spec.suit_blind() {
        return keys();
    }
    BLIND.get_or_init(|| {
        let plain = &keys().card;
        let card = (0..HEIGHTS * 56)
            .map(|i| {
                let (h, c) = (i / 56, i % 56);
                let c = Card::from_index(c).map_or(c, |c| suit_blind::stand_in(c).index());
                plain[h * 56 + c]
            })
            .collect();
        Keys { card }
    })
}

/// Non-linear finaliser: mixes a pile's linear sum with its class salt.
#[inline]
fn finish(h: u128, salt: u64) -> u128 {
    let a = h as u64 ^ salt;
    let b = (h >> 64) as u64;
    let x = mix64(a ^ b.rotate_left(23));
    let y = mix64(b.wrapping_add(a.rotate_left(41)) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (x as u128) << 64 | y as u128
}

#[inline]
fn pile_sum(cards: &[Card], k: &Keys) -> u128 {
    let mut h: u128 = 0;
    for (i, c) in cards.iter().enumerate() {
        h = h.wrapping_add(k.card[(i % HEIGHTS) * 56 + c.index()]);
    }
    h
}

/// The key terms of every prefix of `cards` as one pile of class `salt`,
/// appended to `out`: the term of its first `j` cards `j` places after
/// where `out` ended, 0 for none (an empty pile adds nothing to a key). For keys of states
/// that are not positions (the relaxed games' piles), hashed the way a
/// position's piles are.
pub(crate) fn prefix_terms(cards: &[Card], salt: u64, out: &mut Vec<u128>) {
    let k = keys();
    let mut h: u128 = 0;
    out.push(0);
    for (i, c) in cards.iter().enumerate() {
        h = h.wrapping_add(k.card[(i % HEIGHTS) * 56 + c.index()]);
        out.push(finish(h, salt));
    }
}

/// The key term of `value` in class `salt` (a state's counters).
pub(crate) fn term(value: u128, salt: u64) -> u128 {
    finish(value, salt)
}

/// Whether the order of the tableau piles can no longer matter (see the module
/// documentation).
pub fn tableau_order_free(pos: &Position) -> bool {
    let spec = pos.spec();
    let layout = pos.layout();
    let stock_empty = layout.stock.is_none_or(|s| pos.pile(s).is_empty());
    let deals_left = spec.stock_deals_to_the_piles() && !stock_empty;
    let redeal_in_order = pos.redeal_in_order_left();
    !deals_left && !redeal_in_order
}

/// Per-game facts the key needs, worked out once per search.
pub struct Canon {
    /// For each foundation, the salt of its rule class.
    foundation_salt: Vec<u64>,
}

const SALT_TABLEAU_FREE: u64 = 0x1000;
const SALT_TABLEAU_AT: u64 = 0x2000;
const SALT_FOUNDATION: u64 = 0x3000;
const SALT_CELL: u64 = 0x4000;
const SALT_OTHER: u64 = 0x5000;
const SALT_COUNTERS: u64 = 0x6000;

impl Canon {
    pub fn new(pos: &Position) -> Canon {
        let spec = pos.spec();
        let n = pos.layout().foundations as usize;
        let foundation_salt = (0..n)
            .map(|i| {
                let class = (0..n)
                    .position(|j| spec.foundations_alike(j, i))
                    .unwrap_or(i);
                SALT_FOUNDATION + class as u64
            })
            .collect();
        Canon { foundation_salt }
    }

    /// The canonical key of `pos`.
    pub fn key(&self, pos: &Position) -> Key {
        let k = keys_for(pos.spec());
        let layout = pos.layout();
        let free = tableau_order_free(pos);
        let mut total: u128 = finish(
            (pos.redeals_used() as u128) << 1 | pos.draw_used() as u128,
            SALT_COUNTERS,
        );
        for (i, cards) in pos.piles().iter().enumerate() {
            if cards.is_empty() {
                continue;
            }
            let salt = match layout.kind(PileId(i as u8)) {
                Some(PileKind::Tableau(t)) if !free => SALT_TABLEAU_AT + t as u64,
                Some(PileKind::Tableau(_)) => SALT_TABLEAU_FREE,
                Some(PileKind::Foundation(f)) => self.foundation_salt[f as usize],
                Some(PileKind::Cell(_)) => SALT_CELL,
                _ => SALT_OTHER + i as u64,
            };
            total = total.wrapping_add(finish(pile_sum(cards, k), salt));
        }
        total
    }
}

/// One pile's cached part of the key, as it was before a move changed it.
#[derive(Clone, Copy)]
struct Saved {
    pile: u8,
    len: u16,
    top: Option<Card>,
    sum: u128,
    part: u128,
}

/// What a [`Keyer::push`] changed besides piles.
struct Mark {
    saved: usize,
    total: u128,
    free: bool,
    counters: (u8, bool),
}

/// Keys kept up to date move by move: each pile's linear sum and its part of
/// the key are cached with its length and top card, and after a move only the
/// piles whose length or top card changed are hashed again. One move changes a
/// pile's cards only at its top, except a redeal (all piles are hashed again
/// after one) and a refill that replaces a pile's lone card by another copy of
/// the same card (which leaves the pile's cards, and so its part, as they were).
///
/// For a plain step the child's key can also be worked out *before* the move
/// is played ([`Keyer::child_key`]): the sums are linear, so taking cards off
/// one pile and putting them on another changes two sums by the keys of the
/// moved cards, and only those two piles go through the finaliser again. The
/// search uses it to look a child up in the table (and to prefetch its slot)
/// without applying the move, and [`Keyer::push_step`] follows a step the
/// same way without hashing whole piles.
pub struct Keyer {
    canon: Canon,
    keys: &'static Keys,
    lens: Vec<u16>,
    tops: Vec<Option<Card>>,
    sums: Vec<u128>,
    parts: Vec<u128>,
    /// Each pile's salt under the current `free` (see [`Keyer::salt`]).
    salts: Vec<u64>,
    total: u128,
    free: bool,
    counters: (u8, bool),
    /// Whether the game refills an emptied tableau pile at once (then a step
    /// that empties one is not a plain step).
    refills: bool,
    /// Whether a step may carry a run (then it takes a check to know how many cards).
    runs: bool,
    /// Tableau piles (they come first in the pile order).
    tableau: usize,
    saved: Vec<Saved>,
    marks: Vec<Mark>,
}

impl Keyer {
    pub fn new(pos: &Position) -> Keyer {
        Keyer::with_classes(pos, true)
    }

    /// As [`Keyer::new`], but with `suit_blind` false every card hashes as
    /// itself even where suits never matter (to test [`suit_blind`]).
    pub fn with_classes(pos: &Position, suit_blind: bool) -> Keyer {
        let n = pos.piles().len();
        let spec = pos.spec();
        let mut k = Keyer {
            canon: Canon::new(pos),
            keys: if suit_blind { keys_for(spec) } else { keys() },
            lens: vec![0; n],
            tops: vec![None; n],
            sums: vec![0; n],
            parts: vec![0; n],
            salts: vec![0; n],
            total: 0,
            free: tableau_order_free(pos),
            counters: (pos.redeals_used(), pos.draw_used()),
            refills: match spec.emptied_fan() {
                EmptiedFan::RefilledAtOnce => true,
                EmptiedFan::StaysEmpty | EmptiedFan::TakesAKing => false,
            },
            runs: !spec.moves_one_card(),
            tableau: pos.layout().tableau as usize,
            saved: Vec::with_capacity(1024),
            marks: Vec::with_capacity(256),
        };
        k.rebuild(pos);
        k
    }

    /// Moves the keyer to any position of the same game, keeping its
    /// buffers (the beam keys each parent of a layer in turn).
    pub fn reset(&mut self, pos: &Position) -> Key {
        self.saved.clear();
        self.marks.clear();
        self.rebuild(pos);
        self.total
    }

    /// The key of the position the keyer is at.
    pub fn key(&self) -> Key {
        self.total
    }

    fn counters_part(c: (u8, bool)) -> u128 {
        finish((c.0 as u128) << 1 | c.1 as u128, SALT_COUNTERS)
    }

    /// The salt of pile `i` when the tableau order is free or not.
    fn salt(&self, pos: &Position, i: usize, free: bool) -> u64 {
        match pos.layout().kind(PileId(i as u8)) {
            Some(PileKind::Tableau(t)) => Self::tableau_salt(t as usize, free),
            Some(PileKind::Foundation(f)) => self.canon.foundation_salt[f as usize],
            Some(PileKind::Cell(_)) => SALT_CELL,
            _ => SALT_OTHER + i as u64,
        }
    }

    /// A pile's part of the key from its sum: an empty pile adds nothing.
    #[inline]
    fn part(&self, i: usize, len: usize, sum: u128) -> u128 {
        if len == 0 {
            0
        } else {
            finish(sum, self.salts[i])
        }
    }

    #[inline]
    fn save(&mut self, i: usize) {
        self.saved.push(Saved {
            pile: i as u8,
            len: self.lens[i],
            top: self.tops[i],
            sum: self.sums[i],
            part: self.parts[i],
        });
    }

    /// Hashes every pile again.
    fn rebuild(&mut self, pos: &Position) {
        self.free = tableau_order_free(pos);
        self.counters = (pos.redeals_used(), pos.draw_used());
        let mut total = Self::counters_part(self.counters);
        for (i, cards) in pos.piles().iter().enumerate() {
            self.salts[i] = self.salt(pos, i, self.free);
            self.lens[i] = cards.len() as u16;
            self.tops[i] = cards.last().copied();
            self.sums[i] = pile_sum(cards, self.keys);
            self.parts[i] = self.part(i, cards.len(), self.sums[i]);
            total = total.wrapping_add(self.parts[i]);
        }
        self.total = total;
    }

    fn mark(&mut self) {
        self.marks.push(Mark {
            saved: self.saved.len(),
            total: self.total,
            free: self.free,
            counters: self.counters,
        });
    }

    /// Moves the keyer to `pos`, one move (or a redeal) after where it was,
    /// and returns the new key. [`Keyer::pop`] goes back.
    pub fn push(&mut self, pos: &Position, redeal: bool) -> Key {
        self.mark();
        let free = tableau_order_free(pos);
        if free != self.free {
            self.set_free(free, !redeal);
        }
        let counters = (pos.redeals_used(), pos.draw_used());
        if counters != self.counters {
            self.total = self
                .total
                .wrapping_sub(Self::counters_part(self.counters))
                .wrapping_add(Self::counters_part(counters));
            self.counters = counters;
        }
        if redeal {
            // A redeal deals the piles the engine names anew, whatever
            // their lengths and tops; it leaves every other pile as it was.
            for id in pos.redealt_piles() {
                let i = id.index();
                let cards = pos.pile(id);
                self.save(i);
                let sum = pile_sum(cards, self.keys);
                self.set_part(i, cards.len(), sum);
                self.tops[i] = cards.last().copied();
            }
            return self.total;
        }
        for (i, cards) in pos.piles().iter().enumerate() {
            let (len, top) = (cards.len() as u16, cards.last().copied());
            if len == self.lens[i] && top == self.tops[i] {
                continue;
            }
            self.save(i);
            let sum = pile_sum(cards, self.keys);
            self.set_part(i, cards.len(), sum);
            self.tops[i] = top;
        }
        self.total
    }

    /// Sets pile `i`'s length and sum, and its part of the key.
    #[inline]
    fn set_part(&mut self, i: usize, len: usize, sum: u128) {
        let part = self.part(i, len, sum);
        self.total = self.total.wrapping_sub(self.parts[i]).wrapping_add(part);
        self.sums[i] = sum;
        self.parts[i] = part;
        self.lens[i] = len as u16;
    }

    /// Salts the tableau piles for `free` (tableau piles come first), and
    /// with `refinish` sets their parts again from their sums, saving the
    /// old parts for [`Keyer::pop`] (a redeal hashes them anew instead).
    fn set_free(&mut self, free: bool, refinish: bool) {
        self.free = free;
        for t in 0..self.tableau {
            self.salts[t] = Self::tableau_salt(t, free);
            if refinish {
                self.save(t);
                let (len, sum) = (self.lens[t] as usize, self.sums[t]);
                self.set_part(t, len, sum);
            }
        }
    }

    /// A tableau pile's salt: by place, or one salt for all where their
    /// order is free.
    fn tableau_salt(t: usize, free: bool) -> u64 {
        if free {
            SALT_TABLEAU_FREE
        } else {
            SALT_TABLEAU_AT + t as u64
        }
    }

    /// The part of the key outside the tableau: every other pile and the
    /// counters. Where a redeal gathers the fans and shuffles them (sorting
    /// first, see the engine's `redeal`), the position after it depends only
    /// on which cards are left on the table, that is on everything outside
    /// it: positions with the same part here redeal to the same position.
    pub fn outside_tableau(&self) -> u128 {
        self.parts[..self.tableau]
            .iter()
            .fold(self.total, |t, &p| t.wrapping_sub(p))
    }

    /// The key of the position `mv` leads to from `pos` (where the keyer is),
    /// without playing it, when `mv` is a plain step: cards from the top of
    /// one pile to another, with no refill after it. A step changes neither
    /// the counters nor whether the tableau order is free (that depends on
    /// the stock and the redeals), so only the two piles' parts change.
    /// `None` for any other move; the caller then plays it and uses [`Keyer::push`].
    #[inline]
    pub fn child_key(&self, pos: &Position, mv: Move) -> Option<Key> {
        let Move::Step { from, to } = mv else {
            return None;
        };
        let (f, t) = (from.index(), to.index());
        let src = pos.pile(from);
        let n = if self.runs { pos.check(mv).ok()? } else { 1 };
        let left = src.len().checked_sub(n)?;
        if left == 0 && self.refills && from.0 < pos.layout().tableau {
            return None;
        }
        let moved = &src[left..];
        let under = pos.pile(to).len();
        let (sf, st) = self.moved_sums(f, t, left, under, moved);
        Some(
            self.total
                .wrapping_sub(self.parts[f])
                .wrapping_sub(self.parts[t])
                .wrapping_add(self.part(f, left, sf))
                .wrapping_add(self.part(t, under + n, st)),
        )
    }

    /// The sums of piles `f` and `t` after `moved` leaves `f` (keeping
    /// `left` cards) for `t` (onto `under` cards).
    #[inline]
    fn moved_sums(
        &self,
        f: usize,
        t: usize,
        left: usize,
        under: usize,
        moved: &[Card],
    ) -> (u128, u128) {
        let k = &self.keys.card;
        let (mut sf, mut st) = (self.sums[f], self.sums[t]);
        for (j, c) in moved.iter().enumerate() {
            sf = sf.wrapping_sub(k[((left + j) % HEIGHTS) * 56 + c.index()]);
            st = st.wrapping_add(k[((under + j) % HEIGHTS) * 56 + c.index()]);
        }
        (sf, st)
    }

    /// Moves the keyer to `pos`, reached from where it was by a step
    /// `from`→`to` for which [`Keyer::child_key`] gave a key, and returns
    /// that key. [`Keyer::pop`] goes back.
    pub fn push_step(&mut self, pos: &Position, from: PileId, to: PileId) -> Key {
        self.mark();
        let (f, t) = (from.index(), to.index());
        let under = self.lens[t] as usize;
        let dst = pos.pile(to);
        let moved = &dst[under..];
        let left = pos.pile(from).len();
        let (sf, st) = self.moved_sums(f, t, left, under, moved);
        for (i, sum, len) in [(f, sf, left), (t, st, dst.len())] {
            self.save(i);
            self.set_part(i, len, sum);
            self.tops[i] = pos.pile(PileId(i as u8)).last().copied();
        }
        self.total
    }

    /// Goes back to where the keyer was before the last [`Keyer::push`]
    /// or [`Keyer::push_step`].
    pub fn pop(&mut self) {
        let Some(m) = self.marks.pop() else { return };
        while self.saved.len() > m.saved {
            if let Some(s) = self.saved.pop() {
                let i = s.pile as usize;
                self.lens[i] = s.len;
                self.tops[i] = s.top;
                self.sums[i] = s.sum;
                self.parts[i] = s.part;
            }
        }
        if m.free != self.free {
            // Only the tableau's salts depend on `free` (tableau piles come first).
            self.free = m.free;
            for t in 0..self.tableau {
                self.salts[t] = Self::tableau_salt(t, m.free);
            }
        }
        self.total = m.total;
        self.counters = m.counters;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::{game, Move};

    fn lucie(text: &str) -> Position {
        Position::from_text(text, Some("la-belle-lucie")).unwrap()
    }

    #[test]
    fn fan_order_is_ignored_only_where_it_cannot_matter() {
        let a = lucie("JS QS KS\nKH QH JH\n").with_redeals_left(0).unwrap();
        let b = lucie("KH QH JH\nJS QS KS\n").with_redeals_left(0).unwrap();
        assert_ne!(a, b);
        let canon = Canon::new(&a);
        assert_eq!(canon.key(&a), canon.key(&b));
        // Shuffled redeals sort the cards first: order is free with redeals left too.
        let a2 = lucie("JS QS KS\nKH QH JH\n");
        let b2 = lucie("KH QH JH\nJS QS KS\n");
        assert_eq!(canon.key(&a2), canon.key(&b2));
        // Different cards in a fan give a different key.
        let c = lucie("JS KS QS\nKH QH JH\n").with_redeals_left(0).unwrap();
        assert_ne!(canon.key(&a), canon.key(&c));
        // Redeals left are part of the key.
        assert_ne!(canon.key(&a), canon.key(&a2));
    }

    #[test]
    fn in_order_redeals_keep_the_fan_order() {
        let spec = game("trilistnik").unwrap();
        let p = Position::deal(spec, 7).unwrap();
        let mut q = p.clone();
        // Swap the first two fans: another position for an in-order redeal.
        let mut piles: Vec<Vec<_>> = q.piles().to_vec();
        piles.swap(0, 1);
        q = Position::from_parts(spec, 7, piles.clone(), 0, false).unwrap();
        let canon = Canon::new(&p);
        assert_ne!(canon.key(&p), canon.key(&q));
        // With no redeal left the order no longer matters.
        let p0 = p.with_redeals_left(0).unwrap();
        let q0 = q.with_redeals_left(0).unwrap();
        assert_eq!(canon.key(&p0), canon.key(&q0));
    }

    #[test]
    fn keys_follow_moves_and_undo() {
        let spec = game("house-in-the-woods").unwrap();
        let mut p = Position::deal(spec, 3).unwrap();
        let canon = Canon::new(&p);
        let k0 = canon.key(&p);
        let moves = p.legal_moves();
        let mut seen = vec![k0];
        for m in moves.iter().filter(|m| !matches!(m, Move::Redeal)) {
            let u = p.apply(*m).unwrap();
            let k = canon.key(&p);
            assert!(!seen.contains(&k), "distinct children, distinct keys");
            seen.push(k);
            p.undo(&u);
            assert_eq!(canon.key(&p), k0);
        }
    }

    #[test]
    fn the_keyer_agrees_with_the_full_key_along_random_games() {
        for g in patience_engine::games() {
            for deal in 1..=3u64 {
                let mut p = Position::deal(g, deal).unwrap();
                let canon = Canon::new(&p);
                let mut keyer = Keyer::new(&p);
                let mut rng = SplitMix64::new(deal);
                let mut undos = Vec::new();
                for _ in 0..300 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    undos.push(p.apply(m).unwrap());
                    let k = keyer.push(&p, m == Move::Redeal);
                    assert_eq!(k, canon.key(&p), "{} {m:?}", g.id);
                    if rng.below(4) == 0 {
                        let u = undos.pop().unwrap();
                        p.undo(&u);
                        keyer.pop();
                        assert_eq!(keyer.key(), canon.key(&p), "{} undo", g.id);
                    }
                }
            }
        }
    }
    /// The keys worked out before a move is played, and the keyer's state
    /// after following a step, agree with the key computed from scratch, for
    /// every legal move along random games of every game (with undos).
    #[test]
    fn child_keys_agree_with_the_full_key_along_random_games() {
        let mut predicted = 0;
        for g in patience_engine::games() {
            for deal in 1..=3u64 {
                let mut p = Position::deal(g, deal).unwrap();
                let canon = Canon::new(&p);
                let mut keyer = Keyer::new(&p);
                let mut rng = SplitMix64::new(deal + 100);
                let mut undos = Vec::new();
                for _ in 0..300 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let Some(k) = keyer.child_key(&p, m) else {
                            continue;
                        };
                        predicted += 1;
                        let u = p.apply(m).unwrap();
                        assert_eq!(k, canon.key(&p), "{} {m:?} predicted", g.id);
                        p.undo(&u);
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    let child = keyer.child_key(&p, m);
                    undos.push(p.apply(m).unwrap());
                    let k = match (m, child) {
                        (Move::Step { from, to }, Some(c)) => {
                            let k = keyer.push_step(&p, from, to);
                            assert_eq!(k, c, "{} {m:?} push_step", g.id);
                            k
                        }
                        _ => keyer.push(&p, m == Move::Redeal),
                    };
                    assert_eq!(k, canon.key(&p), "{} {m:?}", g.id);
                    if rng.below(4) == 0 {
                        let u = undos.pop().unwrap();
                        p.undo(&u);
                        keyer.pop();
                        assert_eq!(keyer.key(), canon.key(&p), "{} undo", g.id);
                    }
                    // The keyer's cache matches a fresh one, so later pushes stay right.
                    let fresh = Keyer::new(&p);
                    assert_eq!(
                        (&keyer.sums, &keyer.parts),
                        (&fresh.sums, &fresh.parts),
                        "{}",
                        g.id
                    );
                    assert_eq!(keyer.salts, fresh.salts, "{}", g.id);
                }
            }
        }
        assert!(
            predicted > 10_000,
            "most moves are plain steps: {predicted}"
        );
    }
    /// Positions that differ only in how the cards left on the table lie in
    /// the fans redeal (shuffled) to the same position, and share the part of
    /// the key the search files redeals under.
    #[test]
    fn shuffled_redeals_depend_only_on_the_cards_outside_the_table() {
        let spec = game("la-belle-lucie").unwrap();
        let mut checked = 0;
        for deal in 1..=20u64 {
            let mut p = Position::deal(spec, deal).unwrap();
            let mut rng = SplitMix64::new(deal);
            for _ in 0..40 {
                let moves: Vec<Move> = p
                    .legal_moves()
                    .into_iter()
                    .filter(|m| *m != Move::Redeal)
                    .collect();
                if moves.is_empty() {
                    break;
                }
                p.apply(moves[rng.below(moves.len() as u64) as usize])
                    .unwrap();
            }
            if !p.legal_moves().contains(&Move::Redeal) {
                continue;
            }
            // The same cards on the table, dealt into the fans the other way round.
            let tableau = p.layout().tableau as usize;
            let mut table: Vec<_> = p.piles()[..tableau].iter().flatten().copied().collect();
            table.reverse();
            let mut piles: Vec<Vec<_>> = table.chunks(3).map(|c| c.to_vec()).collect();
            piles.resize(tableau, Vec::new());
            piles.extend(p.piles()[tableau..].iter().cloned());
            let q =
                Position::from_parts(spec, deal, piles, p.redeals_used(), p.draw_used()).unwrap();
            let (kp, kq) = (Keyer::new(&p), Keyer::new(&q));
            assert_eq!(kp.outside_tableau(), kq.outside_tableau());
            let (mut p2, mut q2) = (p.clone(), q.clone());
            p2.apply(Move::Redeal).unwrap();
            q2.apply(Move::Redeal).unwrap();
            let canon = Canon::new(&p);
            assert_eq!(canon.key(&p2), canon.key(&q2), "deal {deal}");
            // A different position outside the table files elsewhere.
            let mut r = p.clone();
            if let Some(&m) = r.legal_moves().iter().find(|m| {
                matches!(m, Move::Step { to, .. } if matches!(p.layout().kind(*to), Some(PileKind::Foundation(_))))
            }) {
                r.apply(m).unwrap();
                assert_ne!(Keyer::new(&r).outside_tableau(), kp.outside_tableau());
            }
            checked += 1;
        }
        assert!(checked > 5, "{checked}");
    }
}
