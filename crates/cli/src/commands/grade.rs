//! `patience grade`: grades a range of deals into levels, in parallel, into
//! the store, resumably; optionally into the shipped library files.
//!
//! Each deal is graded by `patience_solver::levels::grade_deal` (the solver's
//! verdict, the hint-follower, and `--runs` games of the person-like player).
//! Grades go into the store one by one as they come, so an interrupted run
//! loses nothing, and deals the store already holds for the game are skipped.
//! With `--export DIR` each grade is also appended to `DIR/<game>.tsv`, which
//! is rewritten sorted and without duplicates when the game is done.

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
use patience_solver::Budget;
use rayon::prelude::*;

use super::source::{game, parse_deals};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id, several separated by commas, or `all`.
    pub game: String,
    /// Deals to grade: `A..B` (both ends included) or one number.
    #[arg(long)]
    pub deals: String,
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
    let (first, last) = parse_deals(&a.deals)?;
    let specs = games_of(&a.game)?;
    let cfg = GradeConfig {
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
        let done = store.graded_deals(spec.id)?;
        let todo: Vec<u64> = (first..=last).filter(|d| !done.contains(d)).collect();
        let skipped = (last - first + 1) as usize - todo.len();
        let tsv = a
            .export
            .as_ref()
            .map(|d| d.join(format!("{}.tsv", spec.id)));
        let summary = grade_game(spec, &todo, &cfg, &pool, &store, tsv.as_deref())?;
        summary.print(spec, first, last, skipped);
        if let Some(path) = &tsv {
            tidy_library(path)?;
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Grades `todo` on the pool; this thread stores each grade as it arrives.
fn grade_game(
    spec: &'static GameSpec,
    todo: &[u64],
    cfg: &GradeConfig,
    pool: &rayon::ThreadPool,
    store: &Store,
    tsv: Option<&Path>,
) -> anyhow::Result<Summary> {
    let bar = progress_bar(spec, todo.len());
    let mut library = match tsv {
        Some(path) => Some(open_library(path)?),
        None => None,
    };
    let started = Instant::now();
    let mut summary = Summary::new(cfg.runs);
    let (tx, rx) = mpsc::channel::<(u64, Result<Grade, String>, Duration)>();
    std::thread::scope(|s| -> anyhow::Result<()> {
        s.spawn(move || {
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, &deal| {
                    let t = Instant::now();
                    let g = grade_deal(spec, deal, cfg).map_err(|e| e.to_string());
                    let _ = tx.send((deal, g, t.elapsed()));
                })
            })
        });
        for (deal, grade, took) in rx {
            let grade = grade.map_err(|e| anyhow!("deal {deal}: {e}"))?;
            let detail = serde_json::json!({
                "grade": grade,
                "seed": cfg.seed,
                "solve_nodes": cfg.solve.nodes,
                "hint_nodes": cfg.hint.nodes,
                "often_percent": cfg.often_percent,
                "ms": took.as_millis() as u64,
            });
            store.put_grade(spec.id, deal, grade.level.as_str(), &detail.to_string())?;
            if let Some(f) = library.as_mut() {
                writeln!(f, "{deal}\t{}", grade.level)?;
                f.flush()?;
            }
            summary.add(&grade, took);
            bar.inc(1);
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    summary.wall = started.elapsed();
    Ok(summary)
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

/// Rewrites a library file sorted by deal, one line a deal (the last grade wins).
fn tidy_library(path: &Path) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 || line.trim().is_empty() {
            continue;
        }
        let (deal, level) = line
            .split_once('\t')
            .ok_or_else(|| anyhow!("{}:{}: expected deal<TAB>level", path.display(), i + 1))?;
        let deal: u64 = deal
            .parse()
            .map_err(|_| anyhow!("{}:{}: bad deal number", path.display(), i + 1))?;
        let level = Level::parse(level)
            .ok_or_else(|| anyhow!("{}:{}: unknown level", path.display(), i + 1))?;
        rows.insert(deal, level);
    }
    let mut out = String::from(LIBRARY_HEADER);
    out.push('\n');
    for (deal, level) in rows {
        out.push_str(&format!("{deal}\t{level}\n"));
    }
    let tmp = path.with_extension("tsv.tmp");
    std::fs::write(&tmp, out)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// What one game's run measured.
struct Summary {
    runs: u32,
    deals: u64,
    levels: BTreeMap<Level, u64>,
    solver_wins: u64,
    solver_losses: u64,
    hint_wins: u64,
    person_wins: u64,
    deals_person_won: u64,
    conflicts: Vec<u64>,
    cpu: Duration,
    wall: Duration,
}

impl Summary {
    fn new(runs: u32) -> Summary {
        Summary {
            runs,
            deals: 0,
            levels: BTreeMap::new(),
            solver_wins: 0,
            solver_losses: 0,
            hint_wins: 0,
            person_wins: 0,
            deals_person_won: 0,
            conflicts: Vec::new(),
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
        }
    }

    fn add(&mut self, g: &Grade, took: Duration) {
        self.deals += 1;
        *self.levels.entry(g.level).or_default() += 1;
        match g.solver {
            SolverVerdict::Win { .. } => self.solver_wins += 1,
            SolverVerdict::NoWin => self.solver_losses += 1,
            SolverVerdict::Unknown { .. } => {}
        }
        self.hint_wins += g.hint.is_some_and(|h| h.won()) as u64;
        self.person_wins += g.person_wins as u64;
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
        let games = n * self.runs as u64;
        let (plo, phi) = wilson(self.person_wins, games);
        println!(
            "  person-like player wins {} of {} games ({:.1}%; 95% CI {:.1}%..{:.1}%); wins at least once on {} deals ({})",
            self.person_wins,
            games,
            100.0 * self.person_wins as f64 / games.max(1) as f64,
            100.0 * plo,
            100.0 * phi,
            self.deals_person_won,
            pct(self.deals_person_won)
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
            "  time: {:.1} s wall, {:.1} s of grading; {:.1} s of grading per 1000 deals",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.cpu.as_secs_f64() * 1000.0 / n as f64
        );
        if !self.conflicts.is_empty() {
            println!(
                "  CONFLICT: a player won deals the solver called lost: {:?}",
                self.conflicts
            );
        }
    }
}

/// Wilson score interval at 95% for `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959964_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let centre = p + z * z / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        ((centre - margin) / denom).max(0.0),
        ((centre + margin) / denom).min(1.0),
    )
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

    #[test]
    fn wilson_interval_contains_the_rate_and_stays_in_bounds() {
        let (lo, hi) = wilson(10, 100);
        assert!(lo < 0.1 && 0.1 < hi, "{lo} {hi}");
        assert!(
            (lo - 0.0552).abs() < 0.001 && (hi - 0.1744).abs() < 0.001,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 50);
        assert!(lo == 0.0 && hi > 0.0);
    }
}
