//! Engine speed, per game: applied moves per second in random playouts, and
//! legal-move generations per second.
//!
//! A random playout generates the legal moves, picks one with SplitMix64,
//! applies it, and starts again from the deal when the position is won or
//! stuck (or after a long game, so that games whose foundations give cards
//! back cannot wander forever). The goal for La Belle Lucie is at least five
//! million applied moves per second on one core.
//!
//! Run: `cargo bench -p patience-engine --bench playout` (add a game id after
//! `--` to run one game, e.g. `-- la-belle-lucie`).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use patience_engine::prng::SplitMix64;
use patience_engine::{games, Move, Position};

/// Steps per benchmark iteration.
const STEPS: u64 = 10_000;
/// A playout longer than this starts again from the deal.
const LONGEST_GAME: usize = 2_000;

/// Random playouts from successive deals of one game; `steps` applied moves.
struct Playout {
    start: Position,
    pos: Position,
    deal: u64,
    moves: Vec<Move>,
    rng: SplitMix64,
    length: usize,
}

impl Playout {
    fn new(pos: Position) -> Playout {
        Playout {
            start: pos.clone(),
            pos,
            deal: 1,
            moves: Vec::with_capacity(64),
            rng: SplitMix64::new(1),
            length: 0,
        }
    }

    fn restart(&mut self) {
        self.deal += 1;
        self.pos =
            Position::deal(self.start.spec(), self.deal).unwrap_or_else(|_| self.start.clone());
        self.length = 0;
    }

    /// Applies `steps` moves; returns the number of deals started.
    fn run(&mut self, steps: u64) -> u64 {
        let mut restarts = 0;
        for _ in 0..steps {
            self.pos.legal_moves_into(&mut self.moves);
            if self.moves.is_empty() || self.length >= LONGEST_GAME {
                self.restart();
                restarts += 1;
                self.pos.legal_moves_into(&mut self.moves);
            }
            let mv = self.moves[self.rng.below(self.moves.len() as u64) as usize];
            let undo = self.pos.apply(mv).expect("generated moves are legal");
            black_box(&undo);
            self.length += 1;
        }
        restarts
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1200))
        .sample_size(10)
        .throughput(Throughput::Elements(STEPS));
    for g in games() {
        let mut p = Playout::new(Position::deal(g, 1).expect("deal 1 exists"));
        group.bench_function(format!("apply/{}", g.id), |b| b.iter(|| p.run(STEPS)));
    }
    for g in games() {
        // Legal-move generation over positions met in random play.
        let mut p = Playout::new(Position::deal(g, 1).expect("deal 1 exists"));
        let mut sample = Vec::new();
        for _ in 0..250 {
            p.run(7);
            sample.push(p.pos.clone());
        }
        let mut out = Vec::with_capacity(64);
        group.bench_function(format!("generate/{}", g.id), |b| {
            b.iter(|| {
                let mut n = 0;
                for _ in 0..STEPS / sample.len() as u64 {
                    for pos in &sample {
                        pos.legal_moves_into(&mut out);
                        n += out.len();
                    }
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
