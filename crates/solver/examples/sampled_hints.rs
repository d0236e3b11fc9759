//! The positions the hint-latency benchmark samples in one game, each solved
//! with a node budget, to study the ones it cannot decide.
//!
//! `cargo run --release -p patience-solver --example sampled_hints GAME DEAL [EVERY] [NODES] [PLY]`
//!
//! Plays DEAL of GAME as `hint_latency` does (the person-like player, a
//! random move when it sees none) and solves every EVERY-th position
//! (default 10) with NODES positions (default 2,000,000), printing the ply,
//! the cards home, the outcome, the positions searched and the CPU-bound
//! wall time. With PLY, prints that position's text instead.

use std::time::Instant;

use patience_engine::prng::SplitMix64;
use patience_engine::{game, Position};
use patience_solver::levels::PersonPlayer;
use patience_solver::{solve, Budget, Outcome};

#[path = "common/walk.rs"]
mod walk;
use walk::pick;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = game(args.first().map_or("krakowski", |s| s.as_str())).expect("game id");
    let num = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (deal, every, nodes) = (num(1, 1), num(2, 10).max(1), num(3, 2_000_000));
    let show = args.get(4).and_then(|a| a.parse::<u64>().ok());
    let mut pos = Position::deal(spec, deal).expect("deal");
    let mut rng = SplitMix64::new(deal);
    let mut player = PersonPlayer::new(deal);
    for ply in 0..600u64 {
        if show == Some(ply) {
            println!("{}", pos.to_text());
            return;
        }
        if show.is_none() && ply % every == 0 && !pos.is_won() {
            let t = Instant::now();
            let r = solve(
                &pos,
                &Budget {
                    nodes: Some(nodes),
                    ..Budget::default()
                },
            );
            let what = match r.outcome {
                Outcome::Win(_) => "win".to_string(),
                Outcome::NoWin => "no-win".to_string(),
                Outcome::Unknown(l) => format!("unknown-{l:?}"),
            };
            println!(
                "ply {ply:>4} home {:>3} {what:<16} {:>10} positions {:>9.1} ms",
                pos.foundation_cards(),
                r.nodes,
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
        let Some(m) = pick(&pos, &mut player, &mut rng) else {
            break;
        };
        if pos.apply(m).is_err() {
            break;
        }
    }
}
