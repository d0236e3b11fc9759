//! The person-like player: plays from what a person sees, never undoes.
//!
//! [`PersonPlayer::choose`] takes only a [`View`], so it cannot read the
//! face-down stock or the deal number that decides future shuffles. It asks
//! the engine for the legal moves of the view's imagined position (they are
//! the real position's legal moves: legality depends on face-up cards only),
//! scores each by the strategy below, and plays the best, drawing among equal
//! scores with its seeded generator, so that N runs on one deal give a rate.
//!
//! The strategy, after seeds 000 (La Belle Lucie) and 004 (Nivernaise):
//! - **Foundations first, but do not rush.** A card that a foundation takes
//!   scores highest, unless it can still serve on the table: some face-up card
//!   not itself wanted by a foundation could be built on it where it lies
//!   (in two-deck games the other copy of the card below it; in alternating
//!   colours a card of the other colour). Such a card waits until nothing else
//!   useful is left.
//! - **Look under a top card before moving it.** A move is worth what it
//!   uncovers: a card a foundation takes at once is worth most, a card one or
//!   two steps from its foundation less, a card that can then go on the table
//!   a little. An emptied pile refilled from the stock brings fresh cards.
//! - **Free blocked low cards first.** A move from a pile that hides a card
//!   its foundation wants (or nearly wants) gains more the fewer cards then
//!   still cover it; a move onto such a pile loses for burying it deeper.
//! - **Keep the waste short** where the stock passes once and the table
//!   builds in suit (Krakowski): a waste card that can go onto the table goes
//!   there before another card is turned, for only two cards can ever take
//!   it, and the next card turned may bury it for good.
//! - **Do not bury a card under a higher one of its own sequence.** A card
//!   laid on a pile that holds an earlier card of its foundation sequence
//!   blocks it until it moves again, and where it can only move onto the
//!   card it now lies on, for good; a move that lifts it off such a card
//!   onto another pile gains as much (into a flank cell it does not: a
//!   cell's card only leaves for a foundation, so the cell's cost and what
//!   the move uncovers judge that move).
//! - **Keep a flank cell free.** Putting a card in a cell costs; taking the
//!   last free one costs more than a redeal.
//! - **Deal only when no useful move is left; redeal later still.** Shifting a
//!   card that already lies on a card that takes it, or going back to a view
//!   already seen, is not done; the player gives up when no move is left.
//!
//! **Looking ahead.** Every legal move gets the score above; a move's worth is
//! its score plus that of the best line of table moves after it, a line being
//! worth the sum of its moves' scores (a person may stop anywhere, so a line
//! is never worth less than 0). Lines are searched by iterative deepening,
//! one move further each round, up to `MAX_DEPTH` moves, until the
//! decision's budget of positions is spent; the last complete round counts.
//! This finds what a careful player sees: the move that frees a wanted card
//! two moves later, the order that empties a fan, which card to park in a
//! flank cell. The search stays in the imagined position and stops at any
//! move that brings cards out of the stock (deals, redeals, a refill), so no
//! invented card is ever looked at.
//!
//! **Like a person, not like a program.** People playing one deal twice play
//! two games, and a deal people win now and then is what Medium means; a
//! player that always makes the same choices wins a deal always or never.
//! So two choices are random, drawn from the seeded generator:
//! - **how far it looks**: each decision's budget is drawn uniformly from
//!   0 to twice [`LOOKAHEAD`], so some moves are thought through and others
//!   only glanced at;
//! - **which line it plays**: a line is drawn with a weight that halves every
//!   `HALVING` points below the best, so near-equal lines are played about
//!   equally often and a clearly worse one almost never.
//!
//! In games with redeals (La Belle Lucie) the shuffle depends on which cards
//! are still on the table, so these choices matter most at the redeal: a
//! redeal costs little (a person redeals once the table offers nothing
//! worth doing), and a person who took another line redeals with other
//! cards left, and so gets another shuffle.
//!
//! **The skill setting** is [`LOOKAHEAD`], the same for every game: 250
//! positions a decision on average. With it La Belle Lucie lands inside
//! seed 000's "about one in ten" (8%–12%) at a cost that lets every game be
//! graded; a larger budget wins a little more at twice the cost or more,
//! none wins half as often. `python3 bench/levels/calibration.py` plays the calibration
//! deals at several budgets and the check on deals 30001..32000, and writes
//! the table in `docs/winnability.md`.

