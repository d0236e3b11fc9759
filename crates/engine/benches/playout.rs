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

use criterion::{black_box, criterion_group, Criterion, Throughput};
use patience_engine::prng::SplitMix64;
use patience_engine::{games, GameSpec, Move, Position};

/// Steps per benchmark iteration.
const STEPS: u64 = 10_000;
/// A playout longer than this starts again from the deal.
const LONGEST_GAME: usize = 2_000;

/// Deals a playout cycles through.
const DEALS: u64 = 16;

/// Random playouts of the first deals of one game, in turn.
struct Playout {
    starts: Vec<Position>,
    next: usize,
    pos: Position,
    moves: Vec<Move>,
    rng: SplitMix64,
    length: usize,
}

impl Playout {
    fn new(spec: &'static GameSpec) -> Playout {
        let starts: Vec<Position> = (1..=DEALS)
            .map(|d| Position::deal(spec, d).expect("deal exists"))
            .collect();
        Playout {
            pos: starts[0].clone(),
            starts,
            next: 1,
            moves: Vec::with_capacity(64),
            rng: SplitMix64::new(1),
            length: 0,
        }
    }

    /// Starts the next deal (a copy of its opening position, made in advance
    /// so that dealing is not what is measured).
    fn restart(&mut self) {
        self.pos.clone_from(&self.starts[self.next]);
        self.next = (self.next + 1) % self.starts.len();
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
        let mut p = Playout::new(g);
        group.bench_function(format!("apply/{}", g.id), |b| b.iter(|| p.run(STEPS)));
    }
    for g in games() {
        // Legal-move generation over positions met in random play.
        let mut p = Playout::new(g);
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

/// CPU time this thread has run; `None` where the system cannot say.
fn cpu_time() -> Option<Duration> {
    cpu_time::ThreadTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

/// Rates per second of CPU time, which on a busy shared machine say more
/// about one core than wall-clock time does.
fn cpu_rates() {
    const N: u64 = 400_000;
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!("\nper second of CPU time on one core ({N} steps each):");
    println!(
        "{:<28} {:>14} {:>16}",
        "game", "applied moves", "generations"
    );
    for g in games() {
        if !filter.is_empty()
            && !filter
                .iter()
                .any(|f| g.id.contains(f.trim_end_matches('$')))
        {
            continue;
        }
        let mut p = Playout::new(g);
        let (Some(t0), wall) = (cpu_time(), std::time::Instant::now()) else {
            return;
        };
        p.run(N);
        let apply = cpu_time().map_or(wall.elapsed(), |t| t - t0);
        let mut out = Vec::with_capacity(64);
        let sample: Vec<Position> = (0..250)
            .map(|_| {
                p.run(7);
                p.pos.clone()
            })
            .collect();
        let t1 = cpu_time().unwrap_or_default();
        let mut n = 0;
        for _ in 0..N / 250 {
            for pos in &sample {
                pos.legal_moves_into(&mut out);
                n += out.len();
            }
        }
        black_box(n);
        let generate = cpu_time().unwrap_or_default() - t1;
        let rate = |d: Duration| N as f64 / d.as_secs_f64() / 1e6;
        println!(
            "{:<28} {:>12.2} M {:>14.2} M",
            g.id,
            rate(apply),
            rate(generate)
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    cpu_rates();
}
