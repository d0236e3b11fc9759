//! The passes a solve runs in turn: one table ([`PASSES`]) and one loop.
//!
//! A depth-first search over all moves can sink its whole budget under one
//! early mistake, so a solve first runs cheaper, incomplete passes that find
//! most wins quickly, and gives the full search what they leave. Each row
//! says when its pass runs, whether its exhaustion proves a loss, and
//! whether the passes after it share what it leaves as a new budget; each
//! pass's share of the budget is its method of `Solve`. The first pass to find a
//! win answers; a pass that proves a loss answers *no win*; the full search,
//! last, answers whatever it finds. docs/solver.md tabulates the passes.
//!
//! The shares are the splits that decided the most deals at the tools'
//! budgets (`bench/solver/surveys.sh` runs the reference surveys).

use std::time::Duration;

use patience_engine::{Move, Position};

use crate::prune::{dead_two_deck, stock_order};
use crate::search::{self, beam, last_deal, playout, End, Found, Settings};
use crate::{report, Budget, Limit, Options, Report};

/// One pass of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The stock's order test ([`stock_order`]) asked of the position
    /// itself, with budgets far above those the full search asks it with:
    /// it proves 110 of Krakowski deals 1..1000 (about one in nine) lost at
    /// their start, before any search position.
    Relaxed,
    /// A short full search before the beam: late in a game most positions
    /// are lost in a few thousand positions, and a hint should not wait for
    /// the beam to say so.
    Opening,
    /// The beam search ([`beam`]).
    Beam,
    /// A depth-first search of the two best-ordered moves of each position
    /// ([`PROBE_WIDTH`]): it finds most wins of the stock games quickly, and
    /// its exhaustion proves nothing.
    Probe,
    /// A short full search while a face-down stock holds cards: many
    /// positions of the stock games are lost in a small space, and proving
    /// that takes a few thousand positions, where the playouts would spend
    /// their whole share first.
    Quick,
    /// Randomised greedy games ([`playout`]).
    Playouts,
    /// A sample of the last deals searched apart ([`last_deal::sampled`]).
    SampledLastDeals,
    /// The full depth-first search on what is left: alone it can prove a
    /// loss in every game.
    Full,
}

/// When a pass runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Every solve.
    Always,
    /// Where the beam applies ([`beam::applies`]) and the budget affords a
    /// beam of the narrowest width.
    Beam,
    /// While a face-down stock holds cards.
    StockLeft,
    /// While a face-down stock holds cards and a redeal is left.
    StockAndRedealLeft,
}

/// A row of the plan.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub pass: Pass,
    pub when: When,
    /// Whether the pass's exhaustion proves that no win exists.
    pub proves_loss: bool,
    /// Whether the passes after it take their shares of what it leaves
    /// (else of what the last such pass left).
    pub new_shares: bool,
    /// Whether its answer carries the probe's best line (where it reached
    /// more cards) and the probe's table size (where larger).
    pub with_probe: bool,
}

const fn row(pass: Pass, when: When, proves_loss: bool) -> Row {
    Row {
        pass,
        when,
        proves_loss,
        new_shares: matches!(pass, Pass::Opening | Pass::Beam),
        with_probe: matches!(pass, Pass::Playouts | Pass::Full),
    }
}

/// The plan: every solve runs these rows in order, skipping those whose
/// [`When`] does not hold. The full search is last.
pub const PASSES: [Row; 8] = [
    row(Pass::Relaxed, When::StockLeft, true),
    row(Pass::Opening, When::Beam, true),
    row(Pass::Beam, When::Beam, false),
    row(Pass::Probe, When::Always, false),
    row(Pass::Quick, When::StockLeft, true),
    row(Pass::Playouts, When::StockLeft, false),
    row(Pass::SampledLastDeals, When::StockAndRedealLeft, true),
    row(Pass::Full, When::Always, true),
];

