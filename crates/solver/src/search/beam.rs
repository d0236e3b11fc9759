//! Beam search for a win, in the games whose stock passes once onto a waste
//! (Krakowski, Blondes and Brunettes; see [`applies`]).
//!
//! There the depth-first searches sink their budget under one early
//! mistake: a card turned onto the waste too soon buries the cards under it
//! for the rest of the game, and the search only finds out a hundred moves
//! later, where it then tries every rearrangement of the table first. The
//! beam instead plays all its lines side by side, one move at a time, and
//! after each move keeps the `width` most promising positions by
//! [`promise`]: cards home, minus cards that lie on a lower card of their
//! own foundation sequence (those must move again before that card can go
//! home). Bad lines
//! fall out of the beam a few moves after their mistake, not at the end of
//! the game. A position seen before is not kept twice. Like the probe and
//! the playouts it proves nothing when it fails.

use std::time::{Duration, Instant};

use patience_engine::{Card, Move, Packed, PileId, PileKind, Position};

use crate::key::table::{Insert, Table};
use crate::key::Keyer;
use crate::{prune, Budget};

/// What the beam found.
pub struct Beamed {
    pub win: Option<Vec<Move>>,
    /// Moves applied.
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether the node, time or memory budget stopped it: a wider beam
    /// within what is left of the same budget would stop too.
    pub stopped: bool,
}

/// Weight of a card home, against one card lying on a lower card of its
/// foundation sequence, and one card on the waste: the weights that won the
/// most Krakowski deals at width 300 (`cargo run --release -p patience-solver
/// --example beam_width krakowski 1 100 300 NODES` with each candidate).
const HOME: i32 = 100;
const BLOCKING: i32 = 200;
const WASTE: i32 = 200;

/// How `solve_with` runs the beam in a game.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Percent of the node budget (after the short full search) the beam
    /// may spend.
    pub share_percent: u64,
    /// Positions the node budget allows per beam slot, so that a budget can
    /// be turned into a width.
    pub nodes_per_slot: u64,
    /// Percent of a time budget the beam may spend.
    pub time_share_percent: u32,
    /// Width of the first beam under a time budget alone (the site's hint,
    /// on its share of the time); a budget of seconds widens it after.
    pub time_width: usize,
    /// Positions of the short full search before the beam under a time
    /// budget alone; under a node budget it is an eighth of the budget, at
    /// most 150,000.
    pub time_quick_nodes: u64,
}

impl Tuning {
    /// Krakowski (built in suit): a slot costs a few hundred positions over
    /// a whole game, and a beam that wins plays to the end, so 500 a slot
    /// leaves room to finish; three quarters of the budget won the most
    /// deals at 300,000 positions (`examples/beam_width.rs`, and `patience
    /// survey krakowski --deals 1..100 --jobs 1 --nodes 300000`). Of a time
    /// budget it takes as much: at 10 s a deal, the deals 10 s leaves unknown
    /// are for a wider beam more than for the full search after it, which
    /// the beam leaves its time wherever every line dies early (a lost
    /// deal). Solved at 10 s with each build side by side (`patience solve
    /// krakowski --deal N --time-ms 10000`, one core each), of the Krakowski
    /// deals left unknown at 1 s (55 of 20001..20100, 52 of 1..100) half the
    /// time leaves 45 and 40 unknown, three quarters 41 and 38, and seven
    /// eighths 40 of the first 55: a wider beam wins deals at 5 to 7.5 s.
    /// One deal won at 4.0 s with half the time (deal 74) is unknown with
    /// three quarters, whose wider beam misses its line, and no deal proved
    /// lost with half the time is unknown.
    pub const IN_SUIT: Tuning = Tuning {
        share_percent: 75,
        time_share_percent: 75,
        nodes_per_slot: 500,
        time_width: 1000,
        time_quick_nodes: 150_000,
    };

    /// Blondes and Brunettes (alternate colours, a reserve, cards back from
    /// the foundations: more moves a card, about 1,300 positions a slot),
    /// where the probe wins most deals on its own, so the beam takes less.
    /// Under a time budget (the site's hint) the beam is narrow and the full
    /// search before it short, so that an opening's hint stays under 100 ms
    /// (`examples/hint_latency.rs`).
    pub const ALTERNATE: Tuning = Tuning {
        share_percent: 40,
        time_share_percent: 50,
        nodes_per_slot: 1500,
        time_width: 100,
        time_quick_nodes: 20_000,
    };

