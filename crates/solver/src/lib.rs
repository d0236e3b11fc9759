//! Exact search over the patience engine. (Stub API: the solver issue fills it in.)
//!
//! The public contract other crates build on:
//! - [`solve`] gives a [`Report`] whose [`Outcome`] is a win with moves
//!   (replayed through the engine before it is returned), no win possible
//!   (the reachable space was exhausted), or unknown (a budget was spent).
//! - [`hint`] gives the first move of a solution, or a heuristic move marked as such,
//!   or says no win is possible.

pub mod levels;

use std::time::Duration;

use patience_engine::{Move, Position};

/// Limits on one search. Past any of them the answer is [`Outcome::Unknown`].
#[derive(Clone, Debug)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Cap on the transposition table's memory, in bytes (default 1 GiB).
    pub memory_bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            nodes: None,
            time: None,
            memory_bytes: 1 << 30,
        }
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes,
    Time,
    Memory,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Vec<Move>),
    NoWin,
    Unknown(Limit),
}

#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub nodes: u64,
    pub elapsed: Duration,
    pub peak_entries: usize,
}

/// Solves from `pos`.
pub fn solve(pos: &Position, budget: &Budget) -> Report {
    let _ = (pos, budget);
    Report {
        outcome: Outcome::Unknown(Limit::Nodes),
        nodes: 0,
        elapsed: Duration::ZERO,
        peak_entries: 0,
    }
}

/// What the hint button shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The first move of a solution the search found.
    Solution(Move),
    /// The search ran out of budget: the most useful move by the documented heuristic.
    Heuristic(Move),
    /// The search proved that no win exists from here.
    NoWin,
    /// Nothing to hint: the game is won, or no move is left.
    None,
}

pub fn hint(pos: &Position, budget: &Budget) -> Hint {
    let _ = budget;
    match pos.legal_moves().first() {
        Some(&m) => Hint::Heuristic(m),
        None => Hint::None,
    }
}
