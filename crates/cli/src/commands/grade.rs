//! `patience grade`: grades a range of deals into levels, in parallel, into
//! the store, resumably; optionally into the shipped library files.
//!
//! Each deal is graded by `patience_solver::levels::grade_deal` (the solver's
//! verdict and `--runs` games of the person-like player). With
//! `--reuse-verdicts DIR` the solver is not run again for a deal that
//! `DIR/<game>.tsv` already grades: its level there says whether a win
//! exists (Easy, Medium, Hard), none does (Unwinnable) or the budget ran out
//! (Unknown), and only the person-like runs are played, except where no win
//! exists (a played win turns an Unknown deal into Easy or Medium).
//! Grades go into the store one by one as they come, so an interrupted run
//! loses nothing, and deals the store already holds for the game are skipped.
//! With `--export DIR` each grade is also appended to `DIR/<game>.tsv`, which
//! is rewritten sorted and without duplicates when the game is done, merged
//! with every grade the store holds for the game. Without `--deals`, nothing
//! is graded and `--export` only writes the store's grades into the library:
//! stores graded on several machines over different ranges merge that way.
//!
//! `--enough N` stops a game once Easy, Medium and Hard each hold N deals in
//! the store (counting deals graded before), so a long range such as
//! `1..20000` is only worked through where a level is rare. Deals are graded
//! in chunks taken in order, so what a stopped run graded is always a prefix
//! of the range and "the first K deals hold" stays a true statement.
//!
//! `--hunt LEVELS` (some of `easy`, `medium`, `hard`) looks for deals of
//! those levels only: a deal's person-like runs stop as soon as they rule
//! every level sought out (a hunt for Hard stops at the first win), and such
//! a deal is recorded as ruled out rather than graded; a deal whose runs are
//! all played gets its whole grade, the one a plain grading gives. A hunt
//! over a range thus finds every deal of the levels sought in it, for a
//! fraction of the cost where they are rare. With `--enough N` it stops once
//! each level sought holds N deals.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use patience_engine::GameSpec;
use patience_engine::Position;
use patience_solver::levels::{
    grade_position, grade_with_verdict, hunt, Grade, GradeConfig, Hunted, Level, SolverVerdict,
    LOOKAHEAD,
};
use patience_solver::Budget;
use patience_store::library::{self, Appender};
use patience_store::{DealGrade, Location, PersonWins, Store};
use rayon::prelude::*;

use super::source::{game, parse_deals};

mod shared;
use patience_solver::stats::wilson;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id, several separated by commas, or `all`.
    pub game: String,
    /// Deals to grade: `A..B` (both ends included) or one number. Without
    /// it nothing is graded, and `--export` writes the store's grades.
    #[arg(long)]
    pub deals: Option<String>,
    /// Stop a game once Easy, Medium and Hard each hold this many deals in
    /// the store (deals graded earlier count).
    #[arg(long)]
    pub enough: Option<u64>,
    /// Take the solver's verdict from DIR/GAME.tsv (a graded library) for
    /// the deals it holds, and play only the person-like runs there.
    #[arg(long)]
    pub reuse_verdicts: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The store the grades go into (the server's store): a SQLite file, or
    /// a PostgreSQL URL, where any number of `patience grade` processes on
    /// any machines share the deals to grade (see `patience_store::postgres::work`).
    #[arg(long, default_value = "patience.db")]
    pub db: Location,
    /// Games of the person-like player per deal.
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Seed of the person-like player's choices among near-equal lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solver node budget per deal.
    #[arg(long, default_value_t = 1_000_000)]
    pub nodes: u64,
    /// Solver time budget per deal, in ms (makes grading depend on machine speed).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Larger solver budgets tried in turn on a deal still unknown, e.g.
    /// `--nodes 300000 --then-nodes 3000000`: only the deals the first
    /// budget leaves unknown pay for the larger ones. Each must exceed the
    /// one before.
    #[arg(long = "then-nodes", value_delimiter = ',')]
    pub then_nodes: Vec<u64>,
    /// Cap on the solver's table memory per worker, in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory_mb: usize,
    /// Also append the grades to DIR/GAME.tsv (the shipped library).
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Look for deals of these levels only (`easy`, `medium`, `hard`,
    /// separated by commas): a deal's runs stop once they rule them all out,
    /// and the deal is recorded as ruled out instead of graded.
    #[arg(long, value_delimiter = ',')]
    pub hunt: Vec<String>,
}

/// The levels of `--hunt`: only those the person-like runs decide.
fn hunted_levels(words: &[String]) -> anyhow::Result<Vec<Level>> {
    words
        .iter()
        .map(|w| match Level::parse(w) {
            Some(l @ (Level::Easy | Level::Medium | Level::Hard)) => Ok(l),
            _ => Err(anyhow!(
                "--hunt takes easy, medium or hard (separated by commas), not `{w}`"
            )),
        })
        .collect()
}

fn games_of(list: &str) -> anyhow::Result<Vec<&'static GameSpec>> {
    if list.trim() == "all" {
        return Ok(patience_engine::games().iter().collect());
    }
    list.split(',').map(|id| game(id.trim())).collect()
}

