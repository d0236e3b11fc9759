//! Exact search over the patience engine: solve a position, hint a move, prove
//! a loss, and find the most cards a deal can send home.
//!
//! The public contract other crates build on:
//! - [`solve`] gives a [`Report`] whose [`Outcome`] is a win with moves
//!   (replayed through the engine before it is returned), no win possible
//!   (the reachable space was exhausted), or unknown (a budget was spent).
//! - [`hint`] gives the first move of a solution, or a heuristic move marked as such,
//!   or says no win is possible.
//! - [`best`] gives the most cards that can reach the foundations before the
//!   next redeal, with the line of play (lblsolve's figure).
//!
//! Where things are: `search` is the depth-first search; `state` the canonical
//! key; `table` the bounded transposition table; `dominance` the moves that
//! cannot hurt and the positions that cannot be won; `order` move ordering
//! (with `near`, how near each card is to home where suits build from both
//! ends); `playout` the randomised greedy games tried in the stock games;
//! `beam` the beam search tried first where the stock passes once onto a
//! waste;
//! `heuristic` the fallback hint; `levels` the person-like player and grading;
//! `stats` the confidence interval of a win rate and a sample's percentiles.
//! Every move comes from the engine: no rule is written here.

pub mod beam;
pub mod dead_two_deck;
pub mod dominance;
pub mod heuristic;
pub mod last_pass;
pub mod levels;
pub mod near;
pub mod order;
pub mod plan;
pub mod playout;
pub mod search;
pub mod state;
pub mod stats;
pub mod suit_blind;
pub mod table;

pub use plan::Plan;

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

// The passes' shares below were chosen by surveys (`patience survey GAME
// --deals A..B --jobs 1 --nodes N`, the same deals with each candidate split;
// `bench/solver/surveys.sh` runs the reference set): they are the splits that
// decided the most deals at the tools' budgets. docs/solver.md tabulates them.

/// Share of the budget the narrow probe may spend before the full search.
const PROBE_SHARE: u32 = 4;
/// Most positions the probe visits: enough to find most easy wins, little
/// enough to leave the full search the rest.
const PROBE_NODES: u64 = 300_000;
/// Eighths of the budget the probe may spend while a face-down stock still
/// holds cards (no cap): there the full search rarely proves a loss within
/// the tools' budgets, and the probe wins more the longer it runs.
const STOCK_PROBE_EIGHTHS: u64 = 5;
/// Positions of the short full search tried before the playouts while a
/// face-down stock holds cards: enough to prove the many small losses of late
/// positions, a few milliseconds.
const QUICK_NODES: u64 = 20_000;
/// The same where the two-deck dead test applies (Krakowski, and
/// Novomanernaya's last deal): there a full search proves most losses within
/// this many positions, and the playouts after it win few deals.
const QUICK_NODES_DEAD: u64 = 150_000;
/// Eighths of the budget the randomised playouts get while a face-down stock
/// holds cards.
const STOCK_PLAYOUT_EIGHTHS: u64 = 2;

/// Whether a face-down stock still holds cards.
fn stock_left(pos: &Position) -> bool {
    pos.layout().stock.is_some_and(|s| !pos.pile(s).is_empty())
}
/// Moves the probe tries at each position.
const PROBE_WIDTH: usize = 2;

/// Solves from `pos` with explicit options.
///
/// Two passes. First a narrow probe tries only the two best-ordered moves of
/// each position, on a quarter of the budget (at most 300,000 positions;
/// five eighths while a face-down stock holds cards): a
/// depth-first search over all moves can sink its whole budget under one
/// early mistake, and the probe finds most wins of the stock games quickly.
/// If it finds none (its exhaustion proves nothing), the full search runs on
/// the rest of the budget and alone can answer *no win*.
///
/// Where the beam applies (Krakowski, Blondes and Brunettes), a short full
/// search runs first (an eighth of the budget, at most `QUICK_NODES_DEAD`:
/// it proves most late-game losses at once), then the beam on a share of
/// what is left ([`beam::Tuning`]), and the passes above share the rest.
pub fn solve_with(pos: &Position, options: &Options) -> Report {
    if !beam::applies(pos) {
        return solve_passes(pos, options, None);
    }
    let b = &options.budget;
    let tuning = beam::Tuning::of(pos);
    let share = |n: u64| n / 100 * tuning.share_percent;
    let quick_nodes = b
        .nodes
        .map_or(tuning.time_quick_nodes, |n| (n / 8).min(QUICK_NODES_DEAD));
    // A budget too small for a beam of the narrowest width goes to the
    // passes whole: a beam of a few slots wins nothing, and its share would
    // be the probe's loss (grading's hints of 30,000 positions win more
    // without it).
    if b.nodes.is_some_and(|n| {
        share(n.saturating_sub(quick_nodes)) / tuning.nodes_per_slot < BEAM_WIDTHS.0 as u64
    }) {
        return solve_passes(pos, options, None);
    }
    // A short full search first: late in a game most positions are lost in
    // a few thousand positions, and a hint should not wait for the beam
    // to say so.
    let quick = short_full_search(pos, quick_nodes, b.time, options);
    if matches!(quick.end, End::Won(_) | End::Exhausted) {
        return report(pos, quick, 0, Duration::ZERO);
    }
    let b = &b.after(quick.nodes, quick.elapsed);
    let width = b.nodes.map_or(tuning.time_width, |n| {
        ((share(n) / tuning.nodes_per_slot) as usize).clamp(BEAM_WIDTHS.0, BEAM_WIDTHS.1)
    });
    let beamed = beam::run(
        pos,
        &Budget {
            nodes: b.nodes.map(share),
            time: b.time.map(|t| t / 2),
            memory_bytes: b.memory_bytes,
        },
        width,
        options.dominances,
    );
    if let Some(line) = beamed.win {
        let found = search::Found {
            end: End::Won(line.clone()),
            nodes: beamed.nodes,
            elapsed: beamed.elapsed,
            peak_entries: 0,
            best_cards: pos.spec().card_count(),
            best_line: line,
        };
        return report(pos, found, quick.nodes, quick.elapsed);
    }
    let rest = Options {
        budget: b.after(beamed.nodes, beamed.elapsed),
        dominances: options.dominances,
    };
    let mut r = solve_passes(pos, &rest, Some(&quick));
    r.nodes += quick.nodes + beamed.nodes;
    r.elapsed += quick.elapsed + beamed.elapsed;
    r
}

