//! What the examples that sample a full search share: its arguments, the
//! full search a solve ends with, and the new positions it meets at one
//! stock height (kept with the `profile` feature only).

use patience_engine::{game, GameSpec, Position};
use patience_solver::search::{self, profile, Found, Settings};
use patience_solver::Budget;

/// The arguments every such example begins with: `GAME DEAL NODES STOCK`.
pub struct Sampling {
    pub spec: &'static GameSpec,
    pub deal: u64,
    pub nodes: u64,
    pub stock: usize,
}

/// Reads `GAME DEAL NODES STOCK` from `args` (the program's name first),
/// with `more` arguments at least after them; prints `usage` and exits
/// where they are missing.
pub fn arguments(args: &[String], more: usize, usage: &str) -> Sampling {
    if args.len() < 5 + more {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    Sampling {
        spec: game(&args[1]).expect("a game id"),
        deal: args[2].parse().expect("a deal number"),
        nodes: args[3].parse().expect("a node budget"),
        stock: args[4].parse().expect("a stock height"),
    }
}

/// The full search a solve ends with (the piles' and the stock's order
/// tests asked), within `nodes` positions.
pub fn last_pass(nodes: u64) -> Settings {
    Settings {
        piles_order: true,
        stock_order: true,
        ..Settings::full(Budget::of_nodes(nodes), true)
    }
}

/// Runs the last pass from `start` within `nodes` positions, keeping one
/// new position in `every` of those met with `stock` cards left in the
/// stock: the search's end, the positions kept and how many were met.
/// Exits where none was kept.
pub fn sample(
    start: &Position,
    nodes: u64,
    stock: usize,
    every: u64,
) -> (Found, Vec<Position>, u64) {
    profile::sample_at(stock, every);
    let found = search::run(start, &last_pass(nodes));
    let (kept, met) = profile::sampled();
    if kept.is_empty() {
        eprintln!("no position kept: build with --features profile, or the search met none at {stock} stock cards");
        std::process::exit(1);
    }
    (found, kept, met)
}
