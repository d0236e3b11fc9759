//! How many deals the stock's order test proves lost at their start, by
//! budget, with foundations counted by suit and with exact foundations:
//! the figures behind the `Relaxed` pass's budgets (`passes.rs`).
//! `relaxed_at_start GAME FIRST LAST`.

use std::time::{Duration, Instant};

use patience_engine::{game, Position};
use patience_solver::prune::stock_order;

/// Relaxed positions tried, by suit and then exact, each larger budget only
/// on the deals the smaller left alive.
const BUDGETS: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = game(&args[1]).expect("game id");
    let (first, last): (u64, u64) = (args[2].parse().unwrap(), args[3].parse().unwrap());
    let mut lost = std::collections::BTreeSet::new();
    for exact in [false, true] {
        let mut dead = [0usize; BUDGETS.len()];
        let mut slowest = Duration::ZERO;
        let begun = Instant::now();
        for deal in first..=last {
            let p = Position::deal(spec, deal).unwrap();
            if !stock_order::applies(&p) {
                continue;
            }
            let t = Instant::now();
            if let Some(i) = BUDGETS
                .iter()
                .position(|&b| stock_order::is_dead_within_by(&p, b, exact))
            {
                dead[i] += 1;
                lost.insert(deal);
            }
            slowest = slowest.max(t.elapsed());
        }
        let foundations = if exact { "exact" } else { "by suit" };
        let within: Vec<String> = BUDGETS
            .iter()
            .zip(dead.iter().scan(0, |n, d| {
                *n += d;
                Some(*n)
            }))
            .map(|(b, n)| format!("{n} within {b}"))
            .collect();
        println!(
            "{} {first}..{last}, foundations {foundations}: lost at the start {}; {:.1} s in all, at most {:.2} s a deal",
            args[1],
            within.join(", "),
            begun.elapsed().as_secs_f64(),
            slowest.as_secs_f64()
        );
    }
    println!("lost at the start by either: {}", lost.len());
}