use std::time::Instant;

use patience_engine::prng::SplitMix64;
use patience_engine::{Card, EmptiedFan, GameSpec, Move, PileId, PileKind, Position};
use serde::Serialize;

use crate::key::PrehashedSet;

use super::glance::{HomeGlance, Homes, InPlay};
use super::view::View;

/// Scores of the moves that are not steps, and the base scores of steps.
mod weight {
    pub const TO_FOUNDATION: i32 = 100;
    pub const TO_FOUNDATION_HELD: i32 = 5;
    pub const FROM_CELL: i32 = 5;
    pub const TO_TABLEAU: i32 = -1;
    pub const SHIFT_ALREADY_PLACED: i32 = -3;
    pub const BURY_WANTED: i32 = -4;
    pub const BURY_NEAR: i32 = -2;
    pub const TO_CELL: i32 = -8;
    pub const LAST_CELL: i32 = -15;
    pub const UNCOVER_WANTED: i32 = 30;
    pub const UNCOVER_NEAR: i32 = 8;
    pub const UNCOVER_NEXT: i32 = 3;
    pub const UNCOVER_PLAYABLE: i32 = 3;
    pub const FRESH_FROM_STOCK: i32 = 4;
    pub const EMPTY_FOR_KING: i32 = 3;
    pub const EMPTY_FROM_WASTE: i32 = 2;
    pub const EMPTIED: i32 = 1;
    pub const DIG_WANTED: i32 = 12;
    pub const DIG_NEAR: i32 = 4;
    pub const DEAL: i32 = 0;
    pub const DRAW_TO_FOUNDATION: i32 = -10;
    pub const REDEAL: i32 = -3;
    pub const DRAW_TO_TABLEAU: i32 = -25;
    pub const WASTE_TO_TABLEAU: i32 = 20;
    pub const BLOCK: i32 = 40;
}

/// The look-ahead budget every game is played with: positions the player
/// expands per decision (see the module documentation for its calibration).
pub const LOOKAHEAD: u32 = DEFAULT_LOOKAHEAD;
const DEFAULT_LOOKAHEAD: u32 = 250;

/// How deep a line of table moves the look-ahead follows at most.
const MAX_DEPTH: u32 = 8;

/// Points below the best line at which a line is half as likely to be played.
const HALVING: i32 = 2;

/// The person-like player: its look-ahead budget, a seeded generator for
/// choices among near-equal lines, and the views it has seen.
#[derive(Clone, Debug)]
pub struct PersonPlayer {
    rng: SplitMix64,
    seen: PrehashedSet<u64>,
    lookahead: u32,
    /// Buffers the look-ahead reuses: legal moves, the moved pile's cards,
    /// and one list of scored moves per depth.
    moves: Vec<Move>,
    source: Vec<Card>,
    lists: Vec<Vec<Scored>>,
    /// What the foundations met in this decision's look-ahead want.
    homes: Homes,
}

/// What the player has read off the position whose moves it scores.
struct Glance<'a> {
    homes: &'a mut Homes,
    /// The number of the position's home glance in `homes`.
    here: usize,
    in_play: InPlay,
}

impl Glance<'_> {
    fn home(&mut self) -> &mut HomeGlance {
        self.homes.get(self.here)
    }
}

/// One scored move: its own worth, and whether it brings cards out of the
/// stock (which the player cannot see, so no line is followed past it).
#[derive(Clone, Copy, Debug)]
struct Scored {
    mv: Move,
    score: i32,
    fresh: bool,
}

