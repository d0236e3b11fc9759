//! The last deal searched apart: the subtree under a redeal that leaves no
//! redeal (a *last pass*), searched as a search of its own with a cap on its
//! positions. [`super::depth_first`] does the searching; this module holds
//! the sampled search the passes run.
//!
//! Why: in a game with redeals a depth-first search plays the first line of
//! the earlier deals to the end, redeals, and then searches everything the
//! last deal offers before it tries another line of the earlier deals. The
//! last passes of one game differ wildly in size: in Nivernaise deal 833 some
//! are won in tens of thousands of positions, while the one a plain search
//! enters first does not finish in hundreds of millions. With a cap, the search
//! leaves a last pass unfinished once it has spent its share there and goes
//! on to the next line of the earlier deals.
//!
//! Each last pass gets a transposition table of its own, dropped when it
//! ends: an unfinished pass's positions must not be taken for searched by a
//! later pass (last passes merge once the stock is out, and a win through
//! such a position would be missed), and the tables together stay within
//! the memory budget (half for the search, half for a last pass).
//!
//! Soundness: a last pass that ends with its stack empty was searched to the
//! end, exactly as in the plain search, and its first position is in the
//! outer table as searched. A search that left any last pass unfinished has
//! not searched everything, so it answers *unknown*, never *no win*; a win
//! found in a last pass is the outer line, the redeal and the pass's line,
//! replayed through the engine like every win.

use patience_engine::Position;

use super::{run, Found, Mode, Settings};
use crate::Budget;

/// Positions each sampled last pass may take in [`sampled`].
pub const SAMPLE_CAP: u64 = 100_000;
/// [`sampled`] searches one last pass in this many, in the order the search
/// reaches them.
pub const SAMPLE_EVERY: u64 = 256;

/// A search of the whole game that searches one last pass in
/// [`SAMPLE_EVERY`] apart, each with at most [`SAMPLE_CAP`] positions, and
/// leaves the others unfinished: a search for a win only (its exhaustion
/// proves nothing while a redeal is left, and it answers *unknown* then).
///
/// One last pass in many suffices: last passes reached one after the other
/// come from nearly the same earlier lines and are nearly alike, so a sample
/// spread over all of them reaches wins that taking them in turn does not
/// (Nivernaise deals 833 and 1099: `patience solve nivernaise --deal 833
/// --nodes 32000000`).
pub fn sampled(pos: &Position, budget: &Budget, dominances: bool) -> Found {
    run(
        pos,
        &Settings {
            budget: budget.clone(),
            mode: Mode::Solve,
            dominances,
            width: None,
            last_pass_nodes: Some(SAMPLE_CAP),
            last_pass_sample: (SAMPLE_EVERY, 0),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::End;
    use patience_engine::prng::SplitMix64;
    use patience_engine::Move;

    fn settings(nodes: u64, last_pass_nodes: Option<u64>, every: u64) -> Settings {
        Settings {
            budget: Budget {
                nodes: Some(nodes),
                ..Budget::default()
            },
            mode: Mode::Solve,
            dominances: true,
            width: None,
            last_pass_nodes,
            last_pass_sample: (every, 0),
        }
    }

    /// A Nivernaise position with one redeal left: the winning line the
    /// solver finds for `deal` played past its first redeal, then `noise`
    /// random moves (deals from the stock included, no redeal), which lose
    /// some of the games. `None` if the deal was not won quickly or its line
    /// has no redeal.
    fn after_first_redeal(deal: u64, noise: usize) -> Option<Position> {
        let spec = patience_engine::game("nivernaise").unwrap();
        let mut p = Position::deal(spec, deal).unwrap();
        let budget = Budget {
            nodes: Some(200_000),
            ..Budget::default()
        };
        let crate::Outcome::Win(line) = crate::solve(&p, &budget).outcome else {
            return None;
        };
        let first = line.iter().position(|&m| m == Move::Redeal)?;
        let end = line[first + 1..]
            .iter()
            .position(|&m| m == Move::Redeal)
            .map_or(line.len(), |i| first + 1 + i);
        let upto = (first + 1 + (deal as usize * 5) % 20).min(end);
        for &m in &line[..upto] {
            p.apply(m).unwrap();
        }
        let mut rng = SplitMix64::new(deal ^ 0x1a57);
        for _ in 0..noise {
            let ms: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| m != Move::Redeal)
                .collect();
            if ms.is_empty() {
                break;
            }
            p.apply(ms[rng.below(ms.len() as u64) as usize]).unwrap();
        }
        (p.redeals_left() == 1).then_some(p)
    }

    /// Random Nivernaise positions with a redeal left, searched plainly and
    /// with every last pass searched apart: the same verdict wherever both
    /// decide, with enough wins and losses among them to mean something. A
    /// sample that skips last passes never answers *no win* unless the plain
    /// search does, and its wins replay. The default run takes the first
    /// deals only; the full sweep: `cargo test -p patience-solver -- --ignored`.
    #[test]
    fn last_passes_searched_apart_keep_every_verdict() {
        keep_every_verdict(20, 1);
    }

    #[test]
    #[ignore = "the full sweep, a minute: cargo test -p patience-solver -- --ignored"]
    fn last_passes_searched_apart_keep_every_verdict_full() {
        keep_every_verdict(60, 8);
    }

    /// The sweep over deals `1..=deals`: each verdict more than `least`
    /// times, the sample's wins more than half that.
    fn keep_every_verdict(deals: u64, least: usize) {
        let (mut won, mut lost, mut sampled_wins) = (0, 0, 0);
        for deal in 1..=deals {
            let Some(p) = after_first_redeal(deal, (deal as usize) % 4 * 10) else {
                continue;
            };
            let plain = run(&p, &settings(400_000, None, 1));
            let apart = run(&p, &settings(400_000, Some(u64::MAX), 1));
            let sample = run(&p, &settings(400_000, Some(2_000), 3));
            let verdict = |e: &End| match e {
                End::Won(_) => Some(true),
                End::Exhausted => Some(false),
                End::Spent(_) => None,
            };
            if let (Some(a), Some(b)) = (verdict(&plain.end), verdict(&apart.end)) {
                assert_eq!(a, b, "deal {deal}: plain {a}, apart {b}");
                if a {
                    won += 1;
                } else {
                    lost += 1;
                }
            }
            if sample.end == End::Exhausted {
                assert_ne!(verdict(&plain.end), Some(true), "deal {deal}");
            }
            for f in [&apart, &sample] {
                if let End::Won(line) = &f.end {
                    assert!(crate::replays_to_win(&p, line), "deal {deal}");
                }
            }
            sampled_wins += matches!(sample.end, End::Won(_)) as usize;
        }
        eprintln!("won {won}, lost {lost}, sampled {sampled_wins}");
        assert!(won > least && lost > least, "won {won}, lost {lost}");
        assert!(sampled_wins > least / 2, "the sample won {sampled_wins}");
    }
}