/// A full search of at most `nodes` positions and `time`, with the whole
/// budget's memory.
fn short_full_search(
    pos: &Position,
    nodes: u64,
    time: Option<Duration>,
    options: &Options,
) -> search::Found {
    let budget = Budget {
        nodes: Some(nodes),
        time,
        memory_bytes: options.budget.memory_bytes,
    };
    search::run(pos, &Settings::full(budget, options.dominances))
}

/// The narrowest and widest beam a node budget is turned into: a beam of a
/// few slots wins nothing, and the beam's table of positions seen grows with
/// its width.
const BEAM_WIDTHS: (usize, usize) = (20, 20_000);

/// The probe, the short full search, the playouts, the sampled last passes
/// and the full search, in turn (see [`solve_with`]).
///
/// `prior` is a full search from `pos` already run without an answer. When
/// its node budget stopped it, a full search is depth-first in a fixed
/// order, so one allowed fewer positions than it searched would walk a
/// prefix of the same tree and end the same way: such a search is not run
/// again, and its positions go to the passes after it.
fn solve_passes(pos: &Position, options: &Options, prior: Option<&search::Found>) -> Report {
    let prior = prior.filter(|f| f.end == End::Spent(Limit::Nodes));
    let undecided_within = prior.map_or(0, |f| f.nodes);
    let b = &options.budget;
    let probe_budget = if stock_left(pos) {
        Budget {
            nodes: Some(b.nodes.map_or(PROBE_NODES, |n| n / 8 * STOCK_PROBE_EIGHTHS)),
            time: b.time.map(|t| t / 8 * STOCK_PROBE_EIGHTHS as u32),
            memory_bytes: b.memory_bytes / 2,
        }
    } else {
        Budget {
            nodes: Some(
                b.nodes
                    .map_or(PROBE_NODES, |n| (n / PROBE_SHARE as u64).min(PROBE_NODES)),
            ),
            time: b.time.map(|t| t / PROBE_SHARE),
            memory_bytes: b.memory_bytes / PROBE_SHARE as usize,
        }
    };
    let probe = search::run(
        pos,
        &Settings {
            width: Some(PROBE_WIDTH),
            ..Settings::full(probe_budget, options.dominances)
        },
    );
    let (found, spent_nodes, spent_time) = match probe.end {
        End::Won(_) => (probe, 0, std::time::Duration::ZERO),
        _ => {
            // A short full search first: many positions of the stock games
            // are lost in a small space (late in a game, most of them), and
            // proving that takes a few thousand positions, where the playouts
            // would spend their whole share first. Its positions count
            // against the budget like every pass's.
            let (mut quick_nodes, mut quick_elapsed) = (0, Duration::ZERO);
            if stock_left(pos) {
                let cap = if dead_two_deck::applies(pos) {
                    QUICK_NODES_DEAD
                } else {
                    QUICK_NODES
                };
                let nodes = b.nodes.map_or(cap, |n| {
                    // What the probe and the playouts' share leave.
                    n.saturating_sub(probe.nodes + n / 8 * STOCK_PLAYOUT_EIGHTHS)
                        .max(QUICK_NODES.min(n.saturating_sub(probe.nodes)))
                        .min(cap)
                });
                if nodes >= undecided_within {
                    let time = b.time.map(|t| t.saturating_sub(probe.elapsed));
                    let quick = short_full_search(pos, nodes, time, options);
                    if matches!(quick.end, End::Won(_) | End::Exhausted) {
                        return report(pos, quick, probe.nodes, probe.elapsed);
                    }
                    (quick_nodes, quick_elapsed) = (quick.nodes, quick.elapsed);
                }
            }
            let played = if stock_left(pos) {
                playout::run(
                    pos,
                    &Budget {
                        nodes: Some(b.nodes.map_or(PROBE_NODES, |n| {
                            // Never past the budget when a longer
                            // quick search left less than two eighths.
                            (n / 8 * STOCK_PLAYOUT_EIGHTHS)
                                .min(n.saturating_sub(probe.nodes + quick_nodes))
                        })),
                        time: b.time.map(|t| t / 8 * STOCK_PLAYOUT_EIGHTHS as u32),
                        memory_bytes: 0,
                    },
                    options.dominances,
                )
            } else {
                playout::Played {
                    win: None,
                    nodes: 0,
                    elapsed: std::time::Duration::ZERO,
                }
            };
            if let Some(line) = played.win {
                let found = search::Found {
                    end: End::Won(line.clone()),
                    nodes: played.nodes,
                    elapsed: played.elapsed,
                    peak_entries: probe.peak_entries,
                    best_cards: pos.spec().card_count(),
                    best_line: line,
                };
                return report(pos, found, probe.nodes, probe.elapsed);
            }
            let (mut probe_nodes, mut probe_elapsed) = (
                probe.nodes + quick_nodes + played.nodes,
                probe.elapsed + quick_elapsed + played.elapsed,
            );
            // With a redeal left, a sample of the last passes searched
            // apart (`last_pass::sampled`) on what the budget has left; the
            // full search gets what it does not use.
            if stock_left(pos) && pos.redeals_left() > 0 {
                let sampled = last_pass::sampled(
                    pos,
                    &b.after(probe_nodes, probe_elapsed),
                    options.dominances,
                );
                if matches!(sampled.end, End::Won(_)) {
                    return report(pos, sampled, probe_nodes, probe_elapsed);
                }
                probe_nodes += sampled.nodes;
                probe_elapsed += sampled.elapsed;
            }
            let rest = b.after(probe_nodes, probe_elapsed);
            let mut main = match prior {
                Some(done) if rest.nodes.is_some_and(|n| n < undecided_within) => search::Found {
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    ..done.clone()
                },
                _ => search::run(pos, &Settings::full(rest, options.dominances)),
            };
            if probe.best_cards > main.best_cards {
                main.best_cards = probe.best_cards;
                main.best_line = probe.best_line;
            }
            main.peak_entries = main.peak_entries.max(probe.peak_entries);
            (main, probe_nodes, probe_elapsed)
        }
    };
    report(pos, found, spent_nodes, spent_time)
}