impl PersonPlayer {
    /// The player at the calibrated skill, [`LOOKAHEAD`].
    pub fn new(seed: u64) -> PersonPlayer {
        PersonPlayer::with_lookahead(seed, LOOKAHEAD)
    }

    /// The player with another look-ahead budget (0: one move deep), for
    /// calibration only: levels are always graded at [`LOOKAHEAD`].
    pub fn with_lookahead(seed: u64, lookahead: u32) -> PersonPlayer {
        PersonPlayer {
            rng: SplitMix64::new(seed),
            seen: PrehashedSet::default(),
            lookahead,
            moves: Vec::new(),
            source: Vec::new(),
            lists: Vec::new(),
            homes: Homes::default(),
        }
    }

    /// The move to play, or `None` when the player sees nothing left to do.
    pub fn choose(&mut self, view: &View) -> Option<Move> {
        let mut ip = view.imagine()?;
        // The imagined position is a pure function of the view, so its hash
        // stands for the view; a step that deals nothing from the stock
        // leads to the imagined position of the view after it.
        self.seen.insert(ip.hash());
        self.homes.clear();
        let mut root = Vec::new();
        self.scored_moves(&mut ip, false, &mut root);
        if root.is_empty() {
            return None;
        }
        let mut worth: Vec<i32> = root.iter().map(|s| s.score).collect();
        // Iterative deepening: each round looks one move further along every
        // line, until the budget is spent; the last full round counts.
        let mut budget = self.budget();
        let mut depth = 1;
        while budget > 0 && depth <= MAX_DEPTH {
            let mut round = Vec::with_capacity(root.len());
            let mut visited = PrehashedSet::default();
            let mut complete = true;
            for s in &root {
                let v = if s.fresh || !matches!(s.mv, Move::Step { .. }) {
                    Some(0)
                } else {
                    let undo = ip.apply(s.mv).ok()?;
                    visited.insert(ip.hash());
                    let v = self.line_worth(&mut ip, depth, &mut budget, &mut visited);
                    ip.undo(&undo);
                    v
                };
                match v {
                    Some(v) => round.push(s.score + v),
                    None => {
                        complete = false;
                        break;
                    }
                }
            }
            if !complete {
                break;
            }
            worth = round;
            depth += 1;
        }
        let pick = self.pick(&worth)?;
        Some(root.swap_remove(pick).mv)
    }

    /// This decision's look-ahead budget: drawn uniformly from
    /// `0..=2 * lookahead`, so a person thinks hard over some moves and
    /// glances at others, [`LOOKAHEAD`] positions on average.
    fn budget(&mut self) -> u32 {
        self.rng.below(2 * u64::from(self.lookahead) + 1) as u32
    }

