//! A fixed amount of random play, for counting instructions and cycles per
//! move with `perf stat` (steadier than timings on a shared machine):
//!
//! `cargo build --release -p patience-engine --example playout &&
//!  perf stat -e instructions:u,cycles:u target/release/examples/playout la-belle-lucie 2000000`
//!
//! Random play as in `benches/playout.rs`: generate the legal moves, pick one
//! with SplitMix64, apply it; start the next of 16 deals when stuck or won.

use patience_engine::prng::SplitMix64;
use patience_engine::{game, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "la-belle-lucie".into());
    let steps: u64 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let Some(spec) = game(&id) else {
        eprintln!("unknown game `{id}`");
        std::process::exit(2);
    };
    let starts: Vec<Position> = (1..=16)
        .filter_map(|d| Position::deal(spec, d).ok())
        .collect();
    let mut pos = starts[0].clone();
    let (mut next, mut games, mut moves) = (1, 1u64, Vec::with_capacity(64));
    let mut rng = SplitMix64::new(1);
    let mut checksum = 0u64;
    for _ in 0..steps {
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            pos.clone_from(&starts[next]);
            next = (next + 1) % starts.len();
            games += 1;
            pos.legal_moves_into(&mut moves);
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        if pos.apply(mv).is_err() {
            eprintln!("generated move refused");
            std::process::exit(1);
        }
        checksum ^= pos.hash();
    }
    println!("{id}: {steps} moves applied in {games} games (checksum {checksum:x})");
}