    pub fn of(pos: &Position) -> Tuning {
        if pos.spec().builds_down_in_suit() {
            Tuning::IN_SUIT
        } else {
            Tuning::ALTERNATE
        }
    }
}

/// Whether the beam is tried: a face-down stock that passes once onto a
/// waste, with no redeal left (Krakowski, Blondes and Brunettes). There one
/// early card turned onto the waste decides the rest of the game.
pub fn applies(pos: &Position) -> bool {
    let layout = pos.layout();
    layout.waste.is_some()
        && layout.stock.is_some_and(|s| !pos.pile(s).is_empty())
        && pos.spec().stock_turns_onto_a_waste()
        && pos.redeals_left() == 0
}

/// How promising `pos` is: cards home, minus the cards on the table, the
/// waste or the reserve that lie above a lower card of their own foundation
/// sequence (the suit; in Blondes and Brunettes the colour against the
/// rank's parity), and the cards on the waste. It reads no face-down card.
pub fn promise(pos: &Position) -> i32 {
    Promise::new(pos).of(pos)
}

/// [`promise`] with the game's foundation sequences looked up once.
struct Promise {
    /// Per card, its place in its foundation sequence
    /// ([`GameSpec::sequence_of`](patience_engine::GameSpec::sequence_of)),
    /// and the sequence as `class`; a card whose sequence the engine does not
    /// name (no such game has a beam) blocks nothing.
    order: [u8; Card::COUNT],
    class: [u8; Card::COUNT],
    piles: Vec<PileId>,
}

/// The `class` of a card that blocks nothing.
const NO_SEQUENCE: u8 = 4;

impl Promise {
    fn new(pos: &Position) -> Promise {
        let spec = pos.spec();
        let mut order = [0; Card::COUNT];
        let mut class = [NO_SEQUENCE; Card::COUNT];
        for c in spec.pack() {
            if let Some(at) = spec.sequence_of(c) {
                order[c.index()] = at.place;
                class[c.index()] = at.sequence;
            }
        }
        let layout = pos.layout();
        let piles = layout
            .ids()
            .filter(|&id| {
                !matches!(layout.kind(id), Some(PileKind::Foundation(_)))
                    && Some(id) != layout.stock
            })
            .collect();
        Promise {
            order,
            class,
            piles,
        }
    }

    fn of(&self, pos: &Position) -> i32 {
        let mut blocking = 0;
        for &id in &self.piles {
            // The lowest place seen so far per sequence, from the bottom up.
            let mut low = [u8::MAX; NO_SEQUENCE as usize + 1];
            for &c in pos.pile(id) {
                let s = self.class[c.index()] as usize;
                let o = self.order[c.index()];
                blocking += (low[s] < o) as i32;
                low[s] = low[s].min(o);
            }
        }
        let waste = pos.layout().waste.map_or(0, |w| pos.pile(w).len()) as i32;
        HOME * pos.foundation_cards() as i32 - BLOCKING * blocking - WASTE * waste
    }
}

/// One kept position: where it came from, for the winning line.
#[derive(Clone, Copy)]
struct Step {
    parent: u32,
    mv: Move,
}