    /// Which line to play: each is drawn with a weight that halves every
    /// [`HALVING`] points it lies below the best, so near-equal lines are
    /// played about equally often and a clearly worse one almost never.
    fn pick(&mut self, worth: &[i32]) -> Option<usize> {
        let best = *worth.iter().max()?;
        let weight = |w: i32| (-f64::from(best - w) / f64::from(HALVING)).exp2();
        let total: f64 = worth.iter().map(|&w| weight(w)).sum();
        let mut x = total * (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for (i, &w) in worth.iter().enumerate() {
            x -= weight(w);
            if x < 0.0 {
                return Some(i);
            }
        }
        Some(worth.len() - 1)
    }

    /// The worth of the best line of table moves from `ip`, at most `depth`
    /// moves long (0 for stopping here); `None` when the budget ran out.
    fn line_worth(
        &mut self,
        ip: &mut Position,
        depth: u32,
        budget: &mut u32,
        visited: &mut PrehashedSet<u64>,
    ) -> Option<i32> {
        if depth == 0 {
            return Some(0);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut list = self.lists.pop().unwrap_or_default();
        self.scored_moves(ip, true, &mut list);
        let found = self.best_line(ip, &list, depth, budget, visited);
        self.lists.push(list);
        found
    }

    /// The worth of the best of `list`'s moves followed by its best line.
    fn best_line(
        &mut self,
        ip: &mut Position,
        list: &[Scored],
        depth: u32,
        budget: &mut u32,
        visited: &mut PrehashedSet<u64>,
    ) -> Option<i32> {
        let mut best = 0;
        for &s in list {
            let v = if s.fresh {
                s.score
            } else {
                let undo = ip.apply(s.mv).ok()?;
                let v = if visited.insert(ip.hash()) {
                    self.line_worth(ip, depth - 1, budget, visited)
                        .map(|w| s.score + w)
                } else {
                    Some(i32::MIN)
                };
                ip.undo(&undo);
                v?
            };
            best = best.max(v);
        }
        Some(best)
    }

    /// The legal moves worth playing, best first; only steps when `steps_only`.
    fn scored_moves(&mut self, ip: &mut Position, steps_only: bool, out: &mut Vec<Scored>) {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        ip.legal_moves_into(&mut moves);
        out.clear();
        let mut homes = std::mem::take(&mut self.homes);
        let mut glance = Glance {
            here: homes.of(ip),
            homes: &mut homes,
            in_play: InPlay::default(),
        };
        for &mv in &moves {
            if steps_only && !matches!(mv, Move::Step { .. }) {
                continue;
            }
            if let Some(s) = self.score(ip, mv, &mut glance) {
                out.push(s);
            }
        }
        self.moves = moves;
        self.homes = homes;
        out.sort_by_key(|s| std::cmp::Reverse(s.score));
    }

    /// The score of one legal move, or `None` for a move not to be played;
    /// `glance` looks at `ip`.
    fn score(&mut self, ip: &mut Position, mv: Move, glance: &mut Glance) -> Option<Scored> {
        let plain = |score| {
            Some(Scored {
                mv,
                score,
                fresh: true,
            })
        };
        match mv {
            Move::Deal => plain(weight::DEAL),
            Move::Redeal => plain(weight::REDEAL),
            Move::Draw { to, .. } => plain(match ip.layout().kind(to) {
                Some(PileKind::Foundation(_)) => weight::DRAW_TO_FOUNDATION,
                _ => weight::DRAW_TO_TABLEAU,
            }),
            Move::Step { from, to } => self.score_step(ip, mv, from, to, glance),
        }
    }

    fn score_step(
        &mut self,
        ip: &mut Position,
        mv: Move,
        from: PileId,
        to: PileId,
        glance: &mut Glance,
    ) -> Option<Scored> {
        let mut source = std::mem::take(&mut self.source);
        source.clear();
        source.extend_from_slice(ip.pile(from));
        let scored = self.score_step_of(ip, mv, (from, to), &source, glance);
        self.source = source;
        scored
    }

    /// [`score_step`](Self::score_step) with the moved pile's cards before the move.
    fn score_step_of(
        &self,
        ip: &mut Position,
        mv: Move,
        (from, to): (PileId, PileId),
        source: &[Card],
        glance: &mut Glance,
    ) -> Option<Scored> {
        let layout = *ip.layout();
        let card = *source.last()?;
        let n = source.len();
        let from_kind = layout.kind(from)?;
        let to_kind = layout.kind(to)?;
        let mut score = match to_kind {
            PileKind::Foundation(_) => {
                let mut s = if held_for_the_table(ip, from, glance) {
                    weight::TO_FOUNDATION_HELD
                } else {
                    weight::TO_FOUNDATION
                };
                if matches!(from_kind, PileKind::Cell(_)) {
                    s += weight::FROM_CELL;
                }
                s
            }
            PileKind::Tableau(_) if from_kind == PileKind::Waste && waste_is_a_trap(ip, card) => {
                weight::WASTE_TO_TABLEAU
            }
            PileKind::Tableau(_) => {
                weight::TO_TABLEAU + bury_penalty(ip, ip.pile(to), glance.home())
            }
            PileKind::Cell(_) => {
                let free = layout.cell_ids().filter(|&c| ip.pile(c).is_empty()).count();
                weight::TO_CELL + if free <= 1 { weight::LAST_CELL } else { 0 }
            }
            _ => weight::TO_TABLEAU,
        };
        score += lift_gain(
            ip,
            (from_kind, to_kind),
            &source[..n - 1],
            ip.pile(to),
            card,
        );

        let stock_before = ip.stock_len();
        let undo = ip.apply(mv).ok()?;
        let fresh = ip.stock_len() < stock_before;
        let verdict = (|| {
            if !fresh && self.seen.contains(&ip.hash()) {
                return None;
            }
            let uncovering = matches!(
                from_kind,
                PileKind::Tableau(_) | PileKind::Reserve | PileKind::Waste
            );
            if uncovering && n >= 2 {
                let rest = &source[..n - 1];
                if matches!(from_kind, PileKind::Tableau(_))
                    && matches!(to_kind, PileKind::Tableau(_))
                    && ip.tableau_takes(from, card)
                {
                    // It already lay on a card that takes it: a shift, not progress.
                    score += weight::SHIFT_ALREADY_PLACED;
                }
                // What the foundations want is the same after a move that
                // leaves them alone.
                let touches_home = [from_kind, to_kind]
                    .iter()
                    .any(|k| matches!(k, PileKind::Foundation(_)));
                let after = if touches_home {
                    glance.homes.of(ip)
                } else {
                    glance.here
                };
                let home = glance.homes.get(after);
                score += uncover_value(ip, from, rest, home);
            } else if matches!(from_kind, PileKind::Tableau(_)) && n == 1 {
                score += if fresh {
                    weight::FRESH_FROM_STOCK
                } else {
                    // Not fresh from the stock, so a card in the emptied
                    // fan came from the waste (Blondes and Brunettes).
                    match ip.spec().emptied_fan() {
                        EmptiedFan::TakesAKing => weight::EMPTY_FOR_KING,
                        EmptiedFan::RefilledAtOnce if !ip.pile(from).is_empty() => {
                            weight::EMPTY_FROM_WASTE
                        }
                        EmptiedFan::StaysEmpty | EmptiedFan::RefilledAtOnce => weight::EMPTIED,
                    }
                };
            }
            Some(score)
        })();
        ip.undo(&undo);
        Some(Scored {
            mv,
            score: verdict?,
            fresh,
        })
    }
}

/// Whether `card` on the waste may never get off again unless taken when it
/// can: the stock passes once, and only the copies of one card can take it
/// on the table (Krakowski, built in suit).
fn waste_is_a_trap(ip: &Position, card: Card) -> bool {
    ip.spec().stock_turns_onto_a_waste()
        && ip.redeals_left() == 0
        && ip.targets_of(card).count() <= 1
}

/// What uncovering `rest` (the source pile after the move, face up) is worth,
/// judged in the imagined position after the move.
fn uncover_value(ip: &Position, from: PileId, rest: &[Card], home: &mut HomeGlance) -> i32 {
    let Some((&revealed, below)) = rest.split_last() else {
        return 0;
    };
    let mut v = match home.distance(ip, revealed) {
        _ if home.wanted(ip, revealed) => weight::UNCOVER_WANTED,
        1 => weight::UNCOVER_NEAR,
        2 => weight::UNCOVER_NEXT,
        _ => 0,
    };
    let layout = ip.layout();
    if layout
        .tableau_ids()
        .any(|t| t != from && !ip.pile(t).is_empty() && ip.tableau_takes(t, revealed))
    {
        v += weight::UNCOVER_PLAYABLE;
    }
    // Cards still covered in this pile: the fewer cards on a wanted one, the better.
    for (i, &c) in below.iter().enumerate() {
        let above = (below.len() - i) as i32;
        if home.wanted(ip, c) {
            v += weight::DIG_WANTED / above;
        } else if home.distance(ip, c) == 1 {
            v += weight::DIG_NEAR / above;
        }
    }
    v
}

/// How many of `below` cannot go home before `card` has moved: the cards
/// the engine says go home before it ([`Position::goes_home_before`]), which
/// also answers where a suit's foundations follow no single sequence (Krug's
/// dealt bases, Nivernaise's and House on the Hill's two houses).
fn blocked_by(ip: &Position, card: Card, below: &[Card]) -> i32 {
    below
        .iter()
        .filter(|&&c| ip.goes_home_before(c, card))
        .count() as i32
}

/// What moving `card` from a pile of `from_kind` (where it lay on `below`)
/// onto a pile of `to_kind` holding `onto` gains for the cards it stops
/// blocking, less those it blocks there ([`blocked_by`]). Only a move
/// between table piles: a card put into a flank cell leaves it only for a
/// foundation, so the cell's cost and what the move uncovers judge that
/// move, and lifting a card into a cell to free the cards under it would
/// otherwise outweigh keeping a cell free.
fn lift_gain(
    ip: &Position,
    (from_kind, to_kind): (PileKind, PileKind),
    below: &[Card],
    onto: &[Card],
    card: Card,
) -> i32 {
    match (from_kind, to_kind) {
        (PileKind::Tableau(_), PileKind::Tableau(_)) => {
            weight::BLOCK * (blocked_by(ip, card, below) - blocked_by(ip, card, onto))
        }
        _ => 0,
    }
}

/// The cost of covering the cards of a pile that a foundation soon wants.
fn bury_penalty(ip: &Position, pile: &[Card], home: &mut HomeGlance) -> i32 {
    let mut worst = 0;
    for &c in pile {
        if home.wanted(ip, c) {
            worst = worst.min(weight::BURY_WANTED);
        } else if home.distance(ip, c) == 1 {
            worst = worst.min(weight::BURY_NEAR);
        }
    }
    worst
}

/// Whether the top card of `from` could still take a face-up card on the
/// table that no foundation wants yet: then it should not go up so soon.
fn held_for_the_table(ip: &Position, from: PileId, glance: &mut Glance<'_>) -> bool {
    if !matches!(ip.layout().kind(from), Some(PileKind::Tableau(_))) {
        return false;
    }
    let Some(&top) = ip.pile(from).last() else {
        return false;
    };
    ip.builders_of(top)
        .any(|x| glance.in_play.beside(ip, from, x) && !glance.home().wanted(ip, x))
}

/// How one person-like game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PersonGame {
    pub won: bool,
    pub moves: usize,
    /// Cards on the foundations at the end.
    pub home: usize,
}

/// The most moves a game of `spec` is played for (by the person-like player
/// or the hint-follower): 20 a card, far past any real game's length.
pub fn move_limit(spec: &GameSpec) -> usize {
    20 * spec.card_count()
}

/// Plays `pos` to the end like a person with generator seed `seed`, at the
/// calibrated skill: see [`play_as`].
pub fn play_like_a_person(pos: &Position, seed: u64, max_moves: usize) -> PersonGame {
    play_as(pos, PersonPlayer::new(seed), max_moves)
}

/// Plays `pos` to the end with `player`: until it is won, the player sees
/// nothing to do, or `max_moves` are played.
pub fn play_as(pos: &Position, player: PersonPlayer, max_moves: usize) -> PersonGame {
    let (game, _) = play_recorded(pos, player, max_moves, None);
    game
}

/// As [`play_as`], with the moves played, first first; the game also ends
/// (not won) at `deadline`.
pub fn play_recorded(
    pos: &Position,
    mut player: PersonPlayer,
    max_moves: usize,
    deadline: Option<Instant>,
) -> (PersonGame, Vec<Move>) {
    let mut pos = pos.clone();
    let mut played = Vec::new();
    while played.len() < max_moves && !pos.is_won() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let Some(mv) = player.choose(&View::of(&pos)) else {
            break;
        };
        if pos.apply(mv).is_err() {
            // The view's legal moves are the position's; refusing one would be
            // an engine inconsistency, and the game simply ends there.
            break;
        }
        played.push(mv);
    }
    let game = PersonGame {
        won: pos.is_won(),
        moves: played.len(),
        home: pos.foundation_cards(),
    };
    (game, played)
}

