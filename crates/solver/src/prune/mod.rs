//! Dominances: moves that can never hurt, and positions that can never be won.
//!
//! Both only cut the search; every move still comes from the engine.
//!
//! **Safe foundation move** ([`safe_foundation_move`]). A card going to a
//! foundation that no other card can ever still need, and that no redeal to
//! come would gather, is played at once, as the only child of the position:
//! any winning line can be rewritten to play it first. The rule and its
//! proof are the engine's (`patience_engine::safe_home`, at
//! [`Safety::KeepsEveryWin`]), which the player's automatic moves share.
//!
//! **Dead position** ([`is_dead`]). In the last deal of a one-deck game whose
//! empty fans stay empty or take only kings, where cards move one at a time
//! and the draw is spent (or absent), a card `x` above a lower card of its own
//! suit in the same fan can leave only onto the card one rank above it in
//! suit (or, for a king in Fan, to an empty fan). If that card does not exist
//! (a king where empty fans stay empty; Krug's ace) or lies under `x` in the
//! same fan, `x` never moves, the lower card never reaches its foundation,
//! and the game is lost. The classic case is a king lying on the ace of its
//! suit. (With runs, `x` could ride along on the card under it, so the test
//! is off in the sequences variant.)
//!
//! In the last deal of the two-deck games built down in suit, the test of
//! [`crate::prune::dead_two_deck`] runs instead: both copies of a card count, and
//! the waste is a pile too; where a waste holds cards,
//! [`crate::prune::waste_order`] also asks whether its cards can come off in
//! their order, and where the stock leaves only by refills
//! ([`crate::prune::stock_order::applies_to_refills`]), the stock's order
//! test asks first whether its cards can come out in theirs. One redeal before
//! the last deal of the one-deck games whose redeals gather in order,
//! [`crate::prune::next_deal`] looks through the redeal at the fans the
//! last deal is sure to begin with.
//!
//! **Lone card** ([`drop_lone_card_moves`]). In a one-deck game built down
//! in suit, one card at a time, whose emptied fans stay empty, with no
//! stock, cells or cards back from the foundations and no draw in the
//! current deal, a card `x` that is alone in its fan never needs to move
//! onto another fan, in the last deal and, where redeals shuffle, in every
//! deal. Rewrite any line that puts `x` on `y` (the one card it may go on)
//! to leave `x` where it is: the cards the line later puts on `x` go on it
//! in its own fan (one deck: each card has one builder, so nothing else
//! goes on `x`, nor on `y` while `x` lay there), `x` goes home from its own
//! fan as well as from `y`'s, and the fan it would have emptied is of no use
//! empty. Every other move stays legal, `y` is uncovered for longer, and the
//! same cards reach the foundations (so the best count of [`crate::best`] is
//! kept too). A redeal taken while the two lines differ gathers the same
//! cards, only lying otherwise: a shuffled redeal sorts them first
//! (`GameSpec::redeal_depends_only_on_cards_left`), so both lines go on from
//! the same deal, and from there the rewritten line is the line itself. (A
//! redeal that gathers in order would deal another layout: there the rule
//! waits for the last deal. A draw in the deal could take a card from under
//! `x` in one line and not the other: there too.) fc-solve prunes this move
//! the same way in the last deal (docs/solver.md); it cuts the plain search
//! of a last deal 5 to 12 times.

pub mod asking;
pub mod dead_two_deck;
pub mod next_deal;
pub mod pile_order;
mod relaxed;
pub mod stock_order;
pub mod waste_order;

use patience_engine::{Card, EmptiedFan, Move, PileKind, Position, Safety, SuitPlaces, Undo};

/// A foundation move among `moves` that can be played without searching the
/// others: the engine's safe move that loses no win (see the module
/// documentation and `patience_engine::safe_home`).
#[inline]
pub fn safe_foundation_move(pos: &Position, moves: &[Move]) -> Option<Move> {
    pos.safe_home_move(moves, Safety::KeepsEveryWin)
}

/// Whether a dead-position test applies to this game at this moment: the
/// one-deck test here, or the two-deck one of [`crate::prune::dead_two_deck`]
/// (with the waste's order of [`crate::prune::waste_order`]).
pub fn dead_test_applies(pos: &Position) -> bool {
    one_deck_test_applies(pos) || dead_two_deck::applies(pos) || next_deal::applies(pos)
}

