//! `patience play`: a player plays a range of deals, N runs each, and the
//! win rate comes out with its 95% interval. It is how the person-like
//! player's calibration is reproduced (`--player person`), and how the
//! hint-follower compares (`--player hint`).
//!
//! Each run of the person-like player is seeded by (seed, deal, run) exactly
//! as grading seeds it, so `play --seed S --runs 20` wins the same games
//! `grade --seed S` counts. The hint-follower is deterministic: its runs on
//! one deal are the same game, so it plays one run a deal whatever `--runs`
//! says.

use anyhow::Context;
use patience_engine::Position;
use patience_solver::levels::grade::run_seed;
use patience_solver::levels::{follow_hints, move_limit, play_as, PersonPlayer, LOOKAHEAD};
use patience_solver::Budget;
use rayon::prelude::*;

use super::source::{game, parse_deals};
use patience_solver::stats::wilson;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// The person-like player (sees only face-up cards, never undoes).
    Person,
    /// The hint-follower (plays whatever the hint shows).
    Hint,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id (see `patience games`).
    pub game: String,
    /// Deals to play: `A..B` (both ends included) or one number.
    #[arg(long)]
    pub deals: String,
    #[arg(long, value_enum, default_value_t = Player::Person)]
    pub player: Player,
    /// Games per deal (the hint-follower plays one: it is deterministic).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Seed of the person-like player's choices among near-equal lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The person-like player's look-ahead budget (positions per decision, on average);
    /// levels are graded at the default, so change it only to calibrate.
    #[arg(long, default_value_t = LOOKAHEAD)]
    pub lookahead: u32,
    /// Node budget of each hint the hint-follower asks for.
    #[arg(long, default_value_t = 100_000)]
    pub hint_nodes: u64,
    /// Print only the closing line, not a line per deal.
    #[arg(long)]
    pub quiet: bool,
}

/// One deal's runs.
struct Played {
    deal: u64,
    wins: u32,
    runs: u32,
    home: usize,
}

pub fn run(a: Args) -> super::Outcome {
    let spec = game(&a.game)?;
    let (first, last) = parse_deals(&a.deals)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let max_moves = move_limit(spec);
    let runs = match a.player {
        Player::Person => a.runs,
        Player::Hint => 1,
    };
    let hint = Budget::of_nodes(a.hint_nodes);
    let played: Vec<Played> = pool.install(|| {
        (first..=last)
            .into_par_iter()
            .map(|deal| -> anyhow::Result<Played> {
                let pos = Position::deal(spec, deal)?;
                let (mut wins, mut home) = (0, 0);
                for run in 0..runs {
                    let (won, h) = match a.player {
                        Player::Person => {
                            let p = PersonPlayer::with_lookahead(
                                run_seed(a.seed, deal, run),
                                a.lookahead,
                            );
                            let g = play_as(&pos, p, max_moves);
                            (g.won, g.home)
                        }
                        Player::Hint => {
                            let f = follow_hints(&pos, &hint, max_moves);
                            (f.won(), f.home)
                        }
                    };
                    wins += won as u32;
                    home += h;
                }
                Ok(Played {
                    deal,
                    wins,
                    runs,
                    home,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    let (mut wins, mut games, mut home, mut deals_won) = (0usize, 0usize, 0usize, 0usize);
    for p in &played {
        if !a.quiet {
            println!(
                "{}\t{} of {}\t{:.1} cards home",
                p.deal,
                p.wins,
                p.runs,
                p.home as f64 / p.runs as f64
            );
        }
        wins += p.wins as usize;
        games += p.runs as usize;
        home += p.home;
        deals_won += (p.wins > 0) as usize;
    }
    let (lo, hi) = wilson(wins as u64, games as u64);
    let who = match a.player {
        Player::Person => format!("person-like player (look-ahead {})", a.lookahead),
        Player::Hint => format!("hint-follower ({} nodes a hint)", a.hint_nodes),
    };
    println!(
        "{} deals {first}..{last}, {who}: {wins} of {games} games won ({:.1}%; 95% CI {:.1}%..{:.1}%), {:.1} cards home on average, won at least once on {deals_won} of {} deals",
        spec.id,
        100.0 * wins as f64 / games.max(1) as f64,
        100.0 * lo,
        100.0 * hi,
        home as f64 / games.max(1) as f64,
        played.len(),
    );
    Ok(std::process::ExitCode::SUCCESS)
}
