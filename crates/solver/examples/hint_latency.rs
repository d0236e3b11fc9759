//! Hint latency over positions sampled along played games of every game.
//!
//! `cargo run --release -p patience-solver --example hint_latency [DEALS] [EVERY]`
//!
//! For each game, deals 1..=DEALS (default 5) are played by the person-like
//! player of the levels (it sees only face-up cards and never undoes), and
//! every EVERY-th position (default 10) is hinted with the site's budget (1 s).
//! When the player sees nothing to do, a random legal move goes on. Prints, per game and overall, the
//! median and 95th percentile latency, the share under 100 ms, and how the
//! hints were answered (solution, heuristic, no win), and the share under
//! 100 ms of the thread's CPU time (wall time on a busy machine also counts
//! the waits for a core; the solver's 1 s budget is wall time). With `HINT_SLOW` set
//! in the environment, each hint of 100 ms or more is listed on stderr.

use std::time::{Duration, Instant};

use patience_engine::prng::SplitMix64;
use patience_engine::{games, Position};
use patience_solver::levels::PersonPlayer;
use patience_solver::stats::percentile;
use patience_solver::{hint, Budget, Hint};

#[path = "common/walk.rs"]
mod walk;
use walk::pick;

/// CPU time this thread has run, in milliseconds. On a shared machine it
/// says how long a hint would take on an idle core, where wall time counts
/// the waits too.
fn cpu_ms() -> f64 {
    cpu_time::ThreadTime::try_now().map_or(0.0, |t| t.as_duration().as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let deals = args.first().copied().unwrap_or(5);
    let every = args.get(1).copied().unwrap_or(10).max(1);
    let budget = Budget {
        time: Some(Duration::from_secs(1)),
        ..Budget::default()
    };
    let mut all = Vec::new();
    println!(
        "{:<28} {:>6} {:>9} {:>9} {:>7}  sol/heur/nowin  <100ms CPU",
        "game", "hints", "median", "p95", "<100ms"
    );
    let mut all_cpu_under = 0;
    for g in games() {
        let mut times = Vec::new();
        let mut cpu_under = 0;
        let (mut sol, mut heur, mut nowin) = (0, 0, 0);
        for deal in 1..=deals {
            let mut pos = Position::deal(g, deal).expect("deal");
            let mut rng = SplitMix64::new(deal);
            let mut player = PersonPlayer::new(deal);
            for ply in 0..600u64 {
                if ply % every == 0 && !pos.is_won() {
                    let (t, c) = (Instant::now(), cpu_ms());
                    let h = hint(&pos, &budget);
                    let ms = t.elapsed().as_secs_f64() * 1000.0;
                    cpu_under += (cpu_ms() - c < 100.0) as usize;
                    times.push(ms);
                    if ms >= 100.0 && std::env::var_os("HINT_SLOW").is_some() {
                        eprintln!("slow: {} deal {deal} ply {ply} {ms:.0} ms {h:?}", g.id);
                    }
                    match h {
                        Hint::Solution(_) => sol += 1,
                        Hint::Heuristic(_) => heur += 1,
                        Hint::NoWin => nowin += 1,
                        Hint::None => {}
                    }
                }
                let Some(m) = pick(&pos, &mut player, &mut rng) else {
                    break;
                };
                if pos.apply(m).is_err() {
                    break;
                }
            }
        }
        times.sort_by(f64::total_cmp);
        let under = times.iter().filter(|&&t| t < 100.0).count();
        println!(
            "{:<28} {:>6} {:>7.1}ms {:>7.1}ms {:>6.1}%  {:<14}  {:>6.1}%",
            g.id,
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            100.0 * under as f64 / times.len().max(1) as f64,
            format!("{sol}/{heur}/{nowin}"),
            100.0 * cpu_under as f64 / times.len().max(1) as f64
        );
        all_cpu_under += cpu_under;
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    let under = all.iter().filter(|&&t| t < 100.0).count();
    println!(
        "{:<28} {:>6} {:>7.1}ms {:>7.1}ms {:>6.1}%  {:<14}  {:>6.1}%",
        "all",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.95),
        100.0 * under as f64 / all.len().max(1) as f64,
        "",
        100.0 * all_cpu_under as f64 / all.len().max(1) as f64
    );
}
