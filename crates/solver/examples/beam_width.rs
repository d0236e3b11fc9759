//! How many deals the beam search wins at a width, with what it spent:
//! how [`patience_solver::search::beam`]'s weights and `Tuning` are measured.
//! `beam_width GAME FIRST LAST WIDTH NODES`.

use patience_engine::{game, Position};
use patience_solver::search::beam;
use patience_solver::{replays_to_win, Budget};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = game(&args[1]).expect("game id");
    let (first, last): (u64, u64) = (args[2].parse().unwrap(), args[3].parse().unwrap());
    let width: usize = args[4].parse().unwrap();
    let nodes: u64 = args[5].parse().unwrap();
    let (mut won, mut spent) = (0, 0u64);
    let begun = std::time::Instant::now();
    let mut which = Vec::new();
    for deal in first..=last {
        let p = Position::deal(spec, deal).unwrap();
        let b = beam::run(
            &p,
            &Budget {
                nodes: Some(nodes),
                ..Budget::default()
            },
            width,
            true,
        );
        spent += b.nodes;
        if let Some(line) = b.win {
            assert!(replays_to_win(&p, &line));
            won += 1;
            which.push(deal);
        }
    }
    println!(
        "{} {first}..{last} width {width}: won {won}, {spent} positions, {:.1} s {which:?}",
        args[1],
        begun.elapsed().as_secs_f64()
    );
}
