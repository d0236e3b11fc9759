//! Grading one deal: the solver's verdict plus how the two players fare.
//!
//! The levels (seed 004, issue 5), for a deal a win is known for:
//! - **Easy**: following the hint wins, or the person-like player wins
//!   *often*: in at least [`GradeConfig::often_percent`] percent of its runs
//!   (50 by default, so 10 of 20);
//! - **Hard**: the person-like player never wins;
//! - **Medium**: everything between: the hint alone does not win, and the
//!   person-like player wins some runs but not often.
//!
//! A win is known when the solver found one, or when either player won (a
//! played win is a proof too, so a solver out of budget does not hide it).
//! Otherwise the deal is **Unwinnable** when the solver proved there is no win,
//! and **Unknown** when its budget ran out. Should a player win a deal the
//! solver called lost, the grade follows the played win and is marked as a
//! conflict, since one of the two has a defect.
//!
//! The person-like runs are skipped on a deal the hint-follower wins: the deal
//! is Easy whatever they do, and in the two-deck games they were most of the
//! grading time (House on the Hill: 545 of 550 ms a deal, measured by
//! `examples/grade_profile.rs`). Such a grade says `runs: 0`, so the
//! person-like player's win rate is a rate over the deals the hint does not
//! win, unless [`GradeConfig::person_when_hint_wins`] asks for every deal.
//!
//! Grading is deterministic for a fixed seed as long as the budgets are in
//! nodes, not time: each run of the person-like player draws from a generator
//! seeded by (seed, deal, run), whatever the order deals are graded in.

use std::fmt;

use patience_engine::prng::mix64;
use patience_engine::{DealError, GameSpec, Position};
use serde::Serialize;

use super::follow::{follow_hints, Followed};
use super::person::play_like_a_person;
use crate::{solve, Budget, Limit, Outcome};

