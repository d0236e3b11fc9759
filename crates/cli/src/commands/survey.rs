//! `patience survey GAME --deals A..B [--jobs N] [--out FILE] [budgets]`.
//!
//! Solves a range of deals in parallel (one rayon task a deal, each with the
//! per-deal budget), shows a progress bar on stderr when it is a terminal,
//! writes one JSON line per deal to `--out` as each deal finishes, and
//! closes with a table: won, lost, unknown (with 95% Wilson intervals on the
//! win rate), median and 95th-percentile time, and positions per second.
//! A range is a unit of work: a large survey splits into ranges run anywhere.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use patience_engine::Position;
use patience_solver::stats::{percentile, wilson};
use patience_solver::{Budget, Outcome};
use rayon::prelude::*;
use serde_json::json;

use super::solve::{verdict, BudgetArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id.
    pub game: String,
    /// Deals to solve, `A..B` inclusive (e.g. `1..1000`).
    #[arg(long)]
    pub deals: String,
    /// Parallel jobs (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// File for one JSON line per deal.
    #[arg(long)]
    pub out: Option<String>,
    /// Redeals left to use (at most the game's count).
    #[arg(long)]
    pub redeals: Option<u8>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Node budgets tried in turn on a deal still unknown, e.g.
    /// `--nodes 2000000 --then-nodes 64000000`: most deals are decided
    /// cheaply, and only the few that are not pay for the large budget
    /// (a solve's passes take shares of its budget, so one large budget
    /// slows the easy deals too). Each budget must exceed the one before.
    #[arg(long = "then-nodes", value_delimiter = ',')]
    pub then_nodes: Vec<u64>,
}

/// One deal's result.
struct Row {
    cpu_ms: f64,
    verdict: &'static str,
    won: Option<bool>,
    moves: usize,
    nodes: u64,
    ms: f64,
    peak: usize,
}

/// The budgets a deal still unknown is solved with in turn, one a
/// `--then-nodes` figure, each larger than the last.
pub(super) fn budgets(first: &Budget, then: &[u64]) -> anyhow::Result<Vec<Budget>> {
    let mut all: Vec<Budget> = Vec::new();
    for &n in then {
        let before = all.last().unwrap_or(first).nodes;
        match before {
            None => bail!("--then-nodes needs --nodes (a first budget to go beyond)"),
            Some(b) if n <= b => {
                bail!("--then-nodes {n}: each budget must exceed the one before ({b})")
            }
            _ => all.push(Budget {
                nodes: Some(n),
                ..first.clone()
            }),
        }
    }
    Ok(all)
}