/// The report of a search that found `found` after earlier passes spent
/// `spent_nodes` and `spent_time`; a win is replayed through the engine first.
fn report(pos: &Position, found: search::Found, spent_nodes: u64, spent_time: Duration) -> Report {
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

/// The hint for `pos`: a search within `budget`, then the fallback of
/// [`heuristic`] if the budget runs out.
pub fn hint(pos: &Position, budget: &Budget) -> Hint {
    hint_with_plan(pos, budget, &mut Plan::default())
}

/// As [`hint`], but keeping the winning line found between calls, so that a
/// player (or the hint-follower) who follows the hints walks one line to the
/// win instead of being sent back and forth between two (see [`plan`]).
pub fn hint_with_plan(pos: &Position, budget: &Budget, plan: &mut Plan) -> Hint {
    if pos.is_won() || pos.legal_moves().is_empty() {
        return Hint::None;
    }
    if let Some(m) = plan.next(pos) {
        return Hint::Solution(m);
    }
    let report = solve(pos, budget);
    match report.outcome {
        Outcome::Win(moves) => {
            plan.remember(pos, &moves);
            moves.first().map_or(Hint::None, |&m| Hint::Solution(m))
        }
        Outcome::NoWin => Hint::NoWin,
        Outcome::Unknown(_) => {
            let lead = if report.best_cards > pos.foundation_cards() {
                &report.best_line[..]
            } else {
                &[]
            };
            heuristic::choose(pos, lead).map_or(Hint::None, Hint::Heuristic)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The passes told of a full search already run without an answer skip
    /// the full searches that could only walk a prefix of it: no answer the
    /// passes reach alone is lost (a win keeps its line, a proved loss stays
    /// proved), and on some deals fewer positions are searched.
    #[test]
    fn passes_skip_a_full_search_already_run_and_keep_its_answers() {
        let spec = patience_engine::game("krakowski").unwrap();
        let options = Options::with_nodes(60_000, true);
        let mut saved = 0;
        for deal in 1..=12 {
            let pos = Position::deal(spec, deal).unwrap();
            let prior = short_full_search(&pos, 30_000, None, &options);
            if prior.end != End::Spent(Limit::Nodes) {
                continue;
            }
            let alone = solve_passes(&pos, &options, None);
            let told = solve_passes(&pos, &options, Some(&prior));
            assert!(
                told.nodes <= 60_000,
                "deal {deal}: {} positions",
                told.nodes
            );
            if !matches!(alone.outcome, Outcome::Unknown(_)) {
                assert_eq!(told.outcome, alone.outcome, "deal {deal}");
            }
            // A skipped search saves thousands of positions, not the one a
            // search of no positions still counts.
            saved += (told.nodes + 1000 <= alone.nodes) as usize;
        }
        assert!(saved > 0, "no deal skipped a repeated search");
    }
}
