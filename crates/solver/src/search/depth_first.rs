//! The depth-first search.
//!
//! An explicit stack (no recursion, so a thousand-move game cannot overflow
//! the thread's stack) walks the positions the engine's moves reach. Each
//! position's canonical key goes into the transposition table when first
//! reached; a position already there is skipped, because it was either
//! searched to the end without a win, or it lies on the current path (a cycle,
//! which no shortest win takes). The search stops at the first win, or when
//! the stack empties (no win: every reachable position was searched), or when
//! a budget runs out (unknown).
//!
//! In [`Mode::Best`] redeals are left out and the search does not stop at
//! the first position it likes: it visits the whole current deal and keeps the
//! line that put the most cards on the foundations.
//!
//! With [`Settings::last_pass_nodes`] each last deal (the positions after a
//! redeal that leaves none) is searched as a search of its own, with its own
//! table and a cap on its positions ([`super::last_deal`] says why and why it
//! is sound).

use std::collections::HashMap;
use std::time::Instant;

use patience_engine::{Move, Position, Undo};

use super::{order, profile, End, Found, Mode, Settings};
use crate::key::table::{Insert, Table};
use crate::key::{Key, Keyer};
use crate::{prune, Budget, Limit};

/// Searches from `start` with `settings`.
pub fn run(start: &Position, settings: &Settings) -> Found {
    DepthFirst::new(start, settings).run()
}

/// One position on the stack.
struct Frame {
    /// This position's moves are `moves[start..end]`, the next to try at `next`.
    start: usize,
    end: usize,
    next: usize,
    /// The dead-position test applies here and found the position alive, so
    /// a child needs only the cheaper [`prune::is_dead_after`].
    alive: bool,
}

/// The buffers a position's moves are listed and ordered in, kept between
/// positions so that the search allocates nothing per node.
struct Scratch {
    moves: Vec<Move>,
    candidates: Vec<(Move, Option<Key>)>,
    scores: Vec<(i32, Move, Option<Key>)>,
}

/// What trying one move led to.
enum Step {
    /// Nothing new below it: try the position's next move.
    Next,
    /// Its child was pushed: try the child's moves.
    Enter,
    /// The search ends here.
    Stop(End),
}

/// The key a child was listed with (only for debug checks).
fn known_key(k: Option<Key>) -> Key {
    k.unwrap_or_default()
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1024;

/// A depth-first search under way: the position it stands on, its stack and
/// the buffers it reuses.
struct DepthFirst<'s> {
    settings: &'s Settings,
    begun: Instant,
    pos: Position,
    keyer: Keyer,
    table: Table,
    /// Each move to try, with the key of the position it leads to when that
    /// is known before playing it (a plain step: see `Keyer::child_key`).
    moves: Vec<(Move, Option<Key>)>,
    scratch: Scratch,
    frames: Vec<Frame>,
    undos: Vec<Undo>,
    path: Vec<Move>,
    nodes: u64,
    best_cards: usize,
    best_line: Vec<Move>,
    total: usize,
    /// Where redeals shuffle, the key each redeal led to, filed under the
    /// part of the key outside the tableau (see `Keyer::outside_tableau`):
    /// a redeal from a position with the same cards left gives the same
    /// position, so it is looked up in the table without being dealt again.
    shuffled: bool,
    redealt: HashMap<u128, Key>,
    /// Whether the search left something unsearched: a last deal searched
    /// apart left unfinished, or moves the width left out. Its end is then
    /// no proof of loss.
    unfinished: bool,
    last_passes: u64,
    /// Whether dead positions are cut.
    cuts_dead: bool,
    /// [`Settings::stock_order`] and [`Settings::piles_order`], asked only where
    /// dead positions are cut:
    /// the records of where the stock's order test and the piles' order
    /// test were asked and what they found.
    stock_order: Option<prune::asking::Asking>,
    piles_order: Option<prune::asking::Asking>,
    /// The piles' order test's relaxed positions known, where it is asked.
    piles_memo: Option<prune::pile_order::Memo>,
}

