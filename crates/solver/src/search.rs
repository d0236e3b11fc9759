//! The depth-first search itself.
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

use std::time::{Duration, Instant};

use std::collections::HashMap;

use patience_engine::{Gather, Move, Position, Undo};

use crate::dominance;
use crate::last_pass;
use crate::order;
use crate::state::{Key, Keyer};
use crate::table::{Insert, Table};
use crate::{Budget, Limit};

/// What the search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find a win or prove there is none.
    Solve,
    /// Most foundation cards reachable without a redeal.
    Best,
}

/// How the search runs.
#[derive(Clone, Debug)]
pub struct Settings {
    pub budget: Budget,
    pub mode: Mode,
    /// Use the dominances of [`crate::dominance`] and the suit-blind key of
    /// [`crate::suit_blind`] (off only to test them).
    pub dominances: bool,
    /// Try only this many of each position's best-ordered moves: a quick,
    /// incomplete probe for a win (its exhaustion proves nothing).
    pub width: Option<usize>,
    /// Search each last pass (the positions after a redeal that leaves none)
    /// apart, with at most this many positions; one left unfinished makes
    /// the search's exhaustion prove nothing (see [`crate::last_pass`]).
    /// `None`: every last pass is part of the one search.
    pub last_pass_nodes: Option<u64>,
    /// With `last_pass_nodes`: search only the last passes whose number (in
    /// the order the search reaches them, from 0) is `offset` modulo `every`,
    /// and leave the others unfinished: neighbouring last passes tend to be
    /// alike, so a sample spread over the earlier deals wins sooner.
    pub last_pass_sample: (u64, u64),
}

