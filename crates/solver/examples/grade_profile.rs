//! Where grading time goes: the solver, the hint-follower and the person-like
//! runs of `grade_deal`, timed apart, per game and per level.
//!
//! `cargo run --release -p patience-solver --example grade_profile GAME FIRST LAST`
//!
//! Uses the shipped library's budgets (solver 300,000 nodes, hint 30,000, 20
//! runs, seed 1), so the figures are those of `patience grade` with the
//! library's command. Prints one total line per part and per level, in ms per
//! deal, so a speed-up can be aimed at the part that costs.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use patience_engine::Position;
use patience_solver::levels::grade::run_seed;
use patience_solver::levels::{
    follow_hints, play_like_a_person, Level, LevelOfEvidence, SolverVerdict,
};
use patience_solver::{solve, Budget};

#[derive(Default)]
struct Parts {
    deals: u32,
    solve: Duration,
    hint: Duration,
    person: Duration,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("la-belle-lucie");
    let first: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let last: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(50);
    let Some(spec) = patience_engine::game(game) else {
        eprintln!("unknown game {game}");
        std::process::exit(2);
    };
    let solve_budget = Budget {
        nodes: Some(300_000),
        time: None,
        memory_bytes: 256 << 20,
    };
    let hint_budget = Budget {
        nodes: Some(30_000),
        time: None,
        memory_bytes: 64 << 20,
    };
    let runs = 20;
    let max_moves = patience_solver::levels::move_limit(spec);
    let mut by_level: BTreeMap<Level, Parts> = BTreeMap::new();
    for deal in first..=last {
        let Ok(pos) = Position::deal(spec, deal) else {
            continue;
        };
        let t = Instant::now();
        let report = solve(&pos, &solve_budget);
        let solve_t = t.elapsed();
        let verdict = match report.outcome {
            patience_solver::Outcome::Win(ref m) => SolverVerdict::Win {
                moves: Some(m.len()),
            },
            patience_solver::Outcome::NoWin => SolverVerdict::NoWin,
            patience_solver::Outcome::Unknown(_) => SolverVerdict::Unknown { limit: "nodes" },
        };
        let t = Instant::now();
        // Timed beside the levels' own cost: the hint-follower's games are what
        // a player who follows every hint plays; the levels do not use them.
        let _followed =
            (verdict != SolverVerdict::NoWin).then(|| follow_hints(&pos, &hint_budget, max_moves));
        let hint_t = t.elapsed();
        let t = Instant::now();
        let wins = (0..runs)
            .filter(|&r| play_like_a_person(&pos, run_seed(1, deal, r), max_moves).won)
            .count() as u32;
        let person_t = t.elapsed();
        let level = Level::from_evidence(&verdict, wins, runs);
        let p = by_level.entry(level).or_default();
        p.deals += 1;
        p.solve += solve_t;
        p.hint += hint_t;
        p.person += person_t;
    }
    let ms = |d: Duration, n: u32| d.as_secs_f64() * 1000.0 / n.max(1) as f64;
    let mut all = Parts::default();
    println!("{game} deals {first}..{last}: ms per deal (solver / hint-follower / 20 person runs)");
    for (level, p) in &by_level {
        println!(
            "  {:<10} {:>5} deals  {:>8.1} {:>8.1} {:>8.1}",
            level.as_str(),
            p.deals,
            ms(p.solve, p.deals),
            ms(p.hint, p.deals),
            ms(p.person, p.deals)
        );
        all.deals += p.deals;
        all.solve += p.solve;
        all.hint += p.hint;
        all.person += p.person;
    }
    println!(
        "  {:<10} {:>5} deals  {:>8.1} {:>8.1} {:>8.1}   total s: {:.1} {:.1} {:.1}",
        "all",
        all.deals,
        ms(all.solve, all.deals),
        ms(all.hint, all.deals),
        ms(all.person, all.deals),
        all.solve.as_secs_f64(),
        all.hint.as_secs_f64(),
        all.person.as_secs_f64()
    );
}