impl<'s> DepthFirst<'s> {
    fn new(start: &Position, settings: &'s Settings) -> DepthFirst<'s> {
        let budget = &settings.budget;
        let pos = start.clone();
        let piles_memo = settings
            .piles_order
            .then(|| prune::pile_order::Memo::for_search(budget.memory_bytes));
        DepthFirst {
            settings,
            begun: Instant::now(),
            keyer: Keyer::with_classes(&pos, settings.dominances),
            table: Table::new(
                match settings.last_pass_nodes {
                    Some(_) => budget.memory_bytes / 2,
                    None => budget.memory_bytes,
                }
                .saturating_sub(
                    piles_memo
                        .as_ref()
                        .map_or(0, prune::pile_order::Memo::bytes),
                ),
            ),
            moves: Vec::with_capacity(1024),
            scratch: Scratch {
                moves: Vec::with_capacity(64),
                candidates: Vec::with_capacity(64),
                scores: Vec::with_capacity(64),
            },
            frames: Vec::with_capacity(256),
            undos: Vec::with_capacity(256),
            path: Vec::with_capacity(256),
            nodes: 0,
            best_cards: pos.foundation_cards(),
            best_line: Vec::new(),
            total: pos.spec().card_count(),
            shuffled: pos.spec().redeal_depends_only_on_cards_left(),
            redealt: HashMap::new(),
            unfinished: false,
            last_passes: 0,
            cuts_dead: settings.mode == Mode::Solve && settings.dominances,
            stock_order: settings
                .stock_order
                .then(|| prune::asking::Asking::rare_below(prune::stock_order::RARE)),
            piles_order: settings.piles_order.then(Default::default),
            piles_memo,
            pos,
        }
    }

    fn run(mut self) -> Found {
        if self.pos.is_won() {
            let end = self.won(Vec::new());
            return self.finish(end);
        }
        if self.table.insert(self.keyer.key()) == Insert::Full {
            return self.finish(End::Spent(Limit::Memory));
        }
        let root = self.expand();
        let alive =
            self.cuts_dead && prune::dead_test_applies(&self.pos) && !prune::is_dead(&self.pos);
        self.frames.push(Frame { alive, ..root });

        while let Some(frame) = self.frames.last_mut() {
            if frame.next == frame.end {
                self.back();
                continue;
            }
            let (mv, child_key) = self.moves[frame.next];
            frame.next += 1;
            let parent_alive = frame.alive;
            if let Step::Stop(end) = self.try_move(mv, child_key, parent_alive) {
                return self.finish(end);
            }
        }
        let end = if self.unfinished {
            End::Spent(Limit::Nodes)
        } else {
            End::Exhausted
        };
        self.finish(end)
    }

    /// What the search found, ending with `end`.
    fn finish(self, end: End) -> Found {
        let ended = match end {
            End::Won(_) => "won",
            End::Exhausted => "exhausted",
            End::Spent(_) => "spent",
        };
        profile::report(self.settings.width, self.nodes, ended);
        Found {
            end,
            nodes: self.nodes,
            elapsed: self.begun.elapsed(),
            peak_entries: self.table.peak(),
            best_cards: self.best_cards,
            best_line: self.best_line,
        }
    }

    /// The end of a search that reached a won position by `line`.
    fn won(&self, line: Vec<Move>) -> End {
        match self.settings.mode {
            Mode::Solve => End::Won(line),
            Mode::Best => End::Exhausted,
        }
    }

    /// Leaves the position on top of the stack, its moves all tried.
    fn back(&mut self) {
        let frame = self.frames.pop().expect("a frame to leave");
        self.moves.truncate(frame.start);
        if let Some(u) = self.undos.pop() {
            self.pos.undo(&u);
            self.keyer.pop();
            self.path.pop();
        }
    }

    /// Takes back `undo`, a child just played and not entered.
    fn unplay(&mut self, undo: &Undo) -> Step {
        self.pos.undo(undo);
        self.keyer.pop();
        Step::Next
    }

    /// Counts a node and says whether a budget ran out.
    fn spent(&mut self) -> Option<End> {
        let budget = &self.settings.budget;
        self.nodes += 1;
        if budget.nodes.is_some_and(|n| self.nodes >= n) {
            return Some(End::Spent(Limit::Nodes));
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && budget.time.is_some_and(|t| self.begun.elapsed() >= t)
        {
            return Some(End::Spent(Limit::Time));
        }
        None
    }

    /// Raises the best count to `cards` if higher, reached by the current
    /// path, `mv` and then `then`.
    fn note_cards(&mut self, cards: usize, mv: Move, then: &[Move]) {
        if cards > self.best_cards {
            self.best_cards = cards;
            self.best_line.clear();
            self.best_line.extend_from_slice(&self.path);
            self.best_line.push(mv);
            self.best_line.extend_from_slice(then);
        }
    }

    /// Tries `mv` from the position on top of the stack (listed with its
    /// child's key where known, from a parent found alive or not).
    fn try_move(&mut self, mv: Move, child_key: Option<Key>, parent_alive: bool) -> Step {
        if let Some(end) = self.spent() {
            return Step::Stop(end);
        }
        // A child whose key is known is looked up before its move is played,
        // so a position already searched costs no make and unmake.
        let known = child_key.map(|key| self.table.insert(key));
        if known == Some(Insert::Seen) {
            return Step::Next;
        }
        let outside = (mv == Move::Redeal && self.shuffled && known.is_none())
            .then(|| self.keyer.outside_tableau());
        // The engine listed `mv` for this very position: no need to check it again.
        let undo = self.pos.play_generated(mv);
        let inserted = match (mv, known) {
            (Move::Step { from, to }, Some(known)) => {
                let _key = self.keyer.push_step(&self.pos, from, to);
                debug_assert_eq!(_key, known_key(child_key));
                known
            }
            (_, Some(known)) => {
                let _key = self.keyer.push(&self.pos, mv == Move::Redeal);
                debug_assert_eq!(_key, known_key(child_key));
                known
            }
            (_, None) => {
                let key = self.keyer.push(&self.pos, mv == Move::Redeal);
                if let Some(outside) = outside {
                    self.redealt.insert(outside, key);
                }
                self.table.insert(key)
            }
        };
        match inserted {
            Insert::Seen => return self.unplay(&undo),
            Insert::Full => return Step::Stop(End::Spent(Limit::Memory)),
            Insert::New => {}
        }
        profile::new_position(&self.pos);
        let cards = self.pos.foundation_cards();
        self.note_cards(cards, mv, &[]);
        if cards == self.total {
            self.path.push(mv);
            let line = std::mem::take(&mut self.path);
            return Step::Stop(self.won(line));
        }
        if let (Move::Redeal, Some(cap), 0) =
            (mv, self.settings.last_pass_nodes, self.pos.redeals_left())
        {
            return self.last_deal(mv, &undo, cap);
        }
        let mut alive = false;
        if self.cuts_dead {
            if prune::is_dead_after(&self.pos, &undo, parent_alive)
                || (mv == Move::Deal && self.turned_dead())
            {
                profile::dead(&self.pos);
                return self.unplay(&undo);
            }
            alive = parent_alive || prune::dead_test_applies(&self.pos);
        }
        let child = self.expand();
        if child.start == child.end {
            return self.unplay(&undo);
        }
        self.frames.push(Frame { alive, ..child });
        self.undos.push(undo);
        self.path.push(mv);
        Step::Enter
    }

    /// Whether the position a card turned from the stock just made is dead
    /// by the stock's order or the piles' order, where this search asks
    /// them (the cheaper first).
    fn turned_dead(&mut self) -> bool {
        let pos = &self.pos;
        if !prune::pile_order::applies(pos) {
            return false;
        }
        let asked = |asking: &mut Option<prune::asking::Asking>,
                     test: &mut dyn FnMut(&Position) -> bool| {
            asking.as_mut().is_some_and(|a| a.ask(pos, test))
        };
        let memo = &mut self.piles_memo;
        (prune::stock_order::applies(pos)
            && asked(&mut self.stock_order, &mut prune::stock_order::is_dead))
            || asked(&mut self.piles_order, &mut |p| {
                memo.as_mut()
                    .is_some_and(|m| prune::pile_order::is_dead(p, m))
            })
    }

    /// The last deal that `mv`, a redeal, just began: searched apart with at
    /// most `cap` positions when the sample takes it, left unfinished when
    /// not (see [`super::last_deal`]).
    fn last_deal(&mut self, mv: Move, undo: &Undo, cap: u64) -> Step {
        let (every, offset) = self.settings.last_pass_sample;
        self.last_passes += 1;
        if (self.last_passes - 1) % every.max(1) != offset {
            // A last deal dead where it begins is searched to its end, as
            // the plain search would cut it: left out, it leaves the search
            // finished.
            self.unfinished = self.unfinished
                || !(self.cuts_dead
                    && prune::dead_test_applies(&self.pos)
                    && prune::is_dead(&self.pos));
            return self.unplay(undo);
        }
        let b = &self.settings.budget;
        let inner = Settings {
            budget: Budget {
                nodes: Some(
                    b.nodes
                        .map_or(cap, |n| n.saturating_sub(self.nodes).min(cap)),
                ),
                time: b.time.map(|t| t.saturating_sub(self.begun.elapsed())),
                memory_bytes: b.memory_bytes / 2,
            },
            last_pass_nodes: None,
            width: None,
            ..self.settings.clone()
        };
        let found = run(&self.pos, &inner);
        self.nodes += found.nodes;
        self.note_cards(found.best_cards, mv, &found.best_line);
        match found.end {
            End::Won(line) => {
                self.path.push(mv);
                self.path.extend(line);
                let line = std::mem::take(&mut self.path);
                Step::Stop(End::Won(line))
            }
            End::Spent(_) => {
                self.unfinished = true;
                self.unplay(undo)
            }
            End::Exhausted => self.unplay(undo),
        }
    }

    /// Lists the moves to try from the current position (the forced one
    /// alone, or all in order) with their children's keys where they can be
    /// known before playing, and prefetches those keys' table slots before
    /// ordering the moves, so that the memory fetches overlap the ordering,
    /// and the slots are in the cache when the search tries the moves. A
    /// forced move's key alone is worked out.
    #[inline]
    fn expand(&mut self) -> Frame {
        let settings = self.settings;
        let (pos, keyer, table, redealt) = (&self.pos, &self.keyer, &self.table, &self.redealt);
        let scratch = &mut self.scratch;
        let start = self.moves.len();
        pos.legal_moves_into(&mut scratch.moves);
        if settings.mode == Mode::Best {
            scratch.moves.retain(|m| *m != Move::Redeal);
        }
        if settings.dominances {
            prune::drop_lone_card_moves(pos, &mut scratch.moves);
        }
        let forced = if settings.dominances {
            prune::safe_foundation_move(pos, &scratch.moves)
        } else {
            None
        };
        let shuffled = self.shuffled;
        let key_of = |m: Move| {
            let key = match m {
                Move::Redeal if shuffled => redealt.get(&keyer.outside_tableau()).copied(),
                _ => keyer.child_key(pos, m),
            };
            if let Some(k) = key {
                table.prefetch(k);
            }
            key
        };
        match forced {
            Some(m) => self.moves.push((m, key_of(m))),
            None => {
                scratch.candidates.clear();
                scratch
                    .candidates
                    .extend(scratch.moves.iter().map(|&m| (m, key_of(m))));
                order::sort_with(pos, &mut scratch.candidates, &mut scratch.scores);
                let keep = settings
                    .width
                    .unwrap_or(usize::MAX)
                    .min(scratch.candidates.len());
                // Moves left out leave the search unfinished: its end is no
                // proof of loss.
                self.unfinished |= keep < scratch.candidates.len();
                self.moves.extend_from_slice(&scratch.candidates[..keep]);
            }
        }
        Frame {
            start,
            end: self.moves.len(),
            next: start,
            alive: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that leaves moves out (a width) never answers as if it had
    /// searched everything: on La Belle Lucie deals a full search wins, a
    /// search one move wide wins too or ends unfinished, never exhausted.
    #[test]
    fn a_narrowed_search_proves_no_loss() {
        let spec = patience_engine::game("la-belle-lucie").unwrap();
        let budget = || Budget::of_nodes(200_000);
        let mut unfinished = 0;
        for deal in 1..=40 {
            let p = Position::deal(spec, deal).unwrap();
            if !matches!(run(&p, &Settings::full(budget(), true)).end, End::Won(_)) {
                continue;
            }
            let narrow = Settings {
                width: Some(1),
                ..Settings::full(budget(), true)
            };
            let end = run(&p, &narrow).end;
            assert_ne!(end, End::Exhausted, "deal {deal}");
            unfinished += matches!(end, End::Spent(_)) as usize;
        }
        assert!(unfinished > 5, "{unfinished} ended unfinished");
    }
}
