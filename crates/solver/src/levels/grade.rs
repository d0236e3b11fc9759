//! Grading one deal: the solver's verdict plus how the person-like player fares.
//!
//! A level says how hard a deal is for a person. The hint is exact (a
//! solver), so following it wins nearly every winnable deal and cannot tell
//! levels apart; the levels therefore come from the person-like player alone,
//! [`GradeConfig::runs`] games a deal (20 by default). For a deal a win is
//! known for:
//! - **Easy**: the person-like player wins at least half of its runs;
//! - **Medium**: it wins at least one run, but fewer than half;
//! - **Hard**: it never wins.
//!
//! A win is known when the solver found one, or when the player won (a played
//! win is a proof too, so a solver out of budget does not hide it). Otherwise
//! the deal is **Unwinnable** when the solver proved there is no win, and
//! **Unknown** when its budget ran out. Should the player win a deal the
//! solver called lost, the grade follows the played win and is marked as a
//! conflict, since one of the two has a defect.
//!
//! The solver's verdict can also be given rather than searched
//! ([`grade_with_verdict`]): regrading a library whose verdicts are known
//! then costs only the person-like runs, and those are played only where a
//! win is known, since elsewhere they cannot change the level.
//!
//! Grading is deterministic for a fixed seed as long as the budgets are in
//! nodes, not time: each run of the person-like player draws from a generator
//! seeded by (seed, deal, run), whatever the order deals are graded in.

use patience_engine::prng::mix64;
use patience_engine::{DealError, GameSpec, Position};
use serde::Serialize;

use super::person::play_like_a_person;
use crate::{solve_escalating, Budget, Limit, Outcome};

/// How hard a deal is: named below both the grading and the store.
pub use patience_levels::Level;

/// The level a deal's evidence makes: see the module documentation.
pub trait LevelOfEvidence {
    fn from_evidence(solver: &SolverVerdict, person_wins: u32, runs: u32) -> Level;
}

impl LevelOfEvidence for Level {
    fn from_evidence(solver: &SolverVerdict, person_wins: u32, runs: u32) -> Level {
        if person_wins == 0 {
            match solver {
                SolverVerdict::NoWin => return Level::Unwinnable,
                SolverVerdict::Unknown { .. } => return Level::Unknown,
                SolverVerdict::Win { .. } => {}
            }
        }
        if runs > 0 && 2 * person_wins as u64 >= runs as u64 {
            Level::Easy
        } else if person_wins > 0 {
            Level::Medium
        } else {
            Level::Hard
        }
    }
}

/// What the solver said about the deal, within the grading budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum SolverVerdict {
    /// A win exists; `moves` is the solution's length when the solver found
    /// it in this grading, `None` when the verdict was given.
    Win {
        #[serde(skip_serializing_if = "Option::is_none")]
        moves: Option<usize>,
    },
    NoWin,
    Unknown {
        limit: &'static str,
    },
}

impl SolverVerdict {
    /// The verdict a library level stands for: a win exists for Easy,
    /// Medium and Hard; none for Unwinnable; Unknown when the budget ran out.
    pub fn of_level(level: Level) -> SolverVerdict {
        match level {
            Level::Easy | Level::Medium | Level::Hard => SolverVerdict::Win { moves: None },
            Level::Unwinnable => SolverVerdict::NoWin,
            Level::Unknown => SolverVerdict::Unknown { limit: "nodes" },
        }
    }

    fn of(outcome: &Outcome) -> SolverVerdict {
        match outcome {
            Outcome::Win(m) => SolverVerdict::Win {
                moves: Some(m.len()),
            },
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
    /// Runs of the person-like player per deal.
    pub runs: u32,
    pub seed: u64,
    /// Move limit of each game; `None`: 20 moves a card.
    pub max_moves: Option<usize>,
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
            runs: 20,
            seed: 1,
            max_moves: None,
        }
    }
}

/// One deal's grade and the evidence behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    pub deal: u64,
    pub level: Level,
    pub solver: SolverVerdict,
    /// Positions the solver searched, over every budget it tried (0 when
    /// the verdict was given).
    pub solver_nodes: u64,
    pub person_wins: u32,
    /// Runs of the person-like player played: [`GradeConfig::runs`], or 0
    /// on a deal whose given verdict knows no win.
    pub runs: u32,
    /// The player won a deal the solver called lost.
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
    let report = solve_escalating(pos, &cfg.solve, &cfg.then_nodes);
    let solver_nodes = report.nodes;
    // Played on deals the solver calls lost too: a person's win there would
    // show a defect (a conflict), and on an unknown deal it proves a win.
    let (person_wins, runs) = person_runs(pos, cfg, cfg.runs);
    grade_from(
        pos,
        SolverVerdict::of(&report.outcome),
        solver_nodes,
        person_wins,
        runs,
    )
}