pub fn run(a: Args) -> super::Outcome {
    let spec = super::source::game(&a.game)?;
    let (first, last) = super::source::parse_deals(&a.deals)?;
    let count = last - first + 1;
    if count > 10_000_000 {
        bail!("--deals {}: at most ten million deals a run", a.deals);
    }
    if let Some(k) = a.redeals {
        if k > spec.redeals_allowed() {
            bail!(
                "--redeals {k}: {} allows {}",
                spec.id,
                spec.redeals_allowed()
            );
        }
    }
    let budget = a.budget.budget();
    // Each budget above the last; the solver tries them in turn.
    budgets(&budget, &a.then_nodes)?;
    let out = match &a.out {
        Some(p) => Some(Mutex::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {p}"))?,
        ))),
        None => None,
    };
    let bar = ProgressBar::new(count);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} deals {elapsed} (eta {eta}) {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let started = Instant::now();
    let rows: Vec<anyhow::Result<Row>> = pool.install(|| {
        (first..=last)
            .into_par_iter()
            .map(|deal| {
                let mut pos = Position::deal(spec, deal)?;
                if let Some(k) = a.redeals {
                    pos = pos.with_redeals_left(k)?;
                }
                let cpu = cpu_time::ThreadTime::try_now().ok();
                let r = patience_solver::solve_escalating(&pos, &budget, &a.then_nodes);
                let cpu_ms = cpu.map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
                let row = Row {
                    cpu_ms,
                    verdict: verdict(&r.outcome),
                    won: match r.outcome {
                        Outcome::Win(_) => Some(true),
                        Outcome::NoWin => Some(false),
                        Outcome::Unknown(_) => None,
                    },
                    moves: match &r.outcome {
                        Outcome::Win(m) => m.len(),
                        _ => 0,
                    },
                    nodes: r.nodes,
                    ms: r.elapsed.as_secs_f64() * 1000.0,
                    peak: r.peak_entries,
                };
                if let Some(out) = &out {
                    let line = json!({
                        "game": spec.id, "deal": deal, "result": row.verdict,
                        "moves": row.moves, "nodes": row.nodes,
                        "milliseconds": (row.ms * 1000.0).round() / 1000.0,
                        "cpu_milliseconds": (row.cpu_ms * 1000.0).round() / 1000.0,
                        "peak_entries": row.peak,
                    });
                    if let Ok(mut w) = out.lock() {
                        writeln!(w, "{line}")?;
                    }
                }
                bar.inc(1);
                Ok(row)
            })
            .collect()
    });
    bar.finish_and_clear();
    if let Some(out) = out {
        out.into_inner()
            .map_err(|_| anyhow::anyhow!("a worker failed while writing"))?
            .flush()
            .context("writing the survey file")?;
    }
    let wall = started.elapsed().as_secs_f64();
    let rows: Vec<Row> = rows.into_iter().collect::<anyhow::Result<_>>()?;
    let won = rows.iter().filter(|r| r.won == Some(true)).count();
    let lost = rows.iter().filter(|r| r.won == Some(false)).count();
    let unknown = rows.len() - won - lost;
    let mut times: Vec<f64> = rows.iter().map(|r| r.ms).collect();
    times.sort_by(f64::total_cmp);
    let mut cpu: Vec<f64> = rows.iter().map(|r| r.cpu_ms).collect();
    cpu.sort_by(f64::total_cmp);
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let cpu_s: f64 = cpu.iter().sum::<f64>() / 1000.0;
    let n = rows.len();
    let (lo, hi) = wilson(won as u64, n as u64);
    let (dlo, dhi) = wilson(won as u64, (won + lost) as u64);
    println!("game       {}  deals {}..{}  ({n})", spec.id, first, last);
    println!(
        "won        {won:>8}  {:.1}%  (95% CI {:.1}%..{:.1}%, unknown counted as not won)",
        100.0 * won as f64 / n as f64,
        100.0 * lo,
        100.0 * hi
    );
    if unknown > 0 && won + lost > 0 {
        println!(
            "           of decided deals {:.1}% (95% CI {:.1}%..{:.1}%)",
            100.0 * won as f64 / (won + lost) as f64,
            100.0 * dlo,
            100.0 * dhi
        );
    }
    println!("lost       {lost:>8}");
    println!("unknown    {unknown:>8}");
    println!(
        "time/deal  median {:.2} ms  p95 {:.2} ms  max {:.2} ms  (wall clock)",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times.last().copied().unwrap_or(0.0)
    );
    println!(
        "cpu/deal   median {:.2} ms  p95 {:.2} ms  max {:.2} ms  (thread CPU time)",
        percentile(&cpu, 0.5),
        percentile(&cpu, 0.95),
        cpu.last().copied().unwrap_or(0.0)
    );
    println!(
        "positions  {nodes}  {:.2} M/s per core (CPU time)  {:.1} s CPU, {:.1} s wall, {} jobs",
        if cpu_s > 0.0 {
            nodes as f64 / cpu_s / 1e6
        } else {
            0.0
        },
        cpu_s,
        wall,
        pool.current_num_threads()
    );
    Ok(ExitCode::SUCCESS)
}