/// Runs the beam of `width` from `start` until a win, an empty beam, or the
/// node, time or memory budget (the table of positions seen).
pub fn run(start: &Position, budget: &Budget, width: usize, dominances: bool) -> Beamed {
    let begun = Instant::now();
    let total = start.spec().card_count();
    let mut nodes = 0u64;
    // The positions seen, in the search's own table: huge pages, so that a
    // probe (nearly always a cache miss) is not a TLB miss as well, and a
    // memory cap it keeps to.
    let mut seen = Table::new(budget.memory_bytes);
    let mut keyer = Keyer::with_classes(start, dominances);
    seen.insert(keyer.key());
    let promise = Promise::new(start);
    // The layer's positions, packed (a layer of positions each in its own
    // piles' buffers spends its time in cache misses), and the next layer.
    let mut layer = Packed::of_game(start);
    layer.push(start);
    let mut next = Packed::of_game(start);
    // The position being expanded, loaded from the layer.
    let mut p = start.clone();
    // Per position of the layer, whether the dead test applied and found it
    // alive: its children then need only the test after a move.
    let mut alive: Vec<bool> = vec![false];
    let mut history: Vec<Vec<Step>> = Vec::new();
    let mut moves = Vec::with_capacity(64);
    let mut known_keys = Vec::with_capacity(64);
    // Per child kept for the choice: its promise, its position's hash, its
    // parent in the layer and its move.
    let mut candidates: Vec<(i32, u64, u32, Move)> = Vec::new();
    let done = |win, nodes, stopped| Beamed {
        win,
        nodes,
        elapsed: begun.elapsed(),
        stopped,
    };
    loop {
        candidates.clear();
        for i in 0..layer.len() {
            layer.load(i, &mut p);
            let p = &mut p;
            p.legal_moves_into(&mut moves);
            if dominances {
                prune::drop_lone_card_moves(p, &mut moves);
                if let Some(m) = prune::safe_foundation_move(p, &moves) {
                    moves.clear();
                    moves.push(m);
                }
            }
            // Children's keys come from the parent's key, most without
            // playing the move.
            keyer.reset(p);
            // The keys known without playing, their slots asked for at once
            // so that the look-ups below wait on memory side by side.
            known_keys.clear();
            known_keys.extend(moves.iter().map(|&m| keyer.child_key(p, m)));
            for k in known_keys.iter().flatten() {
                seen.prefetch(*k);
            }
            for (&m, &known) in moves.iter().zip(&known_keys) {
                nodes += 1;
                // A key known without playing is taken at once: a child
                // seen before costs one look-up and no move.
                match known.map(|k| seen.insert(k)) {
                    Some(Insert::Seen) => continue,
                    Some(Insert::Full) => return done(None, nodes, true),
                    Some(Insert::New) | None => {}
                }
                let undo = p.play_generated(m);
                let new = match known {
                    Some(_) => Insert::New,
                    None => {
                        let k = keyer.push(p, false);
                        keyer.pop();
                        seen.insert(k)
                    }
                };
                if new == Insert::Full {
                    return done(None, nodes, true);
                }
                if new == Insert::New {
                    if p.foundation_cards() == total {
                        let mut line = vec![m];
                        let mut at = i as u32;
                        for steps in history.iter().rev() {
                            let s = steps[at as usize];
                            line.push(s.mv);
                            at = s.parent;
                        }
                        line.reverse();
                        return done(Some(line), nodes, false);
                    }
                    // The position's hash breaks ties, the same way on
                    // every run and whatever the layer's order.
                    candidates.push((promise.of(p), p.hash(), i as u32, m));
                }
                p.undo(&undo);
            }
            if budget.nodes.is_some_and(|n| nodes >= n)
                || budget.time.is_some_and(|t| begun.elapsed() >= t)
            {
                return done(None, nodes, true);
            }
        }
        if candidates.is_empty() {
            return done(None, nodes, false);
        }
        candidates.sort_unstable_by_key(|c| std::cmp::Reverse((c.0, c.1)));
        // The first `width` candidates by promise that the dead test lets
        // through, taken a chunk at a time and each chunk in its parents'
        // order, so that a parent is loaded once for all its kept children.
        next.clear();
        next.reserve(width);
        let mut next_alive: Vec<bool> = Vec::with_capacity(width);
        let mut steps: Vec<Step> = Vec::with_capacity(width);
        let mut taken = 0;
        while next.len() < width && taken < candidates.len() {
            let end = (taken + width - next.len()).min(candidates.len());
            let chunk = &mut candidates[taken..end];
            chunk.sort_unstable_by_key(|c| (c.2, std::cmp::Reverse((c.0, c.1))));
            let mut loaded = None;
            for &(_, _, parent, mv) in chunk.iter() {
                if loaded != Some(parent) {
                    layer.load(parent as usize, &mut p);
                    loaded = Some(parent);
                }
                let undo = p.play_generated(mv);
                let tested = dominances && prune::dead_test_applies(&p);
                if !(tested && prune::is_dead_after(&p, &undo, alive[parent as usize])) {
                    next.push(&p);
                    next_alive.push(tested);
                    steps.push(Step { parent, mv });
                }
                p.undo(&undo);
            }
            taken = end;
        }
        if next.is_empty() {
            return done(None, nodes, false);
        }
        history.push(steps);
        std::mem::swap(&mut layer, &mut next);
        alive = next_alive;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::View;
    use crate::replays_to_win;
    use patience_engine::game;

    #[test]
    fn the_beam_wins_krakowski_deals_the_depth_first_passes_miss() {
        // Deals 4 and 6 took the probe about 20 million positions; the
        // beam of 300 wins both in a few hundred thousand.
        let spec = game("krakowski").unwrap();
        for deal in [4, 6] {
            let p = Position::deal(spec, deal).unwrap();
            assert!(applies(&p));
            let b = run(&p, &Budget::of_nodes(2_000_000), 300, true);
            let line = b.win.unwrap_or_else(|| panic!("deal {deal} not won"));
            assert!(replays_to_win(&p, &line), "deal {deal}");
            assert!(b.nodes < 2_000_000);
        }
    }

    #[test]
    fn the_beam_stops_at_its_budget() {
        let p = Position::deal(game("krakowski").unwrap(), 1).unwrap();
        let b = run(&p, &Budget::of_nodes(5_000), 1000, true);
        assert!(b.win.is_none());
        // The budget is checked after each parent's children: a few past it.
        assert!((5_000..5_100).contains(&b.nodes), "{}", b.nodes);
    }

    #[test]
    fn the_beam_keeps_to_the_memory_cap() {
        let p = Position::deal(game("krakowski").unwrap(), 4).unwrap();
        let capped = Budget {
            memory_bytes: 24_000,
            ..Budget::of_nodes(2_000_000)
        };
        let b = run(&p, &capped, 300, true);
        // Deal 4 is won with room (a hundred thousand positions and more);
        // capped, the table of positions seen holds 1,024 slots and cannot
        // grow, so the beam stops once it holds 960 (repeats count as
        // positions too).
        assert!(b.win.is_none());
        assert!(b.stopped);
        assert!(b.nodes < 3_000, "{}", b.nodes);
    }

    #[test]
    fn promise_reads_no_face_down_card() {
        // The same face-up cards with the stock in another order (the
        // view's made-up stock) promise the same.
        for id in ["krakowski", "blondes-and-brunettes"] {
            let spec = game(id).unwrap();
            for deal in 1..=20 {
                let mut p = Position::deal(spec, deal).unwrap();
                for _ in 0..deal {
                    let moves = p.legal_moves();
                    p.apply(moves[moves.len() - 1]).unwrap();
                }
                let imagined = View::of(&p).imagine().unwrap();
                assert_ne!(
                    p.pile(p.layout().stock.unwrap()),
                    imagined.pile(imagined.layout().stock.unwrap())
                );
                assert_eq!(promise(&p), promise(&imagined), "{id} deal {deal}");
            }
        }
    }

    #[test]
    fn the_beam_applies_only_to_a_stock_that_passes_once_onto_a_waste() {
        let deal = |id| Position::deal(game(id).unwrap(), 1).unwrap();
        assert!(applies(&deal("krakowski")));
        assert!(applies(&deal("blondes-and-brunettes")));
        for id in [
            "novomanernaya",
            "nivernaise",
            "la-belle-lucie",
            "house-in-the-woods",
        ] {
            assert!(!applies(&deal(id)), "{id}");
        }
    }

    #[test]
    fn the_beam_wins_blondes_and_brunettes_deals_the_depth_first_passes_leave() {
        // The depth-first passes alone leave these unknown at 200,000
        // positions; a beam of 600 wins each within a million (at 300,
        // deal 1 turns on how ties in promise fall).
        let spec = game("blondes-and-brunettes").unwrap();
        for deal in [1, 4, 5] {
            let p = Position::deal(spec, deal).unwrap();
            let line = run(&p, &Budget::of_nodes(1_000_000), 600, true)
                .win
                .unwrap_or_else(|| panic!("deal {deal} not won"));
            assert!(replays_to_win(&p, &line), "deal {deal}");
        }
    }
}