/// Share of the budget the probe may spend before the full search.
const PROBE_SHARE: u32 = 4;
/// Most positions the probe visits: enough to find most easy wins, little
/// enough to leave the full search the rest.
const PROBE_NODES: u64 = 300_000;
/// Moves the probe tries at each position.
pub const PROBE_WIDTH: usize = 2;
/// Eighths of the budget the probe may spend while a face-down stock still
/// holds cards (no cap): there the full search rarely proves a loss within
/// the tools' budgets, and the probe wins more the longer it runs.
const STOCK_PROBE_EIGHTHS: u64 = 5;
/// Positions of the quick search: enough to prove the many small losses of
/// late positions, a few milliseconds.
const QUICK_NODES: u64 = 20_000;
/// The same where the two-deck dead test applies (Krakowski, and
/// Novomanernaya's last deal), and the opening search's cap: there a full
/// search proves most losses within this many positions.
const QUICK_NODES_DEAD: u64 = 150_000;
/// Eighths of the budget the randomised playouts get.
const STOCK_PLAYOUT_EIGHTHS: u64 = 2;
/// The narrowest and widest beam a node budget is turned into: a beam of a
/// few slots wins nothing, and the beam's table of positions seen grows with
/// its width.
const BEAM_WIDTHS: (usize, usize) = (20, 20_000);

/// Relaxed positions of the stock's order test at the position itself,
/// foundations counted by suit: at the start of Krakowski deals 1..1000 it
/// proves 87 lost, none with more than 100,000 (`cargo run --release -p
/// patience-solver --example relaxed_at_start -- krakowski 1 1000`).
const RELAXED_NODES: usize = 100_000;
/// Most relaxed positions of the same test with exact foundations: there
/// it proves 38 of deals 1..1000 lost within 100,000 and 77 within
/// 1,000,000, 23 of them ones the test by suit leaves, at up to 1.1 s a
/// deal.
const EXACT_RELAXED_NODES: u64 = 1_000_000;
/// The same under a time budget alone, where the test's time is taken from
/// the searches: of the 110 deals of 1..1000 the two games prove lost at
/// 1,000,000, only 9 need more than 300,000 (2, 26, 28, 143, 369, 511,
/// 525, 647 and 756), and a 10-s solve with this cap proves each of them
/// lost by its searches within 0.4 s (`patience solve krakowski --deal N
/// --time-ms 10000`), while a test that proves nothing spends up to a
/// second at 1,000,000.
const TIMED_EXACT_RELAXED_NODES: u64 = 300_000;

/// Positions and time.
#[derive(Clone, Copy, Debug, Default)]
struct Spent {
    nodes: u64,
    time: Duration,
}

impl Spent {
    fn add(&mut self, found: &Found) {
        self.nodes += found.nodes;
        self.time += found.elapsed;
    }
}

/// The probe's findings the passes after it carry.
struct ProbeFound {
    peak_entries: usize,
    best_cards: usize,
    best_line: Vec<Move>,
}

/// A solve under way.
struct Solve<'a> {
    pos: &'a Position,
    options: &'a Options,
    /// The beam's tuning, where the beam runs.
    beam: Option<beam::Tuning>,
    /// The budget the shares are taken of.
    base: Budget,
    /// Spent since `base` was set, and before.
    spent: Spent,
    before: Spent,
    /// The quick search's spending: a win of the playouts reports the
    /// passes' positions without it.
    quick: Spent,
    /// A full search from `pos` stopped by its node budget. A full search is
    /// depth-first in a fixed order, so one allowed fewer positions would
    /// walk a prefix of the same tree and end the same way: such a search is
    /// not run again, and its positions go to the passes after it.
    prior: Option<Found>,
    probe: Option<ProbeFound>,
}

/// Solves `pos` by the plan.
pub fn solve(pos: &Position, options: &Options) -> Report {
    Solve::new(pos, options, None).run(&PASSES)
}