pub fn run(a: Args) -> super::Outcome {
    let range = a.deals.as_deref().map(parse_deals).transpose()?;
    let specs = games_of(&a.game)?;
    let sought = hunted_levels(&a.hunt)?;
    if range.is_none() && a.export.is_none() {
        anyhow::bail!(
            "nothing to do: give --deals to grade, or --export DIR to write the store's grades"
        );
    }
    // The same rule as `survey --then-nodes`: each budget above the last.
    super::survey::budgets(&Budget::of_nodes(a.nodes), &a.then_nodes)?;
    let cfg = GradeConfig {
        then_nodes: a.then_nodes.clone(),
        solve: Budget {
            nodes: Some(a.nodes),
            time: a.time_ms.map(Duration::from_millis),
            memory_bytes: a.memory_mb << 20,
        },
        runs: a.runs,
        seed: a.seed,
        max_moves: None,
    };
    let path = match &a.db {
        Location::Sqlite(path) => path.clone(),
        Location::Postgres(url) => return shared::run(&a, url, range, &specs, &sought, &cfg),
    };
    let store = Store::open(&path).with_context(|| format!("opening {}", path.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    if let Some(dir) = &a.export {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    for spec in specs {
        let tsv = a
            .export
            .as_ref()
            .map(|d| d.join(format!("{}.tsv", spec.id)));
        if let Some((first, last)) = range {
            let done = store.graded_deals(spec.id)?;
            let mut ruled_out = Vec::new();
            for &level in &sought {
                ruled_out.push(store.ruled_out_deals(spec.id, level)?);
            }
            let todo = todo_of((first, last), &done, &ruled_out, &sought);
            let skipped = (last - first + 1) as usize - todo.len();
            let known = known_verdicts(&a, spec)?;
            let job = Job {
                spec,
                cfg: &cfg,
                known: &known,
                sought: &sought,
            };
            let summary = grade_game(&job, &todo, &pool, &store, tsv.as_deref(), a.enough)?;
            summary.print(spec, first, last, skipped);
        }
        if let Some(path) = &tsv {
            export(spec, path, &store.grades(spec.id)?)?;
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Merges the store's `grades` of `spec` into the library file at `path`,
/// and says how many deals it now holds.
fn export(spec: &GameSpec, path: &Path, grades: &[DealGrade]) -> anyhow::Result<()> {
    let lines = library::merge(path, grades)?;
    println!(
        "{}: {} deals in {} ({} from the store)",
        spec.id,
        lines,
        path.display(),
        grades.len()
    );
    Ok(())
}

/// Whether each level of `levels` holds at least `n` deals of the game.
fn has_enough(store: &Store, game: &str, levels: &[Level], n: u64) -> anyhow::Result<bool> {
    Ok(enough_in(&store.level_counts(game)?, levels, n))
}

/// Whether each level of `levels` holds at least `n` deals in `counts`.
fn enough_in(counts: &[(Level, u64)], levels: &[Level], n: u64) -> bool {
    let count = |l: Level| counts.iter().find(|c| c.0 == l).map_or(0, |c| c.1);
    levels.iter().all(|&l| count(l) >= n)
}

/// The deals of `first..=last` left to grade: not graded, and for a hunt
/// not ruled out for every level it seeks by an earlier hunt.
fn todo_of(
    (first, last): (u64, u64),
    done: &std::collections::HashSet<u64>,
    ruled_out: &[std::collections::HashSet<u64>],
    sought: &[Level],
) -> Vec<u64> {
    let skip = |d: &u64| {
        done.contains(d) || (!sought.is_empty() && ruled_out.iter().all(|r| r.contains(d)))
    };
    (first..=last).filter(|d| !skip(d)).collect()
}

/// The solver verdicts `--reuse-verdicts` gives for a game.
fn known_verdicts(a: &Args, spec: &GameSpec) -> anyhow::Result<BTreeMap<u64, Level>> {
    Ok(match &a.reuse_verdicts {
        Some(dir) => library::read(&dir.join(format!("{}.tsv", spec.id)))?
            .into_iter()
            .map(|(deal, g)| (deal, g.level))
            .collect(),
        None => BTreeMap::new(),
    })
}

/// Deals graded between two checks of `--enough`, per worker thread: small
/// enough that a stopped game overshoots by little, large enough that the
/// workers rarely wait for the slowest deal of a chunk.
const CHUNK_PER_THREAD: usize = 8;

/// What grading one game needs: the game, the knobs, the verdicts
/// already known (`--reuse-verdicts`) and the levels hunted (none: every
/// deal is graded in full).
struct Job<'a> {
    spec: &'static GameSpec,
    cfg: &'a GradeConfig,
    known: &'a BTreeMap<u64, Level>,
    sought: &'a [Level],
}

impl Job<'_> {
    fn grade(&self, deal: u64) -> Result<Hunted, String> {
        let pos = Position::deal(self.spec, deal).map_err(|e| e.to_string())?;
        let known = self.known.get(&deal).map(|&l| SolverVerdict::of_level(l));
        Ok(match known {
            _ if !self.sought.is_empty() => hunt(&pos, known, self.sought, self.cfg),
            Some(verdict) => Hunted::Graded(grade_with_verdict(&pos, verdict, self.cfg)),
            None => Hunted::Graded(grade_position(&pos, self.cfg)),
        })
    }

    /// The levels `--enough` counts.
    fn counted(&self) -> &[Level] {
        match self.sought {
            [] => &[Level::Easy, Level::Medium, Level::Hard],
            sought => sought,
        }
    }
}

/// Grades `todo` on the pool; this thread stores each grade as it arrives.
fn grade_game(
    job: &Job,
    todo: &[u64],
    pool: &rayon::ThreadPool,
    store: &Store,
    tsv: Option<&Path>,
    enough: Option<u64>,
) -> anyhow::Result<Summary> {
    let spec = job.spec;
    let bar = progress_bar(spec, todo.len());
    let mut library = match tsv {
        Some(path) => Some(Appender::open(path)?),
        None => None,
    };
    let started = Instant::now();
    let mut summary = Summary::new();
    let chunk = match enough {
        Some(_) => (CHUNK_PER_THREAD * pool.current_num_threads()).max(1),
        None => todo.len().max(1),
    };
    for part in todo.chunks(chunk) {
        if let Some(n) = enough {
            if has_enough(store, spec.id, job.counted(), n)? {
                summary.stopped = Some((n, job.counted().to_vec()));
                break;
            }
        }
        grade_chunk(job, part, pool, store, library.as_mut(), &mut summary, &bar)?;
    }
    bar.finish_and_clear();
    summary.wall = started.elapsed();
    Ok(summary)
}

/// What the store and the library keep of a grading's result.
fn kept_of(g: &Grade) -> DealGrade {
    DealGrade {
        deal: g.deal,
        level: g.level,
        person: PersonWins::new(g.person_wins, g.runs),
    }
}

/// What is stored of one deal's grading: its grade, or that it is ruled
/// out; each with the detail every row records.
enum Record {
    Graded {
        grade: Box<Grade>,
        kept: DealGrade,
        detail: String,
    },
    RuledOut {
        played: u32,
        detail: String,
    },
}

/// The row of one deal's grading, as the store keeps it.
fn record(
    job: &Job,
    deal: u64,
    hunted: Result<Hunted, String>,
    took: Duration,
    cpu: Option<Duration>,
) -> anyhow::Result<Record> {
    let cfg = job.cfg;
    // What every row records, graded or ruled out.
    let mut detail = serde_json::json!({
        "seed": cfg.seed,
        "lookahead": LOOKAHEAD,
        "ms": took.as_millis() as u64,
        "cpu_ms": cpu.map(|c| c.as_millis() as u64),
    });
    let grade = match hunted.map_err(|e| anyhow!("deal {deal}: {e}"))? {
        Hunted::Graded(grade) => grade,
        Hunted::RuledOut { wins, played } => {
            detail["wins"] = serde_json::json!(wins);
            detail["played"] = serde_json::json!(played);
            detail["runs"] = serde_json::json!(cfg.runs);
            return Ok(Record::RuledOut {
                played,
                detail: detail.to_string(),
            });
        }
    };
    detail["grade"] = serde_json::json!(grade);
    detail["solve_nodes"] = serde_json::json!(cfg.solve.nodes);
    detail["verdict_reused"] = serde_json::json!(job.known.contains_key(&deal));
    if !job.sought.is_empty() {
        detail["hunt"] = serde_json::json!(job.sought);
    }
    if !cfg.then_nodes.is_empty() {
        detail["then_nodes"] = serde_json::json!(cfg.then_nodes);
    }
    Ok(Record::Graded {
        kept: kept_of(&grade),
        grade: Box::new(grade),
        detail: detail.to_string(),
    })
}

/// Grades one chunk of deals on the pool; this thread stores each grade as it arrives.
#[allow(clippy::too_many_arguments)]
fn grade_chunk(
    job: &Job,
    todo: &[u64],
    pool: &rayon::ThreadPool,
    store: &Store,
    mut library: Option<&mut Appender>,
    summary: &mut Summary,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    let spec = job.spec;
    type Graded = (u64, Result<Hunted, String>, Duration, Option<Duration>);
    let (tx, rx) = mpsc::channel::<Graded>();
    std::thread::scope(|s| -> anyhow::Result<()> {
        s.spawn(move || {
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, &deal| {
                    // One deal is graded on one thread, so its thread's CPU
                    // time is its cost even when other processes share the cores.
                    let (t, cpu) = (Instant::now(), cpu_time::ThreadTime::try_now().ok());
                    let g = job.grade(deal);
                    let cpu = cpu.map(|c| c.elapsed());
                    let _ = tx.send((deal, g, t.elapsed(), cpu));
                })
            })
        });
        for (deal, hunted, took, cpu) in rx {
            match record(job, deal, hunted, took, cpu)? {
                Record::RuledOut { played, detail } => {
                    store.put_ruled_out(spec.id, deal, job.sought, &detail)?;
                    summary.rule_out(played, took, cpu);
                }
                Record::Graded {
                    grade,
                    kept,
                    detail,
                } => {
                    store.put_grade(spec.id, &kept, &detail)?;
                    if let Some(f) = library.as_mut() {
                        f.append(&kept)?;
                    }
                    summary.add(&grade, took, cpu);
                }
            }
            bar.inc(1);
        }
        Ok(())
    })
}

fn progress_bar(spec: &GameSpec, len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {pos}/{len} deals, {elapsed}, eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_message(spec.id);
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}

/// What one game's run measured.
struct Summary {
    deals: u64,
    /// Person-like games played, and the deals they were played on.
    person_games: u64,
    person_deals: u64,
    /// `--enough` stopped the game: each of these levels held this many deals.
    stopped: Option<(u64, Vec<Level>)>,
    levels: BTreeMap<Level, u64>,
    solver_wins: u64,
    solver_losses: u64,
    person_wins: u64,
    deals_person_won: u64,
    /// Deals a hunt ruled out, and the runs it played on them.
    ruled_out: u64,
    ruled_out_runs: u64,
    conflicts: Vec<u64>,
    /// Wall time of each deal's grading, summed.
    cpu: Duration,
    /// CPU time of the grading threads, summed (what other load does not inflate).
    thread_cpu: Duration,
    wall: Duration,
}

impl Summary {
    fn new() -> Summary {
        Summary {
            deals: 0,
            person_games: 0,
            person_deals: 0,
            stopped: None,
            levels: BTreeMap::new(),
            solver_wins: 0,
            solver_losses: 0,
            person_wins: 0,
            deals_person_won: 0,
            ruled_out: 0,
            ruled_out_runs: 0,
            conflicts: Vec::new(),
            cpu: Duration::ZERO,
            thread_cpu: Duration::ZERO,
            wall: Duration::ZERO,
        }
    }

    fn rule_out(&mut self, played: u32, took: Duration, cpu: Option<Duration>) {
        self.thread_cpu += cpu.unwrap_or(took);
        self.cpu += took;
        self.ruled_out += 1;
        self.ruled_out_runs += played as u64;
    }

    fn add(&mut self, g: &Grade, took: Duration, cpu: Option<Duration>) {
        self.thread_cpu += cpu.unwrap_or(took);
        self.deals += 1;
        *self.levels.entry(g.level).or_default() += 1;
        match g.solver {
            SolverVerdict::Win { .. } => self.solver_wins += 1,
            SolverVerdict::NoWin => self.solver_losses += 1,
            SolverVerdict::Unknown { .. } => {}
        }
        self.person_wins += g.person_wins as u64;
        self.person_games += g.runs as u64;
        self.person_deals += (g.runs > 0) as u64;
        self.deals_person_won += (g.person_wins > 0) as u64;
        if g.conflict {
            self.conflicts.push(g.deal);
        }
        self.cpu += took;
    }

    fn print(&self, spec: &GameSpec, first: u64, last: u64, skipped: usize) {
        println!(
            "{} deals {first}..{last}: {} graded now, {skipped} already in the store",
            spec.id, self.deals
        );
        if let Some((n, levels)) = &self.stopped {
            let words: Vec<&str> = levels.iter().map(|l| l.as_str()).collect();
            let (named, verb) = match words.as_slice() {
                [one] => (one.to_string(), "holds"),
                [rest @ .., last] => (format!("{} and {last}", rest.join(", ")), "each hold"),
                [] => (String::new(), "hold"),
            };
            println!("  stopped: {named} {verb} at least {n} deals in the store");
        }
        if self.ruled_out > 0 {
            println!(
                "  hunt: {} deals ruled out after {:.1} runs on average",
                self.ruled_out,
                self.ruled_out_runs as f64 / self.ruled_out as f64
            );
        }
        let examined = self.deals + self.ruled_out;
        if self.deals == 0 {
            if examined > 0 {
                self.print_time(examined);
            }
            return;
        }
        let n = self.deals;
        let pct = |k: u64| format!("{:.1}%", 100.0 * k as f64 / n as f64);
        let (lo, hi) = wilson(self.solver_wins, n);
        println!(
            "  solver wins {} ({}; 95% CI {:.1}%..{:.1}%), proves no win {} ({}), unknown {}",
            self.solver_wins,
            pct(self.solver_wins),
            100.0 * lo,
            100.0 * hi,
            self.solver_losses,
            pct(self.solver_losses),
            n - self.solver_wins - self.solver_losses
        );
        let games = self.person_games;
        let (plo, phi) = wilson(self.person_wins, games);
        println!(
            "  person-like player (played on {} deals) wins {} of {} games ({:.1}%; 95% CI {:.1}%..{:.1}%); wins at least once on {} deals",
            self.person_deals,
            self.person_wins,
            games,
            100.0 * self.person_wins as f64 / games.max(1) as f64,
            100.0 * plo,
            100.0 * phi,
            self.deals_person_won,
        );
        let levels: Vec<String> = Level::ALL
            .iter()
            .map(|l| {
                let k = self.levels.get(l).copied().unwrap_or(0);
                format!("{l} {k} ({})", pct(k))
            })
            .collect();
        println!("  levels: {}", levels.join(", "));
        self.print_time(examined);
        if !self.conflicts.is_empty() {
            println!(
                "  CONFLICT: a player won deals the solver called lost: {:?}",
                self.conflicts
            );
        }
    }

    /// The time line, per 1000 deals graded or ruled out.
    fn print_time(&self, n: u64) {
        println!(
            "  time: {:.1} s wall, {:.1} s of grading; {:.1} s of grading per 1000 deals; {:.1} s of CPU per 1000 deals",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.cpu.as_secs_f64() * 1000.0 / n as f64,
            self.thread_cpu.as_secs_f64() * 1000.0 / n as f64
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_ranges_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_deals("1..200").unwrap(), (1, 200));
        assert_eq!(parse_deals("5..=7").unwrap(), (5, 7));
        assert_eq!(parse_deals("42").unwrap(), (42, 42));
        for bad in ["0..5", "9..3", "a..b", "", "1..4294967296"] {
            assert!(parse_deals(bad).is_err(), "{bad}");
        }
    }
}