#[cfg(test)]
mod tests {
    use super::{blocked_by, lift_gain, weight};
    use patience_engine::{game, Card, PileKind, Position, Rank, Suit};

    fn deal(id: &str) -> Position {
        Position::deal(game(id).unwrap(), 1).unwrap()
    }

    /// docs/games.md, Krug: each foundation builds up in its base's suit
    /// from the base rank, wrapping K → A → 6. So the card one rank above
    /// the spade base goes home before the card two above it, and burying
    /// it under that card counts; the other way round it does not.
    #[test]
    fn burying_counts_in_krug_from_the_dealt_base() {
        let pos = deal("krug");
        let f1 = pos.layout().foundation_ids().next().unwrap();
        let base = pos.pile(f1)[0];
        // Krug's ranks, the ace highest: 6..K then A, wrapping.
        let order = [6u8, 7, 8, 9, 10, 11, 12, 13, 1];
        let at = order
            .iter()
            .position(|&n| n == base.rank().number())
            .unwrap();
        let up = |k: usize| {
            let n = order[(at + k) % order.len()];
            Card::new(Rank::new(n).unwrap(), base.suit())
        };
        let (next, after) = (up(1), up(2));
        assert_eq!(blocked_by(&pos, after, &[next]), 1);
        assert_eq!(blocked_by(&pos, next, &[after]), 0);
    }