/// The rows after the beam's, told of `prior`, a full search from `pos`
/// already run without an answer.
#[cfg(test)]
fn solve_after(pos: &Position, options: &Options, prior: Option<&Found>) -> Report {
    let probe = PASSES.iter().position(|r| r.pass == Pass::Probe).unwrap();
    Solve::new(pos, options, prior.cloned()).run(&PASSES[probe..])
}

/// Whether a face-down stock still holds cards.
fn stock_left(pos: &Position) -> bool {
    pos.layout().stock.is_some_and(|s| !pos.pile(s).is_empty())
}

/// The beam's tuning where the beam applies and `budget` affords a beam of
/// the narrowest width after the opening search: a beam of a few slots wins
/// nothing, and its share would be the probe's loss.
fn beam_tuning(pos: &Position, budget: &Budget) -> Option<beam::Tuning> {
    if !beam::applies(pos) {
        return None;
    }
    let tuning = beam::Tuning::of(pos);
    let opening = opening_nodes(&tuning, budget);
    let fits = budget.nodes.is_none_or(|n| {
        beam_share(&tuning, n.saturating_sub(opening)) / tuning.nodes_per_slot
            >= BEAM_WIDTHS.0 as u64
    });
    fits.then_some(tuning)
}

/// The beam's share of `nodes`.
fn beam_share(tuning: &beam::Tuning, nodes: u64) -> u64 {
    nodes / 100 * tuning.share_percent
}

/// Beams from `width` on, each wider than the one before, within `budget`'s
/// time: a beam that ends without a win (every line dead or out of moves)
/// leaves time a wider one may use. The next width is what the time left
/// affords at the rate of the beam before (a beam's positions grow about
/// as its width), divided by [`WIDEN_MARGIN`], at most the widest; a width
/// less than twice the last is not tried. So the site's hint budgets run
/// one beam of the tuning's width, and a budget of seconds (the status
/// line's 5-s slice, the frontier's 10 s) one a few thousand wide after it.
fn widening_beam(pos: &Position, budget: &Budget, width: usize, dominances: bool) -> beam::Beamed {
    let mut width = width;
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    loop {
        let left = Budget {
            time: budget.time.map(|t| t.saturating_sub(elapsed)),
            ..budget.clone()
        };
        let beamed = beam::run(pos, &left, width, dominances);
        nodes += beamed.nodes;
        elapsed += beamed.elapsed;
        let next = match (left.time, beamed.win.is_none() && !beamed.stopped) {
            (Some(t), true) => wider(width, beamed.elapsed, t.saturating_sub(beamed.elapsed)),
            _ => None,
        };
        match next {
            Some(next) => width = next,
            None => {
                return beam::Beamed {
                    nodes,
                    elapsed,
                    ..beamed
                }
            }
        }
    }
}

/// The width of the next beam, after one of `width` that took `took` and
/// ended without a win with `rest` left; `None` where that is less than
/// twice `width`.
fn wider(width: usize, took: Duration, rest: Duration) -> Option<usize> {
    let took = took.as_secs_f64().max(1e-6);
    let next = (width as f64 * rest.as_secs_f64() / took / WIDEN_MARGIN).min(BEAM_WIDTHS.1 as f64);
    (next >= 2.0 * width as f64).then_some(next as usize)
}

/// How much longer than its width's share of the time left a wider beam
/// may take, for a beam stopped by its budget is wasted: a wide beam runs
/// slower a position (its table of positions seen outgrows the caches: 1.9
/// million positions a second at width 1,000, 1.65 million at 16,000 on
/// Krakowski deals 1..30 with both widths at once, `examples/beam_width.rs`),
/// and slower still with a deal solved on each core. A margin of 1.5 with
/// beams up to 50,000 wide decides no more: 41 of the 55 deals of
/// 20001..20100 left unknown at 1 s stay unknown at 10 s either way
/// (`patience solve krakowski --deal N --time-ms 10000`, the two builds side
/// by side).
const WIDEN_MARGIN: f64 = 2.5;