/// Grades a position whose solver verdict is already known (from an earlier
/// grading): only the person-like runs are played, and not where the
/// verdict proves there is no win, since there they cannot change the level.
/// Where the solver's budget ran out they are played: a played win makes
/// the deal Easy or Medium, as it does in [`grade_position`].
pub fn grade_with_verdict(pos: &Position, verdict: SolverVerdict, cfg: &GradeConfig) -> Grade {
    let runs = match verdict {
        SolverVerdict::NoWin => 0,
        _ => cfg.runs,
    };
    let (person_wins, runs) = person_runs(pos, cfg, runs);
    grade_from(pos, verdict, 0, person_wins, runs)
}

/// What a hunt for some levels learned of one deal ([`hunt`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hunted {
    /// Every run was played: the deal's whole grade, the one
    /// [`grade_position`] (or [`grade_with_verdict`], for a given verdict)
    /// gives, whatever its level.
    Graded(Grade),
    /// The runs played so far rule out every level sought, so the rest were
    /// not played: `wins` of the first `played` runs.
    RuledOut { wins: u32, played: u32 },
}

/// Looks for deals of the levels `sought` without paying for a whole grade
/// where the first runs already rule them out: the person-like runs are
/// played in order (the same runs as [`grade_position`] plays, each seeded
/// by its number) and stop as soon as no level sought is still possible. A
/// hunt for Hard stops at the first win, one for Easy once the losses pass
/// half the runs. The solver runs only on a deal whose runs were all played
/// and whose verdict is not `known`; a deal whose known verdict proves no
/// win is graded at once (no runs are played there, as in
/// [`grade_with_verdict`]). Where a level is rare and
/// others cost most of the runs (Hard in a game the player mostly wins),
/// a hunt finds every deal of it in a range for a fraction of the cost.
pub fn hunt(
    pos: &Position,
    known: Option<SolverVerdict>,
    sought: &[Level],
    cfg: &GradeConfig,
) -> Hunted {
    if known == Some(SolverVerdict::NoWin) {
        return Hunted::Graded(grade_from(pos, SolverVerdict::NoWin, 0, 0, 0));
    }
    let mut wins = 0;
    for run in 0..cfg.runs {
        if !could_be(sought, known.as_ref(), wins, run, cfg.runs) {
            return Hunted::RuledOut { wins, played: run };
        }
        wins += run_won(pos, cfg, run) as u32;
    }
    Hunted::Graded(match known {
        Some(v) => grade_from(pos, v, 0, wins, cfg.runs),
        None => {
            let report = solve_escalating(pos, &cfg.solve, &cfg.then_nodes);
            let verdict = SolverVerdict::of(&report.outcome);
            grade_from(pos, verdict, report.nodes, wins, cfg.runs)
        }
    })
}

/// Whether a deal the person-like player won `wins` of its first `played`
/// runs (of `runs`) can still turn out of one of the levels `sought`, its
/// solver verdict being `known` (or, if `None`, any).
pub fn could_be(
    sought: &[Level],
    known: Option<&SolverVerdict>,
    wins: u32,
    played: u32,
    runs: u32,
) -> bool {
    let any = [
        SolverVerdict::Win { moves: None },
        SolverVerdict::NoWin,
        SolverVerdict::Unknown { limit: "nodes" },
    ];
    let verdicts = match known {
        Some(v) => std::slice::from_ref(v),
        None => &any[..],
    };
    let most = wins + runs.saturating_sub(played);
    (wins..=most).any(|w| {
        verdicts
            .iter()
            .any(|v| sought.contains(&Level::from_evidence(v, w, runs)))
    })
}

/// The person-like player's wins in `runs` games of `pos`.
fn person_runs(pos: &Position, cfg: &GradeConfig, runs: u32) -> (u32, u32) {
    let wins = (0..runs).filter(|&run| run_won(pos, cfg, run)).count() as u32;
    (wins, runs)
}

/// Whether the person-like player wins run `run` of `pos`: the one place
/// a run is played, so a hunt and a grading play the very same runs.
fn run_won(pos: &Position, cfg: &GradeConfig, run: u32) -> bool {
    let max_moves = cfg.max_moves.unwrap_or(super::move_limit(pos.spec()));
    play_like_a_person(pos, run_seed(cfg.seed, pos.deal_number(), run), max_moves).won
}

fn grade_from(
    pos: &Position,
    solver: SolverVerdict,
    solver_nodes: u64,
    person_wins: u32,
    runs: u32,
) -> Grade {
    Grade {
        deal: pos.deal_number(),
        level: Level::from_evidence(&solver, person_wins, runs),
        conflict: solver == SolverVerdict::NoWin && person_wins > 0,
        solver,
        solver_nodes,
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
