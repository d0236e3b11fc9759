//! How the hint-follower's games end, deal by deal: won, no win left (the
//! hint proved it), no move, a position come back (the hints went round in
//! circles), or the move limit.
//!
//! `cargo run --release -p patience-solver --example follow_ends GAME FIRST LAST [NODES]`
//!
//! Follows the hint on deals FIRST..=LAST of GAME with NODES positions a
//! hint (default 100,000, as `patience play --player hint`), printing each
//! game's end, moves, heuristic moves and cards home, then the count of
//! each end.

use std::collections::BTreeMap;

use patience_engine::{game, Position};
use patience_solver::levels::{follow_hints, move_limit};
use patience_solver::Budget;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: follow_ends GAME FIRST LAST [NODES]";
    let spec = args.first().and_then(|id| game(id)).expect(usage);
    let number = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (first, last) = (number(1).expect(usage), number(2).expect(usage));
    let budget = Budget::of_nodes(number(3).unwrap_or(100_000));
    let mut ends = BTreeMap::new();
    for deal in first..=last {
        let pos = Position::deal(spec, deal).expect("a deal number");
        let f = follow_hints(&pos, &budget, move_limit(spec));
        *ends.entry(format!("{:?}", f.end)).or_insert(0) += 1;
        println!(
            "{deal}\t{:?}\t{} moves\t{} heuristic\t{} home",
            f.end, f.moves, f.heuristic_moves, f.home
        );
    }
    println!("{} deals {first}..{last}: {ends:?}", spec.id);
}