/// The opening search's positions: an eighth of the budget, at most
/// [`QUICK_NODES_DEAD`].
fn opening_nodes(tuning: &beam::Tuning, budget: &Budget) -> u64 {
    budget
        .nodes
        .map_or(tuning.time_quick_nodes, |n| (n / 8).min(QUICK_NODES_DEAD))
}

impl<'a> Solve<'a> {
    fn new(pos: &'a Position, options: &'a Options, prior: Option<Found>) -> Solve<'a> {
        Solve {
            pos,
            options,
            beam: beam_tuning(pos, &options.budget),
            base: options.budget.clone(),
            spent: Spent::default(),
            before: Spent::default(),
            quick: Spent::default(),
            prior: prior.filter(|f| f.end == End::Spent(Limit::Nodes)),
            probe: None,
        }
    }

    fn run(mut self, rows: &[Row]) -> Report {
        let (last, rows) = rows.split_last().expect("a plan ends with the full search");
        for row in rows {
            if !self.holds(row.when) {
                continue;
            }
            let Some(found) = self.pass(row.pass) else {
                continue;
            };
            let won = matches!(found.end, End::Won(_));
            if won || (row.proves_loss && found.end == End::Exhausted) {
                return self.report(row, found);
            }
            self.spent.add(&found);
            match row.pass {
                Pass::Opening if found.end == End::Spent(Limit::Nodes) => self.prior = Some(found),
                Pass::Probe => {
                    self.probe = Some(ProbeFound {
                        peak_entries: found.peak_entries,
                        best_cards: found.best_cards,
                        best_line: found.best_line,
                    })
                }
                Pass::Quick => self.quick.add(&found),
                _ => {}
            }
            if row.new_shares {
                self.base = self.base.after(self.spent.nodes, self.spent.time);
                self.before.nodes += self.spent.nodes;
                self.before.time += self.spent.time;
                self.spent = Spent::default();
            }
        }
        let found = self.pass(last.pass).expect("the full search always runs");
        self.report(last, found)
    }

    fn holds(&self, when: When) -> bool {
        match when {
            When::Always => true,
            When::Beam => self.beam.is_some(),
            When::StockLeft => stock_left(self.pos),
            When::StockAndRedealLeft => stock_left(self.pos) && self.pos.redeals_left() > 0,
        }
    }

    /// The answer of a solve that ended with `found`, the answer of `row`'s
    /// pass.
    fn report(self, row: &Row, mut found: Found) -> Report {
        if let (true, Some(probe)) = (row.with_probe, self.probe) {
            if probe.best_cards > found.best_cards {
                found.best_cards = probe.best_cards;
                found.best_line = probe.best_line;
            }
            found.peak_entries = found.peak_entries.max(probe.peak_entries);
        }
        let mut spent = self.spent;
        if row.pass == Pass::Playouts {
            spent.nodes -= self.quick.nodes;
            spent.time -= self.quick.time;
        }
        report(
            self.pos,
            found,
            self.before.nodes + spent.nodes,
            self.before.time + spent.time,
        )
    }

    /// What is left of the shares' budget.
    fn rest(&self) -> Budget {
        self.base.after(self.spent.nodes, self.spent.time)
    }

    /// A full search within `budget`.
    fn full_search(&self, budget: Budget) -> Found {
        search::run(self.pos, &Settings::full(budget, self.options.dominances))
    }

    /// Positions of the prior search, where there is one.
    fn undecided_within(&self) -> u64 {
        self.prior.as_ref().map_or(0, |f| f.nodes)
    }

    /// Runs `pass` on its share; `None` when it has nothing to do.
    fn pass(&self, pass: Pass) -> Option<Found> {
        match pass {
            Pass::Relaxed => self.relaxed(),
            Pass::Opening => self.opening(),
            Pass::Beam => self.beam(),
            Pass::Probe => Some(self.probe()),
            Pass::Quick => self.quick(),
            Pass::Playouts => Some(self.playouts()),
            Pass::SampledLastDeals => Some(last_deal::sampled(
                self.pos,
                &self.rest(),
                self.options.dominances,
            )),
            Pass::Full => Some(self.full()),
        }
    }

    /// The stock's order test at the position itself, where it applies:
    /// counted by suit within [`RELAXED_NODES`] relaxed positions, then
    /// with exact foundations within a twentieth of the budget's positions,
    /// at most [`EXACT_RELAXED_NODES`] (under a time budget alone, 100 a
    /// millisecond of it, at most [`TIMED_EXACT_RELAXED_NODES`]). `None` where it does not apply; it
    /// spends no search positions, only time.
    fn relaxed(&self) -> Option<Found> {
        if !stock_order::applies(self.pos) {
            return None;
        }
        let begun = std::time::Instant::now();
        let b = &self.base;
        let exact = b
            .nodes
            .map(|n| n / 20)
            .or(b
                .time
                .map(|t| (t.as_millis() as u64 * 100).min(TIMED_EXACT_RELAXED_NODES)))
            .unwrap_or(0)
            .min(EXACT_RELAXED_NODES) as usize;
        let dead = stock_order::is_dead_within(self.pos, RELAXED_NODES)
            || (exact > 0 && stock_order::is_dead_within_by(self.pos, exact, true));
        Some(Found {
            end: if dead {
                End::Exhausted
            } else {
                End::Spent(Limit::Nodes)
            },
            nodes: 0,
            elapsed: begun.elapsed(),
            peak_entries: 0,
            best_cards: self.pos.foundation_cards(),
            best_line: Vec::new(),
        })
    }

    /// The opening search: an eighth of the budget, at most
    /// [`QUICK_NODES_DEAD`].
    fn opening(&self) -> Option<Found> {
        let b = &self.base;
        Some(self.full_search(Budget {
            nodes: Some(opening_nodes(&self.beam?, b)),
            time: b.time,
            memory_bytes: b.memory_bytes,
        }))
    }

    /// The beam: the tuning's shares of the budget and of the time. A node
    /// budget sets its width (as wide as the share allows); under a time
    /// budget alone it begins at the tuning's width and widens while time is
    /// left ([`widening_beam`]).
    fn beam(&self) -> Option<Found> {
        let b = &self.base;
        let tuning = self.beam?;
        let share = |n| beam_share(&tuning, n);
        let budget = Budget {
            nodes: b.nodes.map(share),
            time: b.time.map(|t| t * tuning.time_share_percent / 100),
            memory_bytes: b.memory_bytes,
        };
        let beamed = match b.nodes {
            Some(n) => {
                let width = ((share(n) / tuning.nodes_per_slot) as usize)
                    .clamp(BEAM_WIDTHS.0, BEAM_WIDTHS.1);
                beam::run(self.pos, &budget, width, self.options.dominances)
            }
            None => widening_beam(
                self.pos,
                &budget,
                tuning.time_width,
                self.options.dominances,
            ),
        };
        Some(self.found_by_line(beamed.win, beamed.nodes, beamed.elapsed))
    }

    /// The probe: a quarter of the budget, at most [`PROBE_NODES`]; five
    /// eighths (no cap) of a node budget while a face-down stock holds
    /// cards. Under a time budget alone it stops at [`PROBE_NODES`] there
    /// too, and the full search gets the time: given a node budget too
    /// large to bind as well as 10 s (`patience solve krakowski --deal N
    /// --time-ms 10000 --nodes 100000000000`), so that the probe and the
    /// playouts take their shares of the time, the passes leave unknown 3
    /// of the 27 Krakowski deals of 1..68 that 1 s leaves unknown and the
    /// time budget alone wins in 10 s (deals 9, 33 and 39), and win none
    /// more.
    fn probe(&self) -> Found {
        let b = &self.base;
        let budget = if stock_left(self.pos) {
            Budget {
                nodes: Some(b.nodes.map_or(PROBE_NODES, |n| n / 8 * STOCK_PROBE_EIGHTHS)),
                time: b.time.map(|t| t / 8 * STOCK_PROBE_EIGHTHS as u32),
                memory_bytes: b.memory_bytes / 2,
            }
        } else {
            Budget {
                nodes: Some(
                    b.nodes
                        .map_or(PROBE_NODES, |n| (n / PROBE_SHARE as u64).min(PROBE_NODES)),
                ),
                time: b.time.map(|t| t / PROBE_SHARE),
                memory_bytes: b.memory_bytes / PROBE_SHARE as usize,
            }
        };
        search::run(
            self.pos,
            &Settings {
                width: Some(PROBE_WIDTH),
                ..Settings::full(budget, self.options.dominances)
            },
        )
    }

    /// The quick search: what the passes before and the playouts' share
    /// leave, at least [`QUICK_NODES`] (within the budget), at most its cap;
    /// `None` where the opening search already searched as far.
    fn quick(&self) -> Option<Found> {
        let b = &self.base;
        let cap = if dead_two_deck::applies(self.pos) {
            QUICK_NODES_DEAD
        } else {
            QUICK_NODES
        };
        let before = self.spent.nodes;
        let nodes = b.nodes.map_or(cap, |n| {
            n.saturating_sub(before + n / 8 * STOCK_PLAYOUT_EIGHTHS)
                .max(QUICK_NODES.min(n.saturating_sub(before)))
                .min(cap)
        });
        if nodes <= self.undecided_within() {
            return None;
        }
        Some(self.full_search(Budget {
            nodes: Some(nodes),
            time: b.time.map(|t| t.saturating_sub(self.spent.time)),
            memory_bytes: b.memory_bytes,
        }))
    }

    /// The playouts: two eighths of the budget, never past what is left.
    fn playouts(&self) -> Found {
        let b = &self.base;
        let budget = Budget {
            nodes: Some(b.nodes.map_or(PROBE_NODES, |n| {
                (n / 8 * STOCK_PLAYOUT_EIGHTHS).min(n.saturating_sub(self.spent.nodes))
            })),
            time: b.time.map(|t| t / 8 * STOCK_PLAYOUT_EIGHTHS as u32),
            memory_bytes: 0,
        };
        let played = playout::run(self.pos, &budget, self.options.dominances);
        self.found_by_line(played.win, played.nodes, played.elapsed)
    }

    /// The full search on what is left, unless the opening search already
    /// searched as far: then its end, at no further cost.
    fn full(&self) -> Found {
        let rest = self.rest();
        match &self.prior {
            Some(done) if rest.nodes.is_some_and(|n| n <= done.nodes) => Found {
                nodes: 0,
                elapsed: Duration::ZERO,
                ..done.clone()
            },
            _ => search::run(
                self.pos,
                &Settings {
                    piles_order: true,
                    stock_order: true,
                    ..Settings::full(rest, self.options.dominances)
                },
            ),
        }
    }

    /// What a pass that keeps no table found: a win by `win`, or nothing.
    fn found_by_line(&self, win: Option<Vec<Move>>, nodes: u64, elapsed: Duration) -> Found {
        match win {
            Some(line) => Found {
                end: End::Won(line.clone()),
                nodes,
                elapsed,
                peak_entries: 0,
                best_cards: self.pos.spec().card_count(),
                best_line: line,
            },
            None => Found {
                end: End::Spent(Limit::Nodes),
                nodes,
                elapsed,
                peak_entries: 0,
                best_cards: 0,
                best_line: Vec::new(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;

    /// Krakowski deals 500 (lost by the relaxed game by suit) and 497 (by
    /// exact foundations alone) are answered *no win* before any search
    /// position; deal 11, which is won, goes on to the searches.
    #[test]
    fn a_deal_lost_by_its_relaxed_game_is_answered_without_a_search() {
        let spec = patience_engine::game("krakowski").unwrap();
        let options = Options::with_nodes(20_000_000, true);
        for deal in [500, 497] {
            let r = solve(&Position::deal(spec, deal).unwrap(), &options);
            assert_eq!(r.outcome.won(), Some(false), "deal {deal}");
            assert_eq!(r.nodes, 0, "deal {deal}");
        }
        let won = solve(&Position::deal(spec, 11).unwrap(), &options);
        assert_eq!(won.outcome.won(), Some(true));
        assert!(won.nodes > 0);
    }

    /// The site's short budgets keep one beam of the hint's width; seconds
    /// widen it, in proportion to the time left, never past the widest.
    #[test]
    fn a_beam_widens_only_where_the_time_left_affords_twice_its_width() {
        let ms = Duration::from_millis;
        // A hint's beam of 150 ms whose first beam took 125 ms.
        assert_eq!(wider(1000, ms(125), ms(25)), None);
        // Five times the time taken is left: twice the width at the margin.
        assert_eq!(wider(1000, ms(250), ms(1250)), Some(2000));
        assert_eq!(wider(1000, ms(250), ms(1000)), None);
        assert_eq!(wider(1000, ms(250), ms(5000)), Some(8000));
        assert_eq!(wider(1000, ms(1), ms(4999)), Some(BEAM_WIDTHS.1));
        assert_eq!(wider(BEAM_WIDTHS.1, ms(1), ms(4999)), None);
    }

    /// Why a search allowed no more positions than the prior is skipped,
    /// equal counts included (the opening search and the quick search both
    /// have 150,000 in Krakowski): the full search is deterministic, so one
    /// allowed as many positions walks the same tree and ends the same way.
    #[test]
    fn a_full_search_allowed_as_many_positions_ends_as_the_prior_did() {
        let spec = patience_engine::game("krakowski").unwrap();
        for deal in 1..=6 {
            let pos = Position::deal(spec, deal).unwrap();
            let run = || search::run(&pos, &Settings::full(Budget::of_nodes(20_000), true));
            let (a, b) = (run(), run());
            assert_eq!(a.end, b.end, "deal {deal}");
            assert_eq!(
                (a.nodes, a.best_cards, &a.best_line),
                (b.nodes, b.best_cards, &b.best_line),
                "deal {deal}"
            );
        }
    }

    /// The passes told of a full search already run without an answer skip
    /// the full searches that could only walk a prefix of it: no answer the
    /// passes reach alone is lost (a win keeps its line, a proved loss stays
    /// proved), and on some deals fewer positions are searched.
    #[test]
    fn passes_skip_a_full_search_already_run_and_keep_its_answers() {
        let spec = patience_engine::game("krakowski").unwrap();
        let options = Options::with_nodes(60_000, true);
        let mut saved = 0;
        for deal in 1..=12 {
            let pos = Position::deal(spec, deal).unwrap();
            let prior = search::run(
                &pos,
                &Settings::full(Budget::of_nodes(30_000), options.dominances),
            );
            if prior.end != End::Spent(Limit::Nodes) {
                continue;
            }
            let alone = solve_after(&pos, &options, None);
            let told = solve_after(&pos, &options, Some(&prior));
            assert!(
                told.nodes <= 60_000,
                "deal {deal}: {} positions",
                told.nodes
            );
            if !matches!(alone.outcome, Outcome::Unknown(_)) {
                assert_eq!(told.outcome, alone.outcome, "deal {deal}");
            }
            // A skipped search saves thousands of positions, not the one a
            // search of no positions still counts.
            saved += (told.nodes + 1000 <= alone.nodes) as usize;
        }
        assert!(saved > 0, "no deal skipped a repeated search")
    }
}