impl Settings {
    /// A complete search for a win within `budget`: every move, every last
    /// pass part of the one search.
    pub fn full(budget: Budget, dominances: bool) -> Settings {
        Settings {
            budget,
            mode: Mode::Solve,
            dominances,
            width: None,
            last_pass_nodes: None,
            last_pass_sample: (1, 0),
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// A won position was reached by these moves.
    Won(Vec<Move>),
    /// The stack emptied: everything reachable was searched.
    Exhausted,
    /// A budget ran out.
    Spent(Limit),
}

/// Everything a search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub end: End,
    pub nodes: u64,
    pub elapsed: Duration,
    pub peak_entries: usize,
    /// The most cards on the foundations in any position reached.
    pub best_cards: usize,
    /// The line that reached them.
    pub best_line: Vec<Move>,
}

struct Frame {
    /// This position's moves are `moves[start..end]`, the next to try at `next`.
    start: usize,
    end: usize,
    next: usize,
    /// The dead-position test applies here and found the position alive, so
    /// a child needs only the cheaper [`dominance::is_dead_after`].
    alive: bool,
}

/// The key a child was listed with (only for debug checks).
fn known_key(k: Option<Key>) -> Key {
    k.unwrap_or_default()
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1024;

pub fn run(start: &Position, settings: &Settings) -> Found {
    let begun = Instant::now();
    let budget = &settings.budget;
    let mut pos = start.clone();
    let mut keyer = Keyer::with_classes(&pos, settings.dominances);
    // Each move to try, with the key of the position it leads to when that
    // is known before playing it (a plain step: see `Keyer::child_key`).
    let mut moves: Vec<(Move, Option<Key>)> = Vec::with_capacity(1024);
    let mut scratch_moves: Vec<Move> = Vec::with_capacity(64);
    let mut candidates: Vec<(Move, Option<Key>)> = Vec::with_capacity(64);
    let mut scratch_scores: Vec<(i32, Move, Option<Key>)> = Vec::with_capacity(64);
    let mut frames: Vec<Frame> = Vec::with_capacity(256);
    let mut undos: Vec<Undo> = Vec::with_capacity(256);
    let mut path: Vec<Move> = Vec::with_capacity(256);
    let mut nodes: u64 = 0;
    let mut best_cards = pos.foundation_cards();
    let mut best_line = Vec::new();
    let total = pos.spec().card_count();
    // Where redeals shuffle, the key each redeal led to, filed under the
    // part of the key outside the tableau (see `Keyer::outside_tableau`):
    // a redeal from a position with the same cards left gives the same
    // position, so it is looked up in the table without being dealt again.
    let shuffled = pos.spec().redeals.gather == Gather::Shuffled;
    let mut redealt: HashMap<u128, Key> = HashMap::new();
    // Whether a last pass searched apart was left unfinished.
    let mut unfinished = false;
    let mut last_passes: u64 = 0;
    let mut table = Table::new(match settings.last_pass_nodes {
        Some(_) => budget.memory_bytes / 2,
        None => budget.memory_bytes,
    });

    let finish = |end: End, nodes: u64, table: &Table, best_cards, best_line| Found {
        end,
        nodes,
        elapsed: begun.elapsed(),
        peak_entries: table.peak(),
        best_cards,
        best_line,
    };

    if pos.is_won() {
        let end = match settings.mode {
            Mode::Solve => End::Won(Vec::new()),
            Mode::Best => End::Exhausted,
        };
        return finish(end, 0, &table, best_cards, best_line);
    }
    if table.insert(keyer.key()) == Insert::Full {
        return finish(End::Spent(Limit::Memory), 0, &table, best_cards, best_line);
    }
    // Lists a position's moves to try (the forced one alone, or all in order)
    // with their children's keys where they can be known before playing, and
    // prefetches those keys' table slots before ordering the moves, so that
    // the memory fetches overlap the ordering, and the slots are in the
    // cache when the search tries the moves. A forced move's key alone is
    // worked out.
    let expand = |pos: &Position,
                  keyer: &Keyer,
                  table: &Table,
                  redealt: &HashMap<u128, Key>,
                  moves: &mut Vec<(Move, Option<Key>)>,
                  scratch_moves: &mut Vec<Move>,
                  candidates: &mut Vec<(Move, Option<Key>)>,
                  scratch_scores: &mut Vec<(i32, Move, Option<Key>)>|
     -> Frame {
        let start = moves.len();
        pos.legal_moves_into(scratch_moves);
        if settings.mode == Mode::Best {
            scratch_moves.retain(|m| *m != Move::Redeal);
        }
        if settings.dominances {
            dominance::drop_lone_card_moves(pos, scratch_moves);
        }
        let forced = if settings.dominances {
            dominance::safe_foundation_move(pos, scratch_moves)
        } else {
            None
        };
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
            Some(m) => moves.push((m, key_of(m))),
            None => {
                candidates.clear();
                candidates.extend(scratch_moves.iter().map(|&m| (m, key_of(m))));
                order::sort_with(pos, candidates, scratch_scores);
                let keep = settings.width.unwrap_or(usize::MAX).min(candidates.len());
                moves.extend_from_slice(&candidates[..keep]);
            }
        }
        Frame {
            start,
            end: moves.len(),
            next: start,
            alive: false,
        }
    };
    let root = expand(
        &pos,
        &keyer,
        &table,
        &redealt,
        &mut moves,
        &mut scratch_moves,
        &mut candidates,
        &mut scratch_scores,
    );
    let cuts_dead = settings.mode == Mode::Solve && settings.dominances;
    frames.push(Frame {
        alive: cuts_dead && dominance::dead_test_applies(&pos) && !dominance::is_dead(&pos),
        ..root
    });

    while let Some(frame) = frames.last_mut() {
        if frame.next == frame.end {
            moves.truncate(frame.start);
            frames.pop();
            if let Some(u) = undos.pop() {
                pos.undo(&u);
                keyer.pop();
                path.pop();
            }
            continue;
        }
        let (mv, child_key) = moves[frame.next];
        frame.next += 1;
        let parent_alive = frame.alive;
        nodes += 1;
        if budget.nodes.is_some_and(|n| nodes >= n) {
            return finish(
                End::Spent(Limit::Nodes),
                nodes,
                &table,
                best_cards,
                best_line,
            );
        }
        if nodes.is_multiple_of(CLOCK_EVERY) && budget.time.is_some_and(|t| begun.elapsed() >= t) {
            return finish(
                End::Spent(Limit::Time),
                nodes,
                &table,
                best_cards,
                best_line,
            );
        }
        // A child whose key is known is looked up before its move is played,
        // so a position already searched costs no make and unmake.
        let known = child_key.map(|key| table.insert(key));
        if known == Some(Insert::Seen) {
            continue;
        }
        let outside =
            (mv == Move::Redeal && shuffled && known.is_none()).then(|| keyer.outside_tableau());
        // The engine listed `mv` for this very position: no need to check it again.
        let undo = pos.play_generated(mv);
        let inserted = match (mv, known) {
            (Move::Step { from, to }, Some(known)) => {
                let _key = keyer.push_step(&pos, from, to);
                debug_assert_eq!(_key, known_key(child_key));
                known
            }
            (_, Some(known)) => {
                let _key = keyer.push(&pos, mv == Move::Redeal);
                debug_assert_eq!(_key, known_key(child_key));
                known
            }
            (_, None) => {
                let key = keyer.push(&pos, mv == Move::Redeal);
                if let Some(outside) = outside {
                    redealt.insert(outside, key);
                }
                table.insert(key)
            }
        };
        match inserted {
            Insert::Seen => {
                pos.undo(&undo);
                keyer.pop();
                continue;
            }
            Insert::Full => {
                return finish(
                    End::Spent(Limit::Memory),
                    nodes,
                    &table,
                    best_cards,
                    best_line,
                );
            }
            Insert::New => {}
        }
        let cards = pos.foundation_cards();
        if cards > best_cards {
            best_cards = cards;
            best_line.clear();
            best_line.extend_from_slice(&path);
            best_line.push(mv);
        }
        if cards == total {
            path.push(mv);
            let end = match settings.mode {
                Mode::Solve => End::Won(path),
                Mode::Best => End::Exhausted,
            };
            return finish(end, nodes, &table, best_cards, best_line);
        }
        if let (Move::Redeal, Some(cap), 0) = (mv, settings.last_pass_nodes, pos.redeals_left()) {
            let (every, offset) = settings.last_pass_sample;
            last_passes += 1;
            if (last_passes - 1) % every.max(1) != offset {
                unfinished = true;
                pos.undo(&undo);
                keyer.pop();
                continue;
            }
            let pass = last_pass::search(&pos, settings, cap, nodes, begun.elapsed());
            let (last_pass::Pass::Won(found)
            | last_pass::Pass::Lost(found)
            | last_pass::Pass::Unfinished(found)) = &pass;
            nodes += found.nodes;
            if found.best_cards > best_cards {
                best_cards = found.best_cards;
                best_line.clear();
                best_line.extend_from_slice(&path);
                best_line.push(mv);
                best_line.extend_from_slice(&found.best_line);
            }
            match pass {
                last_pass::Pass::Won(Found {
                    end: End::Won(line),
                    ..
                }) => {
                    path.push(mv);
                    path.extend(line);
                    return finish(End::Won(path), nodes, &table, best_cards, best_line);
                }
                last_pass::Pass::Unfinished(_) => unfinished = true,
                _ => {}
            }
            pos.undo(&undo);
            keyer.pop();
            continue;
        }
        let mut alive = false;
        if cuts_dead {
            if dominance::is_dead_after(&pos, mv, parent_alive) {
                pos.undo(&undo);
                keyer.pop();
                continue;
            }
            alive = parent_alive || dominance::dead_test_applies(&pos);
        }
        let child = expand(
            &pos,
            &keyer,
            &table,
            &redealt,
            &mut moves,
            &mut scratch_moves,
            &mut candidates,
            &mut scratch_scores,
        );
        if child.start == child.end {
            pos.undo(&undo);
            keyer.pop();
            continue;
        }
        frames.push(Frame { alive, ..child });
        undos.push(undo);
        path.push(mv);
    }
    let end = if unfinished {
        End::Spent(Limit::Nodes)
    } else {
        End::Exhausted
    };
    finish(end, nodes, &table, best_cards, best_line)
}
