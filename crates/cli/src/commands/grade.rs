//! `patience grade`: grades a range of deals into levels, in parallel, into
//! the store, resumably; optionally into the shipped library files.
//!
//! Each deal is graded by `patience_solver::levels::grade_deal` (the solver's
//! verdict, the hint-follower, and `--runs` games of the person-like player).
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

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use patience_engine::GameSpec;
use patience_server::store::Store;
use patience_solver::levels::{grade_deal, Grade, GradeConfig, Level, SolverVerdict};
use patience_solver::stats::wilson;
use patience_solver::Budget;
use rayon::prelude::*;

use super::source::{game, parse_deals};

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
    /// Play the person-like runs also on deals the hint-follower wins (they
    /// cannot change those deals' level; by default they are skipped).
    #[arg(long)]
    pub person_always: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The SQLite store the grades go into (the server's store).
    #[arg(long, default_value = "patience.db")]
    pub db: PathBuf,
    /// Games of the person-like player per deal.
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Seed of the person-like player's tie-breaking.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Person-like wins (percent of runs) that make a deal Easy.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub often: u32,
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
    /// Node budget of each hint the hint-follower asks for.
    #[arg(long, default_value_t = 100_000)]
    pub hint_nodes: u64,
    /// Cap on the solver's table memory per worker, in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory_mb: usize,
    /// Also append the grades to DIR/<game>.tsv (the shipped library).
    #[arg(long)]
    pub export: Option<PathBuf>,
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
        hint: Budget {
            nodes: Some(a.hint_nodes),
            time: None,
            memory_bytes: (a.memory_mb << 20) / 4,
        },
        runs: a.runs,
        seed: a.seed,
        often_percent: a.often,
        max_moves: None,
        person_when_hint_wins: a.person_always,
    };
    let store = Store::open(&a.db).with_context(|| format!("opening {}", a.db.display()))?;
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
            let todo: Vec<u64> = (first..=last).filter(|d| !done.contains(d)).collect();
            let skipped = (last - first + 1) as usize - todo.len();
            let summary = grade_game(spec, &todo, &cfg, &pool, &store, tsv.as_deref(), a.enough)?;
            summary.print(spec, first, last, skipped);
        }
        if let Some(path) = &tsv {
            let grades = store.grades(spec.id)?;
            let lines = merge_library(path, &grades)?;
            println!(
                "{}: {} deals in {} ({} from the store)",
                spec.id,
                lines,
                path.display(),
                grades.len()
            );
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Whether Easy, Medium and Hard each hold at least `n` deals of the game.
fn has_enough(store: &Store, game: &str, n: u64) -> anyhow::Result<bool> {
    let counts = store.level_counts(game)?;
    let count = |l: Level| {
        counts
            .iter()
            .find(|(name, _)| name == l.as_str())
            .map_or(0, |c| c.1)
    };
    Ok([Level::Easy, Level::Medium, Level::Hard]
        .into_iter()
        .all(|l| count(l) >= n))
}

/// Deals graded between two checks of `--enough`, per worker thread: small
/// enough that a stopped game overshoots by little, large enough that the
/// workers rarely wait for the slowest deal of a chunk.
const CHUNK_PER_THREAD: usize = 8;

/// Grades `todo` on the pool; this thread stores each grade as it arrives.
fn grade_game(
    spec: &'static GameSpec,
    todo: &[u64],
    cfg: &GradeConfig,
    pool: &rayon::ThreadPool,
    store: &Store,
    tsv: Option<&Path>,
    enough: Option<u64>,
) -> anyhow::Result<Summary> {
    let bar = progress_bar(spec, todo.len());
    let mut library = match tsv {
        Some(path) => Some(open_library(path)?),
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
            if has_enough(store, spec.id, n)? {
                summary.stopped = Some(n);
                break;
            }
        }
        grade_chunk(
            spec,
            part,
            cfg,
            pool,
            store,
            library.as_mut(),
            &mut summary,
            &bar,
        )?;
    }
    bar.finish_and_clear();
    summary.wall = started.elapsed();
    Ok(summary)
}