/// How hard a deal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Unwinnable,
    Unknown,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unwinnable,
        Level::Unknown,
    ];

    /// The word used in the library files and the store: `easy`, `medium`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unwinnable => "unwinnable",
            Level::Unknown => "unknown",
        }
    }

    pub fn parse(word: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == word.trim())
    }

    /// The level the evidence makes: see the module documentation.
    pub fn from_evidence(
        solver: &SolverVerdict,
        hint_won: bool,
        person_wins: u32,
        runs: u32,
        often_percent: u32,
    ) -> Level {
        let played_win = hint_won || person_wins > 0;
        if !played_win {
            match solver {
                SolverVerdict::NoWin => return Level::Unwinnable,
                SolverVerdict::Unknown { .. } => return Level::Unknown,
                SolverVerdict::Win { .. } => {}
            }
        }
        let often = runs > 0 && person_wins as u64 * 100 >= often_percent as u64 * runs as u64;
        if hint_won || often {
            Level::Easy
        } else if person_wins == 0 {
            Level::Hard
        } else {
            Level::Medium
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the solver said about the deal, within the grading budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum SolverVerdict {
    Win { moves: usize },
    NoWin,
    Unknown { limit: &'static str },
}

impl SolverVerdict {
    fn of(outcome: &Outcome) -> SolverVerdict {
        match outcome {
            Outcome::Win(m) => SolverVerdict::Win { moves: m.len() },
            Outcome::NoWin => SolverVerdict::NoWin,
            Outcome::Unknown(l) => SolverVerdict::Unknown {
                limit: match l {
                    Limit::Nodes => "nodes",
                    Limit::Time => "time",
                    Limit::Memory => "memory",
                },
            },
        }
    }
}

/// The knobs of grading.
#[derive(Clone, Debug)]
pub struct GradeConfig {
    /// The solver's budget for the verdict.
    pub solve: Budget,
    /// Larger node budgets the solver tries in turn while its verdict is
    /// unknown for want of nodes (each a fresh solve, as `survey
    /// --then-nodes`): most deals are decided within `solve`, and only the
    /// few that are not pay for the larger budgets. Empty by default.
    pub then_nodes: Vec<u64>,
    /// The budget of each hint the hint-follower asks for.
    pub hint: Budget,
    /// Runs of the person-like player per deal.
    pub runs: u32,
    pub seed: u64,
    /// Person-like wins, in percent of the runs, that make a deal Easy.
    pub often_percent: u32,
    /// Move limit of each player's game; `None`: 20 moves a card.
    pub max_moves: Option<usize>,
    /// Play the person-like runs on deals the hint-follower wins too. They
    /// cannot change such a deal's level (it is Easy), so by default they are
    /// skipped; set this to measure the player's win rate over all deals.
    pub person_when_hint_wins: bool,
}

impl Default for GradeConfig {
    fn default() -> Self {
        GradeConfig {
            solve: Budget {
                nodes: Some(1_000_000),
                time: None,
                memory_bytes: 256 << 20,
            },
            then_nodes: Vec::new(),
            hint: Budget {
                nodes: Some(100_000),
                time: None,
                memory_bytes: 64 << 20,
            },
            runs: 20,
            seed: 1,
            often_percent: 50,
            max_moves: None,
            person_when_hint_wins: false,
        }
    }
}

/// One deal's grade and the evidence behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    pub deal: u64,
    pub level: Level,
    pub solver: SolverVerdict,
    /// Positions the solver searched, over every budget it tried.
    pub solver_nodes: u64,
    /// The hint-follower's game; not played when the solver proved no win.
    pub hint: Option<Followed>,
    pub person_wins: u32,
    /// Runs of the person-like player played: [`GradeConfig::runs`], or 0
    /// when they were skipped because the hint-follower won.
    pub runs: u32,
    /// A player won a deal the solver called lost.
    pub conflict: bool,
}

/// Grades deal `deal` of a game.
pub fn grade_deal(
    spec: &'static GameSpec,
    deal: u64,
    cfg: &GradeConfig,
) -> Result<Grade, DealError> {
    Ok(grade_position(&Position::deal(spec, deal)?, cfg))
}

/// Grades a position (its deal number seeds the person-like runs).
pub fn grade_position(pos: &Position, cfg: &GradeConfig) -> Grade {
    let deal = pos.deal_number();
    let max_moves = cfg.max_moves.unwrap_or(20 * pos.spec().card_count());
    let mut report = solve(pos, &cfg.solve);
    let mut solver_nodes = report.nodes;
    for &nodes in &cfg.then_nodes {
        if report.outcome != Outcome::Unknown(Limit::Nodes) {
            break;
        }
        let budget = Budget {
            nodes: Some(nodes),
            ..cfg.solve.clone()
        };
        report = solve(pos, &budget);
        solver_nodes += report.nodes;
    }
    let solver = SolverVerdict::of(&report.outcome);
    let hint = (solver != SolverVerdict::NoWin).then(|| follow_hints(pos, &cfg.hint, max_moves));
    let hint_won = hint.is_some_and(|h| h.won());
    // Still played on deals the solver calls lost: a person's win there
    // would show a defect (a conflict), and those runs end quickly.
    let runs = if hint_won && !cfg.person_when_hint_wins {
        0
    } else {
        cfg.runs
    };
    let person_wins = (0..runs)
        .filter(|&run| play_like_a_person(pos, run_seed(cfg.seed, deal, run), max_moves).won)
        .count() as u32;
    let level = Level::from_evidence(&solver, hint_won, person_wins, runs, cfg.often_percent);
    Grade {
        deal,
        level,
        conflict: solver == SolverVerdict::NoWin && (hint_won || person_wins > 0),
        solver,
        solver_nodes,
        hint,
        person_wins,
        runs,
    }
}

/// The generator seed of one person-like run: depends on the grading seed,
/// the deal and the run only.
pub fn run_seed(seed: u64, deal: u64, run: u32) -> u64 {
    mix64(
        seed ^ mix64(deal ^ 0x5EED_0000_0000_0000)
            ^ (run as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    )
}
