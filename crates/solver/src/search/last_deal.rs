//! The last deal searched apart: the subtree under a redeal that leaves no
//! redeal (a *last pass*), searched as a search of its own with a cap on its
//! positions. [`super::depth_first`] does the searching; this module holds
//! the two sampled searches the passes run.
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

use super::{run, End, Found, Mode, Settings};
use crate::Budget;

/// One way of sampling the last passes: the moves tried at each position
/// before the last deal, one last pass searched in `every` (in the order
/// the search reaches them), each with at most `cap` positions.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub width: Option<usize>,
    pub every: u64,
    pub cap: u64,
}

/// The narrow sample, run first on half the budget: the three best-ordered
/// moves of each position before the last deal, one last pass in 16, each
/// at most 25,000 positions.
pub const NARROW: Sample = Sample {
    width: Some(3),
    every: 16,
    cap: 25_000,
};

/// The wide sample, run on what the narrow one leaves: every move before
/// the last deal, one last pass in 256, each at most 100,000 positions.
/// A denser sample wins the deals it is weighed on and no more elsewhere:
/// one in 32 at most 200,000 positions each wins 7 of the 15 Novomanernaya
/// deals of 1..1000 and 20001..20300 this one leaves unknown at 10 s a
/// deal, but leaves 5 of 30001..30300 unknown where this one leaves 4, and
/// at 15,000,000 positions 23 of 1..1000 and 12 of 20001..20300 where this
/// one leaves 21 and 9 (`bench/solver/frontier.sh` with each build).
pub const WIDE: Sample = Sample {
    width: None,
    every: 256,
    cap: 100_000,
};

/// The [`NARROW`] sample on half the budget, then the [`WIDE`] sample on
/// the rest. Each searches the whole game and each last pass it takes
/// apart, at every width, and leaves the other last passes unfinished, but
/// for those dead at their first position: the dead test cuts those, as in
/// the plain search, so they count as searched to their end. So the wide
/// sample proves a loss where every last pass it meets is dead at its start
/// or taken and searched to its end; the narrow one, which leaves moves
/// out, never does.
///
/// One last pass in many suffices: last passes reached one after the other
/// come from nearly the same earlier lines and are nearly alike, so a sample
/// spread over all of them reaches wins that taking them in turn does not
/// (Nivernaise deals 833 and 1099: `patience solve nivernaise --deal 833
/// --nodes 32000000`).
///
/// Why two samples: at full width a depth-first search spends any budget on
/// the variations of its first few moves, so every last pass the wide
/// sample reaches follows the same opening; three moves a position before
/// the last deal reach far more openings, and a narrowed tree searched to
/// its end leaves the rest of the budget to the passes after it. Most last
/// passes are lost within ten thousand positions, so a small cap lets the
/// narrow sample take many. But the two find different late wins: each
/// alone leaves about one Novomanernaya deal in 40 of 1..1000 unknown at
/// 15,000,000 positions, and only half of those are unknown to both. The
/// frontier run decides which split is kept (`bench/solver/frontier.sh
/// novomanernaya=1..1000 novomanernaya=20001..20300 nivernaise=1..1000`).
///
/// Both samples try the redeal last, as every search does, though the late
/// wins of Novomanernaya redeal early: of the nine deals of 20001..20300
/// and 30001..30300 the samples leave unknown at 10 s a deal, the five a
/// 240-s solve wins first redeal after 11 to 18 moves. Tried first wherever
/// another redeal is left (so that the second deal's layouts come first
/// from the positions nearest the start), in both samples, the redeal wins
/// 4 of those 9 deals within 10 s, but leaves 17 of deals 1..1000 unknown
/// where the samples leave 10, and 26 of the three ranges' 1,600 deals
/// where they leave 19; a quarter of the budget to each sample in each
/// order wins 2 of the 9 (`JOBS=2 bench/solver/frontier.sh
/// novomanernaya=1..1000 novomanernaya=20001..20300
/// novomanernaya=30001..30300` with each build). As with a denser sample,
/// the order trades late wins rather than adds them.
///
/// So does searching each deal before the last apart (the positions after
/// a redeal that leaves one, within a cap of positions, its own last passes
/// sampled within it), which lets a sample go on to another first deal
/// once it has spent the cap under one: in both samples it wins 4 of the
/// nine (20025, 20099 and 30193 within a second, 20112 in 5 s), but loses
/// about as many the samples win. With 1,000,000 positions a deal before
/// the last it leaves 12, 3 and 4 of deals 1..1000, 20001..20300 and
/// 30001..30300 unknown at 10 s a deal, where the samples leave 10, 5 and
/// 4; with 5,000,000, 11, 3 and 4; in the narrow sample alone, 12, 4 and 4
/// (`JOBS=1 bench/solver/frontier.sh novomanernaya=1..1000
/// novomanernaya=20001..20300 novomanernaya=30001..30300` with each
/// build). As a third sample of its own, run first on an eighth of the
/// budget where both redeals are left (the narrow sample with each deal
/// before the last apart within 1,000,000 positions), it wins 20025, 20099
/// and 30193 within 0.75 s and leaves 10, 3 and 3 unknown; but on deals
/// 40001..40600, which no tuning used, it leaves 8 unknown where the two
/// samples leave 7: it wins none of the seven and loses 40312, which the
/// two win in 4.3 s, for the samples after it fall elsewhere
/// (`JOBS=2 bench/solver/frontier.sh novomanernaya=40001..40600`).
pub fn sampled(pos: &Position, budget: &Budget, dominances: bool) -> Found {
    let search = |budget: Budget, sample: Sample| {
        run(
            pos,
            &Settings {
                budget,
                mode: Mode::Solve,
                dominances,
                width: sample.width,
                last_pass_nodes: Some(sample.cap),
                last_pass_sample: (sample.every, 0),
                piles_order: false,
                stock_order: false,
            },
        )
    };
    let half = Budget {
        nodes: budget.nodes.map(|n| n / 2),
        time: budget.time.map(|t| t / 2),
        memory_bytes: budget.memory_bytes,
    };
    let narrow = search(half, NARROW);
    if matches!(narrow.end, End::Won(_)) {
        return narrow;
    }
    let mut wide = search(budget.after(narrow.nodes, narrow.elapsed), WIDE);
    wide.nodes += narrow.nodes;
    wide.elapsed += narrow.elapsed;
    wide.peak_entries = wide.peak_entries.max(narrow.peak_entries);
    if narrow.best_cards > wide.best_cards {
        wide.best_cards = narrow.best_cards;
        wide.best_line = narrow.best_line;
    }
    wide
}