/// Whether the one-deck dead-position test applies.
fn one_deck_test_applies(pos: &Position) -> bool {
    one_deck_places(pos).is_some()
}

/// Where the one-deck test applies, the places it compares: each card's
/// place in its suit's foundation sequence (the engine's
/// [`Position::suit_places`]; the ace, or Krug's base, first).
fn one_deck_places(pos: &Position) -> Option<SuitPlaces> {
    let applies = pos.redeals_left() == 0 && !pos.draw_left() && one_deck_fans(pos);
    if applies {
        pos.suit_places()
    } else {
        None
    }
}

/// The shape both one-deck rules need: one deck built down in suit, one card
/// at a time, emptied fans that stay empty or take only kings, no card back
/// from the foundations, no stock and no cells.
pub(crate) fn one_deck_fans(pos: &Position) -> bool {
    let spec = pos.spec();
    let fans_stay = match spec.emptied_fan() {
        EmptiedFan::StaysEmpty | EmptiedFan::TakesAKing => true,
        EmptiedFan::RefilledAtOnce => false,
    };
    spec.copies_of_each_card() == 1
        && spec.builds_down_in_suit()
        && spec.moves_one_card()
        && fans_stay
        && !spec.foundations_give_cards_back()
        && pos.layout().stock.is_none()
        && pos.layout().cells == 0
}

/// Whether a king may move onto an emptied fan (Fan).
fn kings_move_to_emptied_fans(pos: &Position) -> bool {
    match pos.spec().emptied_fan() {
        EmptiedFan::TakesAKing => true,
        EmptiedFan::StaysEmpty | EmptiedFan::RefilledAtOnce => false,
    }
}

/// Whether the lone-card rule applies (see the module documentation): the
/// one-deck shape with emptied fans that stay empty, no draw in this deal,
/// and either no redeal left or only redeals that depend on the cards left
/// alone.
pub fn lone_card_rule_applies(pos: &Position) -> bool {
    let stays = match pos.spec().emptied_fan() {
        EmptiedFan::StaysEmpty => true,
        EmptiedFan::TakesAKing | EmptiedFan::RefilledAtOnce => false,
    };
    stays && one_deck_fans(pos) && !pos.draw_in_this_deal() && !pos.redeal_in_order_left()
}

/// Drops from `moves` the moves of a fan's lone card onto another fan, where
/// they never help (see the module documentation).
pub fn drop_lone_card_moves(pos: &Position, moves: &mut Vec<Move>) {
    if !lone_card_rule_applies(pos) {
        return;
    }
    let layout = pos.layout();
    let is_fan = |p| matches!(layout.kind(p), Some(PileKind::Tableau(_)));
    moves.retain(|&m| match m {
        Move::Step { from, to } => !(is_fan(from) && is_fan(to) && pos.pile(from).len() == 1),
        _ => true,
    });
}

/// A proof that the position cannot be won (see the module documentation).
pub fn is_dead(pos: &Position) -> bool {
    if dead_two_deck::applies(pos) {
        // `waste_order::applies` is this test's conditions and a waste with
        // cards; an empty or absent waste is never dead by it.
        return dead_two_deck::is_dead(pos)
            || waste_order::is_dead(pos)
            || (stock_order::applies_to_refills(pos) && stock_order::is_dead(pos));
    }
    if next_deal::applies(pos) {
        return next_deal::is_dead(pos);
    }
    let Some(places) = one_deck_places(pos) else {
        return false;
    };
    pos.layout()
        .tableau_ids()
        .any(|t| fan_is_dead(pos, pos.pile(t), &places))
}

