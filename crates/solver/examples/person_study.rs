//! How far the person-like player gets: cards home at the end of each run.
//! `person_study GAME FIRST LAST RUNS`.

use patience_engine::{game, Position};
use patience_solver::levels::{PersonPlayer, View};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = game(&args[1]).expect("game id");
    let (first, last): (u64, u64) = (args[2].parse().unwrap(), args[3].parse().unwrap());
    let runs: u64 = args[4].parse().unwrap();
    let (mut won, mut home, mut games) = (0, 0, 0);
    for deal in first..=last {
        for run in 0..runs {
            let mut p = Position::deal(spec, deal).unwrap();
            let mut player = PersonPlayer::new(deal * 1000 + run);
            for _ in 0..5000 {
                let Some(mv) = player.choose(&View::of(&p)) else {
                    break;
                };
                if p.apply(mv).is_err() {
                    break;
                }
            }
            games += 1;
            home += p.foundation_cards();
            won += p.is_won() as u32;
        }
    }
    println!(
        "{} {first}..{last}: {won} of {games} won, {:.1} cards home on average",
        args[1],
        home as f64 / games as f64
    );
}
