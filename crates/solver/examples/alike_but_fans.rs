//! How many of the positions a full search meets at one stock height are
//! alike but for their fans: the figures behind *A table kept from one test
//! to the next* (under *Why the relaxed games give way*) in
//! `docs/solver.md`. Positions with the same waste and the same foundations
//! hold the same cards in their fans (the stock at one height is the same
//! stock), so a dominance between fan arrangements could merge at most
//! each such class into one.
//!
//! `alike_but_fans GAME DEAL NODES STOCK` runs the full search of a solve's
//! last pass (the piles' and the stock's order tests asked) from the deal
//! within `NODES` positions, keeps every new position it meets with `STOCK`
//! cards left in the stock, and counts their wastes and their wastes with
//! foundations. Built with the `profile` feature, which keeps the sample:
//!
//! ```text
//! cargo run --release -p patience-solver --features profile --example \
//!     alike_but_fans -- krakowski 1 15000000 28
//! ```

#[path = "common/sampled.rs"]
mod sampled;

use std::collections::HashMap;

use patience_engine::{Card, Position};
use sampled::{arguments, sample};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = arguments(&args, 0, "alike_but_fans GAME DEAL NODES STOCK");
    let (deal, nodes, stock) = (a.deal, a.nodes, a.stock);
    let start = Position::deal(a.spec, deal).expect("a deal");
    let Some(waste) = start.layout().waste else {
        eprintln!("{} has no waste", args[1]);
        std::process::exit(2);
    };
    let (_, kept, _) = sample(&start, nodes, stock, 1);

    // A foundation is known by its top card; twins are sorted, as the
    // state key merges them.
    let foundations = |p: &Position| {
        let mut tops: Vec<Option<Card>> = p
            .layout()
            .foundation_ids()
            .map(|f| p.pile(f).last().copied())
            .collect();
        tops.sort_unstable();
        tops
    };
    let mut wastes: HashMap<&[Card], usize> = HashMap::new();
    let mut classes: HashMap<(&[Card], Vec<Option<Card>>), usize> = HashMap::new();
    for p in &kept {
        *wastes.entry(p.pile(waste)).or_default() += 1;
        *classes.entry((p.pile(waste), foundations(p))).or_default() += 1;
    }
    let largest = classes.values().max().copied().unwrap_or(0);
    println!(
        "{} deal {deal}: {} new positions at {stock} stock cards within {nodes}; {} wastes, {} wastes with foundations ({:.1} positions a class, the largest {largest})",
        args[1],
        kept.len(),
        wastes.len(),
        classes.len(),
        kept.len() as f64 / classes.len() as f64,
    );
}