    /// La Belle Lucie builds each suit up from the ace: a two under a five
    /// of its suit is buried, a two of another suit or a six is not.
    #[test]
    fn burying_counts_lower_cards_of_the_suit_in_la_belle_lucie() {
        let pos = deal("la-belle-lucie");
        let c = |t| Card::parse(t).unwrap();
        let below = [c("2S"), c("2H"), c("6S")];
        assert_eq!(blocked_by(&pos, c("5S"), &below), 1);
    }

    /// Nivernaise: an ace-house has taken hearts to the four and the
    /// king-house down to the eight, so the second nine of hearts can only
    /// go onto the ace-house, after the five. A nine lying on that five
    /// blocks it: lifting it onto another table pile would gain, lifting it
    /// into a flank cell gains nothing (the cell's cost judges that move).
    #[test]
    fn lifting_a_card_into_a_flank_cell_gains_nothing() {
        let c = |t| Card::parse(t).unwrap();
        // Foundations f1..f4 are the ace-houses, f5..f8 the king-houses,
        // spades, hearts, diamonds, clubs; the line piles are full (an empty
        // one is refilled at once) and the cards not placed are the stock.
        let placed = [
            ("t1", "5H 9H"),
            ("t2", "2C"),
            ("t3", "2S"),
            ("t4", "2D"),
            ("t5", "3S"),
            ("t6", "3D"),
            ("f2", "AH 2H 3H 4H"),
            ("f6", "KH QH JH 10H 9H 8H"),
        ];
        let mut rest: Vec<Card> = Suit::ALL
            .into_iter()
            .flat_map(|s| Rank::all().map(move |r| Card::new(r, s)))
            .flat_map(|x| [x, x])
            .collect();
        let mut text = String::from("game: nivernaise\ndeal: 1\nredeals-used: 0\n");
        for (pile, cards) in placed {
            for t in cards.split(' ') {
                let i = rest.iter().position(|&x| x == c(t)).unwrap();
                rest.remove(i);
            }
            text += &format!("{pile}: {cards}\n");
        }
        let stock: Vec<String> = rest.iter().map(|x| x.to_string()).collect();
        text += &format!("s: {}\n", stock.join(" "));
        let pos = match Position::from_text(&text, None) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(blocked_by(&pos, c("9H"), &[c("5H")]), 1);
        let (fan, cell) = (PileKind::Tableau(0), PileKind::Cell(0));
        assert_eq!(lift_gain(&pos, (fan, cell), &[c("5H")], &[], c("9H")), 0);
        assert_eq!(
            lift_gain(&pos, (fan, fan), &[c("5H")], &[], c("9H")),
            weight::BLOCK
        );
    }
}