/// As [`is_dead`] for `pos`, reached by `mv` from a position where the test
/// applied and found it alive (`parent_alive`). The test then applies here
/// too (redeals and the draw only get used up), and a move takes cards off
/// tops, which only shrinks what lies below each card: so a new dead card
/// can only be one that `mv` put on a fan, and that fan alone is looked at.
/// A card to a foundation adds none: the places count from a foundation's
/// first card, so no place changes as a card goes home
/// ([`Position::suit_places`]). The search asks this at every new position
/// instead of the full test. The next-deal test of [`next_deal`] is always
/// run in full: a move can close a fan and lengthen the prefix. The
/// two-deck test is run in full but where the move leaves it as it was: the
/// waste's order test of [`waste_order`] is left out after a step onto a
/// fan from a fan or the waste; the two-deck test's peel, and with it the
/// stock's order test where the stock leaves only by refills, after such a
/// step or a card turned onto the waste, where the card moved may leave at once
/// ([`dead_two_deck::top_leaves_at_once`]), and after a card sent home whose
/// other copy keeps its part in the peel
/// ([`dead_two_deck::home_card_spares_the_peel`]; a card going home can
/// kill a position otherwise: its copy was the one target of a card still
/// out), in each case where nothing was refilled. Where the stock leaves
/// only by refills, the stock's order test is not asked after a card sent
/// home, and after a step onto a fan it stops once the card laid leaves
/// ([`stock_order::is_dead_after_step`]). `undo` is the move's own.
pub fn is_dead_after(pos: &Position, undo: &Undo, parent_alive: bool) -> bool {
    let layout = pos.layout();
    let Move::Step { from, to } = undo.played() else {
        // A card turned onto the waste that may leave at once leaves the
        // two-deck test's peel as it was before the turn.
        if let (Move::Deal, true, Some(waste)) = (undo.played(), parent_alive, layout.waste) {
            if dead_two_deck::applies(pos)
                && !undo.refilled()
                && dead_two_deck::top_leaves_at_once(pos, waste)
            {
                return waste_order::is_dead(pos);
            }
        }
        return is_dead(pos);
    };
    // A parent found alive with no redeal left was under the one-deck test
    // (the next-deal test needs a redeal left), and so is this position.
    if !parent_alive || pos.spec().copies_of_each_card() == 2 || pos.redeals_left() > 0 {
        if parent_alive
            && (matches!(layout.kind(from), Some(PileKind::Tableau(_)))
                || Some(from) == layout.waste)
            && matches!(layout.kind(to), Some(PileKind::Tableau(_)))
            && dead_two_deck::applies(pos)
        {
            // The waste's order test is left out. A fan move changes neither
            // the waste nor the foundations, all that it reads (a refill
            // takes a stock card, loose to that test, onto a fan, where it
            // stays loose). A card from the waste onto a fan is the move its
            // relaxed game makes first wherever it may (the waste's top
            // becomes loose, see `waste_order`), so the parent's relaxed win
            // goes through this position.
            if !undo.refilled() && dead_two_deck::top_leaves_at_once(pos, to) {
                return false;
            }
            return (stock_order::applies_to_refills(pos)
                && stock_order::is_dead_after_step(pos, to))
                || dead_two_deck::is_dead(pos);
        }
        // A card sent home whose other copy keeps its part in the peel
        // leaves the peel as it was; the waste's order test runs (a card
        // home may be one a waste card needed to be laid on).
        if parent_alive
            && matches!(layout.kind(to), Some(PileKind::Foundation(_)))
            && dead_two_deck::applies(pos)
            && !undo.refilled()
            && dead_two_deck::home_card_spares_the_peel(pos, to)
        {
            return waste_order::is_dead(pos);
        }
        // A card sent home, and the refill it may bring, are moves the
        // stock's order game makes at once, so the parent's relaxed win goes
        // through this position: where the stock leaves only by refills (no
        // waste either) the two-deck test alone runs.
        if parent_alive
            && matches!(layout.kind(to), Some(PileKind::Foundation(_)))
            && stock_order::applies_to_refills(pos)
        {
            return dead_two_deck::is_dead(pos);
        }
        return is_dead(pos);
    }
    match layout.kind(to) {
        Some(PileKind::Tableau(_)) => pos
            .suit_places()
            .is_some_and(|places| fan_is_dead(pos, pos.pile(to), &places)),
        Some(PileKind::Foundation(_)) => false,
        _ => is_dead(pos),
    }
}