#[cfg(test)]
mod tests {
    use super::*;
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
            piles_order: false,
            stock_order: false,
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
    /// sample that skips last passes, narrowed before the last deal as
    /// [`NARROW`] is, never answers *no win* unless the plain search does,
    /// nor do the two samples of [`sampled`], which prove some losses (every
    /// last pass dead at its start or searched to its end), and their wins
    /// replay. The default run takes the first
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
    /// times, the sample's wins and the samples' losses more than half that.
    fn keep_every_verdict(deals: u64, least: usize) {
        let (mut won, mut lost, mut sampled_wins, mut sampled_losses) = (0, 0, 0, 0);
        for deal in 1..=deals {
            let Some(p) = after_first_redeal(deal, (deal as usize) % 4 * 10) else {
                continue;
            };
            let plain = run(&p, &settings(400_000, None, 1));
            let apart = run(&p, &settings(400_000, Some(u64::MAX), 1));
            let sample = run(
                &p,
                &Settings {
                    width: NARROW.width,
                    ..settings(400_000, Some(2_000), 3)
                },
            );
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
            let both = sampled(&p, &Budget::of_nodes(400_000), true);
            for f in [&sample, &both] {
                if f.end == End::Exhausted {
                    assert_ne!(verdict(&plain.end), Some(true), "deal {deal}");
                }
            }
            sampled_losses += (both.end == End::Exhausted) as usize;
            for f in [&apart, &sample, &both] {
                if let End::Won(line) = &f.end {
                    assert!(crate::replays_to_win(&p, line), "deal {deal}");
                }
            }
            sampled_wins += matches!(sample.end, End::Won(_)) as usize;
        }
        eprintln!("won {won}, lost {lost}, sampled {sampled_wins}, {sampled_losses}");
        assert!(won > least && lost > least, "won {won}, lost {lost}");
        assert!(sampled_wins > least / 2, "the sample won {sampled_wins}");
        assert!(
            sampled_losses > least / 2,
            "the samples proved {sampled_losses} lost"
        );
    }
}
