//! `patience solve GAME --deal N | --position FILE|- [--redeals K] [budgets] [--json] [--best]`.
//!
//! Prints the verdict (`win`, `no-win`, `unknown (nodes|time|memory)`), the
//! moves of a win one a line, and the search's figures. Exit code 0 for a
//! win, 1 for no win, 3 for unknown; errors exit 2.

use std::process::ExitCode;
use std::time::Duration;

use patience_solver::{Budget, Limit, Outcome, Report};
use serde_json::json;

use super::source::PositionArgs;

/// Node, time and memory limits, shared with `survey`.
#[derive(clap::Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Stop after this many positions.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds.
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    /// Transposition table cap in MiB (default 1024).
    #[arg(long = "memory-mb", default_value_t = 1024)]
    pub memory_mb: usize,
}

impl BudgetArgs {
    pub fn budget(&self) -> Budget {
        Budget {
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
            memory_bytes: self.memory_mb.saturating_mul(1 << 20),
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub at: PositionArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also report the most cards that can reach the foundations before the
    /// next redeal, and that line of play.
    #[arg(long)]
    pub best: bool,
}

/// The verdict word used in text and JSON.
pub fn verdict(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Win(_) => "win",
        Outcome::NoWin => "no-win",
        Outcome::Unknown(Limit::Nodes) => "unknown-nodes",
        Outcome::Unknown(Limit::Time) => "unknown-time",
        Outcome::Unknown(Limit::Memory) => "unknown-memory",
    }
}

pub fn run(a: Args) -> super::Outcome {
    let pos = a.at.load()?;
    let budget = a.budget.budget();
    let report: Report = patience_solver::solve(&pos, &budget);
    let layout = pos.layout();
    let moves: Vec<String> = match &report.outcome {
        Outcome::Win(m) => m.iter().map(|m| m.text(layout)).collect(),
        _ => Vec::new(),
    };
    let best = a.best.then(|| patience_solver::best(&pos, &budget));
    let ms = report.elapsed.as_secs_f64() * 1000.0;
    if a.json {
        let mut out = json!({
            "game": pos.spec().id,
            "deal": pos.deal_number(),
            "result": verdict(&report.outcome),
            "moves": moves,
            "nodes": report.nodes,
            "milliseconds": (ms * 1000.0).round() / 1000.0,
            "peak_entries": report.peak_entries,
        });
        if let Some(b) = &best {
            out["best"] = json!({
                "cards": b.cards,
                "complete": b.complete,
                "line": b.line.iter().map(|m| m.text(layout)).collect::<Vec<_>>(),
                "nodes": b.nodes,
                "milliseconds": (b.elapsed.as_secs_f64() * 1e6).round() / 1000.0,
            });
        }
        println!("{out}");
    } else {
        println!("result: {}", verdict(&report.outcome));
        println!(
            "nodes: {}  time: {:.1} ms  peak table entries: {}",
            report.nodes, ms, report.peak_entries
        );
        if !moves.is_empty() {
            println!("moves: {}", moves.len());
            for m in &moves {
                println!("{m}");
            }
        }
        if let Some(b) = &best {
            println!(
                "best before the next redeal: {} cards on the foundations{}",
                b.cards,
                if b.complete {
                    ""
                } else {
                    " (budget spent: a lower bound)"
                }
            );
            for m in &b.line {
                println!("  {}", m.text(layout));
            }
        }
    }
    Ok(ExitCode::from(match report.outcome {
        Outcome::Win(_) => 0,
        Outcome::NoWin => 1,
        Outcome::Unknown(_) => 3,
    }))
}