/// Whether some card of `fan` lies above a lower card of its suit with no way
/// off the fan.
pub(crate) fn fan_is_dead(pos: &Position, fan: &[Card], places: &SuitPlaces) -> bool {
    highest_stuck(pos, fan, places).is_some()
}

/// The height of the highest card of `fan` that lies above a lower card of
/// its suit and can leave only onto the card it builds on (or, a king in
/// Fan, to an empty fan), where that card does not exist or lies under it
/// in the same fan: such a card never moves again in this deal. One pass up
/// the fan, keeping the cards seen below (as bits: one deck, so a card is
/// there or not) and each suit's lowest place below.
pub(crate) fn highest_stuck(pos: &Position, fan: &[Card], places: &SuitPlaces) -> Option<usize> {
    let kings_move = kings_move_to_emptied_fans(pos);
    let mut below: u64 = 0;
    let mut lowest = [u8::MAX; 4];
    let mut highest = None;
    for (h, &x) in fan.iter().enumerate() {
        let s = x.suit().index();
        let fx = places.of(x);
        if lowest[s] < fx {
            let stuck = match pos.targets_of(x).next() {
                None => !kings_move,
                Some(target) => below & 1 << target.index() != 0,
            };
            if stuck {
                highest = Some(h);
            }
        }
        lowest[s] = lowest[s].min(fx);
        below |= 1 << x.index();
    }
    highest
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::Suit;

    /// The piles of a random ending of `spec`: each suit's foundation built
    /// to `lo + below(spread)` of its ranks (`heights`), the cards left
    /// shuffled into the first fans, `lo + below(spread)` a fan (`fans`).
    pub(super) fn ending_piles(
        spec: &'static patience_engine::GameSpec,
        rng: &mut patience_engine::prng::SplitMix64,
        heights: (usize, u64),
        fans: (usize, u64),
    ) -> Vec<Vec<Card>> {
        let l = *Position::deal(spec, 1).unwrap().layout();
        let mut piles = vec![Vec::new(); l.piles as usize];
        let mut rest = Vec::new();
        let ranks = spec.ranks.ranks();
        for (k, s) in Suit::ALL.into_iter().enumerate() {
            let h = heights.0 + rng.below(heights.1) as usize;
            piles[l.foundation(k as u8).index()] =
                ranks[..h].iter().map(|&r| Card::new(r, s)).collect();
            rest.extend(ranks[h..].iter().map(|&r| Card::new(r, s)));
        }
        rng.shuffle(&mut rest);
        let mut fan = 0;
        let mut cards = rest.into_iter().peekable();
        while cards.peek().is_some() {
            let n = fans.0 + rng.below(fans.1) as usize;
            piles[l.tableau(fan).index()].extend(cards.by_ref().take(n));
            fan += 1;
        }
        piles
    }

    /// The position of `text` in `game` with `redeals_left` redeals left.
    pub(super) fn at(text: &str, game: &str, redeals_left: u8) -> Position {
        Position::from_text(text, Some(game))
            .unwrap()
            .with_redeals_left(redeals_left)
            .unwrap()
    }

    #[test]
    fn a_king_on_its_ace_in_the_last_deal_is_dead_and_not_before() {
        let text = "AS KS\n2S 3S 4S\n5S 6S 7S\n8S 9S 10S\nJS QS\n";
        assert!(is_dead(&at(text, "la-belle-lucie", 0)));
        assert!(!is_dead(&at(text, "la-belle-lucie", 1)));
        // In Fan an emptied pile takes the king: not dead.
        assert!(!is_dead(&at(text, "fan", 0)));
        // But in Fan a queen over the jack of her suit with her king under
        // her is dead; with runs (the sequences variant) the test is off.
        let text = "KS JS QS\nAS 2S 3S\n4S 5S 6S\n7S 8S 9S\n10S\n";
        assert!(is_dead(&at(text, "fan", 0)));
        assert!(!is_dead(&at(text, "la-belle-lucie-sequences", 0)));
    }

    /// The dead test written the plain way (every card against every card below
    /// it), to hold the one-pass version to it.
    fn is_dead_by_pairs(pos: &Position) -> bool {
        if !dead_test_applies(pos) {
            return false;
        }
        let layout = pos.layout();
        let kings_move = kings_move_to_emptied_fans(pos);
        // The places are not what this test checks (they are the engine's,
        // pinned by its tests): the dead-card rule is written out again.
        let places = pos.suit_places().unwrap();
        let fpos = |c: Card| places.of(c);
        layout.tableau_ids().any(|t| {
            let pile = pos.pile(t);
            (1..pile.len()).any(|i| {
                let (below, x) = (&pile[..i], pile[i]);
                below
                    .iter()
                    .any(|&y| y.suit() == x.suit() && fpos(y) < fpos(x))
                    && match pos.targets_of(x).next() {
                        None => !kings_move,
                        Some(target) => below.contains(&target),
                    }
            })
        })
    }

    #[test]
    fn the_one_pass_and_after_a_move_dead_tests_agree_with_the_pairwise_one() {
        let mut dead = 0;
        for g in [
            "la-belle-lucie",
            "fan",
            "krug",
            "trefoil",
            "la-belle-lucie-36",
        ] {
            let spec = patience_engine::game(g).unwrap();
            for deal in 1..=30 {
                let mut p = Position::deal(spec, deal)
                    .unwrap()
                    .with_redeals_left(0)
                    .unwrap();
                let mut rng = patience_engine::prng::SplitMix64::new(deal);
                for _ in 0..200 {
                    let dead_here = is_dead(&p);
                    assert_eq!(dead_here, is_dead_by_pairs(&p), "{g} {deal}");
                    dead += dead_here as usize;
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // The test after a move, knowing this position alive,
                    // agrees with the full test on every child.
                    let alive = dead_test_applies(&p) && !dead_here;
                    for &m in &moves {
                        let u = p.apply(m).unwrap();
                        assert_eq!(
                            is_dead_after(&p, &u, alive),
                            is_dead(&p),
                            "{g} {deal} {m:?}"
                        );
                        p.undo(&u);
                    }
                    p.apply(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        assert!(dead > 0, "some positions along the games are dead");
    }

    #[test]
    fn a_lone_card_stays_in_its_fan_in_the_last_deal_only() {
        // 5S alone may go on 6S; 9H (not alone) may go on 10H.
        let text = "AS 2S 3S 4S 6S\n5S\n7S 8S 9S 10S 10H\nJS QS KS\nQH JH KH 9H\n";
        let onto = |p: &Position, card: &str| {
            let c: Card = card.parse().unwrap();
            let mut moves = p.legal_moves();
            drop_lone_card_moves(p, &mut moves);
            moves.iter().any(|m| {
                matches!(m, Move::Step { from, to }
                    if p.top(*from) == Some(c)
                        && matches!(p.layout().kind(*to), Some(PileKind::Tableau(_))))
            })
        };
        let last = at(text, "la-belle-lucie", 0);
        assert!(onto(&last, "9H"), "a covering card still moves");
        assert!(!onto(&last, "5S"), "the lone card stays");
        // A shuffled redeal left deals from the cards left alone: it stays.
        assert!(!onto(&at(text, "la-belle-lucie", 1), "5S"));
        // Before the last deal of a game whose redeals gather in order, the
        // fans' order makes the next deal: kept.
        assert!(onto(&at(text, "trilistnik", 1), "5S"));
        assert!(!onto(&at(text, "trilistnik", 0), "5S"));
        // A draw in this deal could take a card from under it: kept.
        assert!(onto(&at(text, "la-belle-lucie-super-move", 1), "5S"));
        assert!(!onto(&at(text, "three-shuffles-and-a-draw", 1), "5S"));
        assert!(onto(&at(text, "three-shuffles-and-a-draw", 0), "5S"));
        // In Fan an emptied fan takes a king: kept.
        assert!(onto(&at(text, "fan", 0), "5S"));
    }

    /// Random endings of the one-deck games whose redeals shuffle, with a
    /// redeal left, solved with the dominances (the lone card kept home in
    /// every deal among them) and without any, both to the end: an unsound
    /// rule would turn a won position into a proven loss. Both verdicts
    /// occur, and the rule drops moves in the searches of many.
    #[test]
    fn lone_cards_kept_home_before_the_last_deal_keep_every_verdict() {
        lone_cards_before_the_last_deal(12, 8);
    }

    #[test]
    #[ignore = "the full sweep, a minute: cargo test -p patience-solver -- --ignored"]
    fn lone_cards_kept_home_before_the_last_deal_keep_every_verdict_full() {
        lone_cards_before_the_last_deal(48, 25);
    }

    /// The sweep over deals `1..=deals` of each game: each verdict, and the
    /// rule at a root, more than `least` times in all.
    fn lone_cards_before_the_last_deal(deals: u64, least: usize) {
        use crate::{solve_with, Options};
        use patience_engine::prng::SplitMix64;
        let (mut won, mut lost, mut fired) = (0, 0, 0);
        for g in [
            "la-belle-lucie",
            "la-belle-lucie-one-redeal",
            "trefoil",
            "la-belle-lucie-36",
            "three-shuffles-and-a-draw",
        ] {
            let spec = patience_engine::game(g).unwrap();
            for deal in 1..=deals {
                // Random endings: each suit's foundation at a random height,
                // the cards left shuffled into fans of one to four.
                let mut rng = SplitMix64::new(deal ^ 0x10e);
                let mut positions = Vec::new();
                for _ in 0..2 {
                    let n = spec.ranks.ranks().len();
                    let piles = ending_piles(spec, &mut rng, (2 * n / 5, (n / 2) as u64), (1, 4));
                    let used = rng.below(spec.redeals_allowed() as u64) as u8;
                    if let Ok(q) = Position::from_parts(spec, deal, piles, used, false) {
                        positions.push(q);
                    }
                }
                for p in positions {
                    fired += drops_along_walks(&p) as usize;
                    let verdict = |dominances| {
                        solve_with(&p, &Options::with_nodes(400_000, dominances))
                            .outcome
                            .won()
                    };
                    if let (Some(a), Some(b)) = (verdict(true), verdict(false)) {
                        assert_eq!(
                            a,
                            b,
                            "{g} deal {deal}: with the dominances {a}, without {b}\n{}",
                            p.to_text()
                        );
                        if a {
                            won += 1;
                        } else {
                            lost += 1;
                        }
                    }
                }
            }
        }
        eprintln!("won {won}, lost {lost}, the rule met in searches of {fired}");
        assert!(won > least && lost > least, "won {won}, lost {lost}");
        assert!(
            fired > least,
            "the rule dropped a move near {fired} positions"
        );
    }

    /// Whether the lone-card rule drops a move somewhere along a few random
    /// walks from `p` (no redeal played): the positions a search of `p`
    /// meets.
    fn drops_along_walks(p: &Position) -> bool {
        let mut rng = patience_engine::prng::SplitMix64::new(p.hash());
        (0..20).any(|_| {
            let mut q = p.clone();
            (0..40).any(|_| {
                let mut moves = q.legal_moves();
                moves.retain(|m| *m != Move::Redeal);
                let all = moves.len();
                drop_lone_card_moves(&q, &mut moves);
                if moves.len() < all {
                    return true;
                }
                if moves.is_empty() {
                    return false;
                }
                q.apply(moves[rng.below(moves.len() as u64) as usize])
                    .is_err()
            })
        })
    }

    #[test]
    fn a_lone_card_kept_home_reaches_as_many_cards_home() {
        use crate::{best, Budget};
        let spec = patience_engine::game("la-belle-lucie").unwrap();
        let mut compared = 0;
        for deal in 1..=30u64 {
            let p = Position::deal(spec, deal)
                .unwrap()
                .with_redeals_left(0)
                .unwrap();
            let budget = Budget {
                nodes: Some(500_000),
                ..Budget::default()
            };
            let with = best(&p, &budget);
            let plain = crate::search::run(
                &p,
                &crate::search::Settings {
                    budget,
                    mode: crate::search::Mode::Best,
                    dominances: false,
                    width: None,
                    last_pass_nodes: None,
                    last_pass_sample: (1, 0),
                    piles_order: false,
                    stock_order: false,
                },
            );
            if with.complete && plain.end == crate::search::End::Exhausted {
                assert_eq!(with.cards, plain.best_cards, "deal {deal}");
                compared += 1;
            }
        }
        assert!(compared >= 20, "enough deals searched through: {compared}");
    }

    #[test]
    fn a_card_over_a_lower_one_lives_while_its_target_is_free() {
        // 5S over 2S: it can still go onto 6S, which is not under it.
        let text = "2S 5S\nAS\n6S 4S 3S\n9S 8S 7S\nKS QS JS 10S\n";
        assert!(!is_dead(&at(text, "la-belle-lucie", 0)));
        // With 6S under it, it cannot.
        let text = "6S 2S 5S\nAS\n4S 3S\n9S 8S 7S\nKS QS JS 10S\n";
        assert!(is_dead(&at(text, "la-belle-lucie", 0)));
    }

    /// A Nivernaise position: the suits after the first `open` home, in the
    /// others the ace-house at 3 and the king-house at 10; the 19 cards left
    /// of each such suit where `place` puts them (a pile index into the
    /// layout, by card).
    fn nivernaise_ending(
        open: usize,
        place: impl Fn(&[Card]) -> Vec<(usize, Card)>,
        used: u8,
    ) -> Position {
        use patience_engine::Rank;
        let spec = patience_engine::game("nivernaise").unwrap();
        let dummy = Position::deal(spec, 1).unwrap();
        let l = dummy.layout();
        let mut piles = vec![Vec::new(); l.piles as usize];
        let ranks: Vec<Rank> = spec.ranks.ranks().into_iter().collect();
        let mut rest = Vec::new();
        for (k, s) in Suit::ALL.into_iter().enumerate() {
            let up: Vec<Card> = ranks.iter().map(|&r| Card::new(r, s)).collect();
            let (a, d) = if k < open { (3, 4) } else { (13, 13) };
            piles[l.foundation(k as u8).index()] = up[..a].to_vec();
            piles[l.foundation(4 + k as u8).index()] = up.iter().rev().take(d).copied().collect();
            rest.extend_from_slice(&up[a..]);
            rest.extend_from_slice(&up[..13 - d]);
        }
        for (pile, c) in place(&rest) {
            piles[pile].push(c);
        }
        Position::from_parts(spec, 0, piles, used, false).unwrap()
    }

    fn cell(i: usize) -> usize {
        6 + 8 + i
    }

    #[test]
    fn a_flank_card_goes_home_at_once_when_its_twin_waits_in_a_flank_too() {
        let spec = patience_engine::game("nivernaise").unwrap();
        let l = *Position::deal(spec, 1).unwrap().layout();
        assert_eq!(l.cell_ids().next().map(|c| c.index()), Some(cell(0)));
        // Both 4S (the spade ace-house's next card) in flank cells, the rest of
        // the spades on the line, two redeals left: the cell 4H goes home.
        // The first `n` 4s of `rest` in flank cells, the others round the line.
        let fours_in_cells = |n: usize| {
            move |rest: &[Card]| {
                let mut out = Vec::new();
                let mut cells = 0;
                for (i, &c) in rest.iter().enumerate() {
                    if c.rank() == patience_engine::Rank::new(4).unwrap() && cells < n {
                        out.push((cell(cells), c));
                        cells += 1;
                    } else {
                        out.push((i % 6, c));
                    }
                }
                out
            }
        };
        let p = nivernaise_ending(1, fours_in_cells(2), 0);
        let safe = safe_foundation_move(&p, &p.legal_moves());
        let Some(Move::Step { from, .. }) = safe else {
            panic!("expected a safe move, got {safe:?}");
        };
        assert!(matches!(l.kind(from), Some(PileKind::Cell(_))));
        // One 4H in a cell, the other on the line: which copy goes to the
        // ace-house matters, so nothing is forced.
        let p = nivernaise_ending(1, fours_in_cells(1), 0);
        assert_eq!(safe_foundation_move(&p, &p.legal_moves()), None);
    }

    /// Random Nivernaise endings (38 spades and hearts left, some in flank cells, the
    /// rest on the line and in the stock, 0 to 2 redeals left) solved with and
    /// without the dominances: an unsound rule would turn a won position
    /// into a proven loss. Both verdicts occur, and the flank rule fires.
    /// The default run takes the first seeds only; the full sweep: `cargo test -p patience-solver -- --ignored`.
    #[test]
    fn nivernaise_endings_keep_their_verdicts_under_the_dominances() {
        nivernaise_endings(16, 2);
    }

    #[test]
    #[ignore = "the full sweep, half a minute: cargo test -p patience-solver -- --ignored"]
    fn nivernaise_endings_keep_their_verdicts_under_the_dominances_full() {
        nivernaise_endings(48, 8);
    }

    /// The sweep over seeds `0..seeds`: each verdict, and the flank rule,
    /// more than `least` times.
    fn nivernaise_endings(seeds: u64, least: usize) {
        use crate::{solve_with, Options};
        use patience_engine::prng::SplitMix64;
        let (mut won, mut lost, mut fired) = (0, 0, 0);
        for seed in 0..seeds {
            let mut rng = SplitMix64::new(seed);
            let used = rng.below(3) as u8;
            let in_cells = 6 + rng.below(3) as usize;
            // A line pile is never empty while the stock has cards.
            let stock_cards = (rng.below(13) as usize).min(38 - in_cells - 6);
            let place = |rest: &[Card]| {
                let mut rng = SplitMix64::new(seed ^ 0xace);
                // Shuffled, then cards far from their houses (A-3 and 10-K,
                // one copy each left) mostly first, into the cells: the
                // flanks fill with cards that cannot go home soon.
                let mut cards: Vec<(u64, Card)> = rest
                    .iter()
                    .map(|&c| {
                        let far = !(4..=9).contains(&c.rank().number());
                        (rng.below(4) + if far { 0 } else { 3 }, c)
                    })
                    .collect();
                cards.sort_by_key(|&(k, _)| k);
                let mut cards: Vec<Card> = cards.into_iter().map(|(_, c)| c).collect();
                // On the line, cards the houses want soon mostly lie low
                // (how mostly, by seed), so that some endings are lost.
                let soon = |c: &Card| {
                    let r = c.rank().number() as u64;
                    let up = if r >= 4 { r - 4 } else { 99 };
                    let down = if r <= 9 { 9 - r } else { 99 };
                    up.min(down)
                };
                let noise = 1 + seed % 8;
                if seed % 3 == 0 {
                    // Both 4S (the spade ace-house's next card) in the flanks.
                    let four = Card::new(patience_engine::Rank::new(4).unwrap(), Suit::Spades);
                    for slot in 0..2 {
                        let at = (slot..cards.len()).find(|&i| cards[i] == four).unwrap();
                        cards.swap(slot, at);
                    }
                }
                let (_, line) = cards.split_at_mut(in_cells);
                let mut keyed: Vec<(u64, Card)> = line
                    .iter()
                    .map(|c| (soon(c) + rng.below(noise), *c))
                    .collect();
                keyed.sort_by_key(|&(k, _)| k);
                for (slot, (_, c)) in line.iter_mut().zip(keyed) {
                    *slot = c;
                }
                let mut out = Vec::new();
                for (i, &c) in cards.iter().enumerate() {
                    let pile = if i < in_cells {
                        cell(i)
                    } else if i < cards.len() - stock_cards {
                        (i - in_cells) % 6
                    } else {
                        6 + 8 + 8
                    };
                    out.push((pile, c));
                }
                out
            };
            let p = nivernaise_ending(2, place, used);
            if let Some(Move::Step { from, to }) = safe_foundation_move(&p, &p.legal_moves()) {
                let c = p.top(from).unwrap();
                if p.twin_in_a_cell(from, c, to) {
                    fired += 1;
                }
            }
            let verdict = |dominances| {
                solve_with(&p, &Options::with_nodes(300_000, dominances))
                    .outcome
                    .won()
            };
            let (with, without) = (verdict(true), verdict(false));
            if let (Some(a), Some(b)) = (with, without) {
                assert_eq!(a, b, "seed {seed}: with dominances {a}, without {b}");
                if a {
                    won += 1;
                } else {
                    lost += 1;
                }
            }
        }
        eprintln!("won {won}, lost {lost}, fired {fired}");
        assert!(won > least && lost > least, "won {won}, lost {lost}");
        assert!(fired > least, "the flank rule fired at {fired} roots");
    }
}