/// Grades one chunk of deals on the pool; this thread stores each grade as it arrives.
#[allow(clippy::too_many_arguments)]
fn grade_chunk(
    spec: &'static GameSpec,
    todo: &[u64],
    cfg: &GradeConfig,
    pool: &rayon::ThreadPool,
    store: &Store,
    mut library: Option<&mut std::fs::File>,
    summary: &mut Summary,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    type Graded = (u64, Result<Grade, String>, Duration, Option<Duration>);
    let (tx, rx) = mpsc::channel::<Graded>();
    std::thread::scope(|s| -> anyhow::Result<()> {
        s.spawn(move || {
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, &deal| {
                    let (t, cpu) = (Instant::now(), thread_cpu_time());
                    let g = grade_deal(spec, deal, cfg).map_err(|e| e.to_string());
                    let cpu = cpu.zip(thread_cpu_time()).map(|(a, b)| b.saturating_sub(a));
                    let _ = tx.send((deal, g, t.elapsed(), cpu));
                })
            })
        });
        for (deal, grade, took, cpu) in rx {
            let grade = grade.map_err(|e| anyhow!("deal {deal}: {e}"))?;
            let mut detail = serde_json::json!({
                "grade": grade,
                "seed": cfg.seed,
                "solve_nodes": cfg.solve.nodes,
                "hint_nodes": cfg.hint.nodes,
                "often_percent": cfg.often_percent,
                "ms": took.as_millis() as u64,
                "cpu_ms": cpu.map(|c| c.as_millis() as u64),
            });
            if !cfg.then_nodes.is_empty() {
                detail["then_nodes"] = serde_json::json!(cfg.then_nodes);
            }
            store.put_grade(spec.id, deal, grade.level.as_str(), &detail.to_string())?;
            if let Some(f) = library.as_mut() {
                writeln!(f, "{deal}\t{}", grade.level)?;
                f.flush()?;
            }
            summary.add(&grade, took, cpu);
            bar.inc(1);
        }
        Ok(())
    })
}

/// CPU time this thread has used. One deal is graded on one thread, so the
/// difference around `grade_deal` is its cost even when other processes
/// share the cores (wall time then overstates it). `None` where unsupported.
fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the call's duration.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    {
        None
    }
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

const LIBRARY_HEADER: &str = "deal\tlevel";

/// Opens a library file for appending, writing the header if it is new.
fn open_library(path: &Path) -> anyhow::Result<std::fs::File> {
    let fresh = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    if fresh {
        writeln!(f, "{LIBRARY_HEADER}")?;
    }
    Ok(f)
}

/// Rewrites a library file sorted by deal, one line a deal: its own lines
/// (the last line of a deal wins) merged with `grades`, which win over the
/// file. Returns the number of deals written. A malformed line is an error
/// naming the file and line, and the file is then left as it was.
fn merge_library(path: &Path, grades: &[(u64, Level)]) -> anyhow::Result<usize> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || (i == 0 && line.trim() == LIBRARY_HEADER) {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let (deal, level) = line
            .split_once('\t')
            .ok_or_else(|| anyhow!("{}: expected deal<TAB>level, found `{line}`", at()))?;
        let deal: u64 = deal
            .trim()
            .parse()
            .ok()
            .filter(|d| (1..=patience_engine::MAX_DEAL).contains(d))
            .ok_or_else(|| anyhow!("{}: bad deal number `{deal}`", at()))?;
        let level =
            Level::parse(level).ok_or_else(|| anyhow!("{}: unknown level `{level}`", at()))?;
        rows.insert(deal, level);
    }
    rows.extend(grades.iter().copied());
    let mut out = String::from(LIBRARY_HEADER);
    out.push('\n');
    for (deal, level) in &rows {
        out.push_str(&format!("{deal}\t{level}\n"));
    }
    let tmp = path.with_extension("tsv.tmp");
    std::fs::write(&tmp, out).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(rows.len())
}

/// What one game's run measured.
struct Summary {
    deals: u64,
    /// Person-like games played, and the deals they were played on (the
    /// runs are skipped on deals the hint-follower wins).
    person_games: u64,
    person_deals: u64,
    /// `--enough` stopped the game: each level held this many deals.
    stopped: Option<u64>,
    levels: BTreeMap<Level, u64>,
    solver_wins: u64,
    solver_losses: u64,
    hint_wins: u64,
    person_wins: u64,
    deals_person_won: u64,
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
            hint_wins: 0,
            person_wins: 0,
            deals_person_won: 0,
            conflicts: Vec::new(),
            cpu: Duration::ZERO,
            thread_cpu: Duration::ZERO,
            wall: Duration::ZERO,
        }
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
        self.hint_wins += g.hint.is_some_and(|h| h.won()) as u64;
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
        if let Some(n) = self.stopped {
            println!("  stopped: easy, medium and hard each hold at least {n} deals in the store");
        }
        if self.deals == 0 {
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
        let (hlo, hhi) = wilson(self.hint_wins, n);
        println!(
            "  hint-follower wins {} ({}; 95% CI {:.1}%..{:.1}%)",
            self.hint_wins,
            pct(self.hint_wins),
            100.0 * hlo,
            100.0 * hhi
        );
        let games = self.person_games;
        let (plo, phi) = wilson(self.person_wins, games);
        println!(
            "  person-like player (played on {} deals{}) wins {} of {} games ({:.1}%; 95% CI {:.1}%..{:.1}%); wins at least once on {} deals",
            self.person_deals,
            if self.person_deals < n { ", not on those the hint-follower won" } else { "" },
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
        println!(
            "  time: {:.1} s wall, {:.1} s of grading; {:.1} s of grading per 1000 deals; {:.1} s of CPU per 1000 deals",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.cpu.as_secs_f64() * 1000.0 / n as f64,
            self.thread_cpu.as_secs_f64() * 1000.0 / n as f64
        );
        if !self.conflicts.is_empty() {
            println!(
                "  CONFLICT: a player won deals the solver called lost: {:?}",
                self.conflicts
            );
        }
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
