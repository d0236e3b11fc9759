//! Which positions hold a full search's budget, and which of them a relaxed
//! game proves lost: the figures behind *Why the relaxed games give way* in
//! `docs/solver.md`.
//!
//! `subtrees GAME DEAL NODES STOCK EVERY [SUBTREE_NODES]` runs the full
//! search of a solve's last pass (the piles' and the stock's order tests
//! asked) from the deal within `NODES` positions, and keeps one new position
//! in `EVERY` of those it meets with `STOCK` cards left in the stock. Each
//! kept position is searched again alone, within `SUBTREE_NODES` (default
//! 5,000,000), and asked of the stock's order test by suit and with exact
//! foundations. Built with the `profile` feature, which keeps the sample:
//!
//! ```text
//! cargo run --release -p patience-solver --features profile --example \
//!     subtrees -- krakowski 1 15000000 28 160
//! ```

#[path = "common/sampled.rs"]
mod sampled;

use patience_engine::Position;
use patience_solver::prune::stock_order;
use patience_solver::search::{self, End};
use sampled::{arguments, last_pass, sample};

/// One kept position searched again.
struct Subtree {
    nodes: u64,
    end: End,
    /// Lost in the stock's order game by suit (20,000 relaxed positions),
    /// with exact foundations within 1,000 and within 1,000,000.
    relaxed: [bool; 3],
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = arguments(
        &args,
        1,
        "subtrees GAME DEAL NODES STOCK EVERY [SUBTREE_NODES]",
    );
    let (deal, stock) = (a.deal, a.stock);
    let every: u64 = args[5].parse().expect("a sampling interval");
    let subtree_nodes: u64 = args.get(6).map_or(5_000_000, |n| n.parse().expect("nodes"));

    let start = Position::deal(a.spec, deal).expect("a deal");
    let (found, kept, met) = sample(&start, a.nodes, stock, every);
    println!(
        "{} deal {deal}: the full search ({} positions, {}) met {met} new positions at {stock} stock cards; {} kept",
        args[1],
        found.nodes,
        end_word(&found.end),
        kept.len()
    );

    let subtrees: Vec<Subtree> = kept
        .iter()
        .map(|p| {
            let f = search::run(p, &last_pass(subtree_nodes));
            let applies = stock_order::applies(p);
            let dead = |budget, exact| applies && stock_order::is_dead_within_by(p, budget, exact);
            Subtree {
                nodes: f.nodes,
                end: f.end,
                relaxed: [
                    dead(20_000, false),
                    dead(1_000, true),
                    dead(1_000_000, true),
                ],
            }
        })
        .collect();

    let count = |f: &dyn Fn(&Subtree) -> bool| subtrees.iter().filter(|s| f(s)).count();
    let total: u64 = subtrees.iter().map(|s| s.nodes).sum();
    println!(
        "searched again within {subtree_nodes}: {} won, {} lost, {} unknown, {total} positions in all",
        count(&|s| matches!(s.end, End::Won(_))),
        count(&|s| s.end == End::Exhausted),
        count(&|s| matches!(s.end, End::Spent(_))),
    );
    let mut sizes: Vec<u64> = subtrees.iter().map(|s| s.nodes).collect();
    sizes.sort_unstable();
    let tenth = sizes.len().div_ceil(10);
    let largest: u64 = sizes[sizes.len() - tenth..].iter().sum();
    println!(
        "positions a subtree: median {}, largest {}; the largest {tenth} hold {:.0}%",
        sizes[sizes.len() / 2],
        sizes[sizes.len() - 1],
        100.0 * largest as f64 / total.max(1) as f64
    );
    for (i, name) in [
        "by suit within 20,000",
        "exact within 1,000",
        "exact within 1,000,000",
    ]
    .iter()
    .enumerate()
    {
        let held: u64 = subtrees
            .iter()
            .filter(|s| s.relaxed[i])
            .map(|s| s.nodes)
            .sum();
        println!(
            "stock's order game {name}: {} lost, holding {held} of the positions ({:.1}%)",
            count(&|s| s.relaxed[i]),
            100.0 * held as f64 / total.max(1) as f64
        );
    }
}

fn end_word(end: &End) -> &'static str {
    match end {
        End::Won(_) => "won",
        End::Exhausted => "lost",
        End::Spent(_) => "unknown",
    }
}
