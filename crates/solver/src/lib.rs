//! Exact search over the patience engine: solve a position, hint a move, prove
//! a loss, and find the most cards a deal can send home.
//!
//! The public contract other crates build on:
//! - [`solve`] gives a [`Report`] whose [`Outcome`] is a win with moves
//!   (replayed through the engine before it is returned), no win possible
//!   (the reachable space was exhausted), or unknown (a budget was spent).
//!   [`solve_escalating`] tries larger node budgets in turn on a deal still
//!   unknown.
//! - [`hint()`] gives the first move of a solution, or a heuristic move marked as such,
//!   or says no win is possible.
//! - [`best`] gives the most cards that can reach the foundations before the
//!   next redeal, with the line of play (lblsolve's figure).
//!
//! Where things are:
//! - [`passes`]: the plan a solve follows, one table of passes run in turn.
//! - [`search`]: the searches the passes run (depth-first, its last deals
//!   searched apart, beam, playouts) and the move ordering they share.
//! - [`prune`]: the dominances, moves that cannot hurt and positions that
//!   cannot be won.
//! - [`key`]: the canonical key of a position, the suit-blind key, and the
//!   bounded transposition table.
//! - [`mod@hint`]: the winning line kept between hints and the heuristic move.
//! - [`levels`]: the person-like player and grading.
//! - [`stats`]: the confidence interval of a win rate and a sample's percentiles.
//!
//! Every move comes from the engine: no rule is written here.

pub mod hint;
pub mod key;
pub mod levels;
pub mod passes;
pub mod prune;
pub mod search;
pub mod stats;

pub use hint::kept_line::Plan;
pub use hint::{hint, hint_with_plan};

use std::time::Duration;

use patience_engine::{Move, Position};

use search::{End, Mode, Settings};

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

impl Budget {
    /// What is left of this budget after a pass spent `nodes` and `elapsed`.
    pub fn after(&self, nodes: u64, elapsed: Duration) -> Budget {
        Budget {
            nodes: self.nodes.map(|n| n.saturating_sub(nodes)),
            time: self.time.map(|t| t.saturating_sub(elapsed)),
            memory_bytes: self.memory_bytes,
        }
    }

    /// A node budget alone (the default memory cap, no clock): what tests
    /// and tools that must answer the same on every machine use.
    pub fn of_nodes(nodes: u64) -> Budget {
        Budget {
            nodes: Some(nodes),
            ..Budget::default()
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

impl Outcome {
    /// The verdict: `Some(true)` for a win, `Some(false)` for no win, `None`
    /// when the search ran out before it knew.
    pub fn won(&self) -> Option<bool> {
        match self {
            Outcome::Win(_) => Some(true),
            Outcome::NoWin => Some(false),
            Outcome::Unknown(_) => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    /// Positions generated (moves applied).
    pub nodes: u64,
    pub elapsed: Duration,
    /// Most positions held in the transposition table at once.
    pub peak_entries: usize,
    /// The most cards on the foundations in any position the search reached,
    /// and the line that reached them (the hint's fallback uses it).
    pub best_cards: usize,
    pub best_line: Vec<Move>,
}

/// Options beyond the budget, for studying the solver itself.
#[derive(Clone, Debug)]
pub struct Options {
    pub budget: Budget,
    /// Apply the dominances (safe foundation moves, dead positions). Turning
    /// them off gives the same answers, slower: the tests check that.
    pub dominances: bool,
}

impl Options {
    /// A node budget alone, with the dominances on or off: how the tests
    /// hold a search with and without them to the same verdict.
    pub fn with_nodes(nodes: u64, dominances: bool) -> Options {
        Options {
            budget: Budget::of_nodes(nodes),
            dominances,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Budget::default(),
            dominances: true,
        }
    }
}

/// Solves from `pos`.
pub fn solve(pos: &Position, budget: &Budget) -> Report {
    solve_with(
        pos,
        &Options {
            budget: budget.clone(),
            ..Options::default()
        },
    )
}

/// Solves from `pos` with explicit options, by the plan of [`passes`].
pub fn solve_with(pos: &Position, options: &Options) -> Report {
    passes::solve(pos, options)
}

/// Solves from `pos` within `first`, then, while the answer is unknown
/// because the node budget ran out, within each of `then_nodes` in turn
/// (the same budget with that many positions). A budget that ran out of time
/// or memory stops the escalation: a larger node budget would stop at the
/// same place. The report counts every budget's positions and time, so its
/// figures are what the deal really cost.
pub fn solve_escalating(pos: &Position, first: &Budget, then_nodes: &[u64]) -> Report {
    let mut r = solve(pos, first);
    for &n in then_nodes {
        if r.outcome != Outcome::Unknown(Limit::Nodes) {
            break;
        }
        let next = solve(
            pos,
            &Budget {
                nodes: Some(n),
                ..first.clone()
            },
        );
        r = Report {
            nodes: r.nodes + next.nodes,
            elapsed: r.elapsed + next.elapsed,
            peak_entries: r.peak_entries.max(next.peak_entries),
            ..next
        };
    }
    r
}

/// The report of a search that found `found` after earlier passes spent
/// `spent_nodes` and `spent_time`; a win is replayed through the engine first.
pub(crate) fn report(
    pos: &Position,
    found: search::Found,
    spent_nodes: u64,
    spent_time: Duration,
) -> Report {
    let outcome = match found.end {
        End::Won(moves) => {
            if replays_to_win(pos, &moves) {
                Outcome::Win(moves)
            } else {
                debug_assert!(false, "a solution failed its replay through the engine");
                Outcome::Unknown(Limit::Nodes)
            }
        }
        End::Exhausted => Outcome::NoWin,
        End::Spent(limit) => Outcome::Unknown(limit),
    };
    Report {
        outcome,
        nodes: found.nodes + spent_nodes,
        elapsed: found.elapsed + spent_time,
        peak_entries: found.peak_entries,
        best_cards: found.best_cards,
        best_line: found.best_line,
    }
}

/// Whether `moves` played from `pos` through the engine end in a won game.
pub fn replays_to_win(pos: &Position, moves: &[Move]) -> bool {
    let mut p = pos.clone();
    moves.iter().all(|&m| p.apply(m).is_ok()) && p.is_won()
}

/// The most cards that can reach the foundations from a position without a
/// redeal, and a line of play that gets them there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// Cards on the foundations at the end of `line`.
    pub cards: usize,
    pub line: Vec<Move>,
    /// Whether the whole deal was searched (else `cards` is a lower bound).
    pub complete: bool,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Most foundation cards reachable in the current deal (no redeal played).
pub fn best(pos: &Position, budget: &Budget) -> Best {
    let found = search::run(
        pos,
        &Settings {
            mode: Mode::Best,
            ..Settings::full(budget.clone(), true)
        },
    );
    let mut line = found.best_line;
    // Check the line through the engine; it cannot fail, but a figure is
    // only reported for a line that really plays.
    let mut p = pos.clone();
    if !line.iter().all(|&m| p.apply(m).is_ok()) || p.foundation_cards() != found.best_cards {
        debug_assert!(false, "the best line failed its replay");
        line.clear();
        p = pos.clone();
    }
    Best {
        cards: p.foundation_cards(),
        line,
        complete: found.end == End::Exhausted,
        nodes: found.nodes,
        elapsed: found.elapsed,
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
