//! Dead positions one redeal before the last deal, in the one-deck games
//! whose redeals gather the fans without shuffling (Trilistnik, Bredulia,
//! Melnitsa, Krug): the next deal is known, so the search sees through it.
//!
//! **Why it is needed.** With a redeal left, the one-deck dead test of
//! [`crate::prune`] does not apply: a redeal gathers the cards and deals them
//! again, and a dead card may land in a fan of its own. So a plain search
//! visits every arrangement of the deal before the last one, and there the
//! last deal is usually dead at its first position (Trilistnik deal 26:
//! millions of such arrangements, each redealing to a dead last deal).
//!
//! **The rule.** Call a card `x` of a fan *stuck for this deal* when a lower
//! card of its suit lies under it in its fan and the card it builds on does
//! not exist or lies under it in the same fan: the one-deck dead card. Under
//! the shape of [`crate::prune`]'s one-deck rules (one deck, built down in
//! suit, one card at a time, emptied fans stay empty, no stock, cells or
//! cards back from the foundations) and with no draw left, `x` cannot move
//! before a redeal: it goes home only after that lower card, which lies under
//! it, and on the table only onto the card it builds on, which lies under it
//! too. So neither `x` nor any card under it moves before the redeal.
//!
//! Walk the fans in the order the redeal gathers them and collect the
//! *fixed prefix* of the gathered cards: an empty fan adds nothing (it stays
//! empty); a fan whose top card is stuck and can take no card (every card
//! that builds on it is home, or under a stuck card, or stuck itself) adds
//! all its cards and the walk goes on; any other fan adds its cards up to
//! its highest stuck card (none if it has none) and ends the walk. Until the
//! redeal every card of the prefix keeps its place and nothing is inserted
//! among them, so whenever the redeal comes (and a win must take it: the
//! stuck card's lower card never reaches home before it) the gathered cards
//! begin with this prefix, and the next deal's fans, dealt from the front in
//! fans of the game's size, begin with the prefix's chunks: each chunk is
//! the bottom of a fan, a last part shorter than a fan included. With one
//! redeal left that next deal is the last; if one of those chunks holds a
//! one-deck dead card (the test of [`crate::prune`], which looks at a fan's
//! own cards alone, and cards later put on top do not revive), every redeal
//! leads to a lost last deal, and the position is lost.
//!
//! With more redeals left, where the redeal gathers fan 1 first, a dead
//! card in the *first* chunk is enough: it is the bottom of fan 1 in the
//! next deal, stuck there for that deal, so the deal after it begins with the
//! same cards again, and so on to the last deal, which is lost. (Krug gathers
//! the last fan first, and deals to fan 1 first: there only one redeal left
//! counts.) Trilistnik deal 26 is the example: fan 1 is 8S KS 3C, and the
//! king over the eight of spades is the bottom of fan 1 in every deal.
//!
//! Dead cards are taken one at a time, not as the greatest stuck set of
//! [`crate::prune::dead_two_deck`]: a smaller set of stuck cards gives a
//! shorter prefix, which only proves less.

use patience_engine::{Card, EmptiedFan, InOrderGather, PileKind, Position};

use super::{fan_is_dead, highest_stuck, one_deck_fans};

/// Most cards the prefix holds (one deck).
const MAX_CARDS: usize = 64;

/// Whether the test applies: the one-deck shape with emptied fans that stay
/// empty, no draw left, and redeals left that gather the fans in order (not
/// the stock too): one, or any number where fan 1 is gathered first.
pub fn applies(pos: &Position) -> bool {
    let left = pos.redeals_left();
    let gathers_fans = match pos.spec().in_order_gather() {
        Some(InOrderGather::FirstFanFirst) => left >= 1,
        Some(InOrderGather::LastFanFirst) => left == 1,
        Some(InOrderGather::FansThenStock) | None => false,
    };
    let stays = match pos.spec().emptied_fan() {
        EmptiedFan::StaysEmpty => true,
        EmptiedFan::TakesAKing | EmptiedFan::RefilledAtOnce => false,
    };
    gathers_fans && stays && !pos.draw_left() && one_deck_fans(pos) && pos.suit_places().is_some()
}

/// Whether the position is lost by the rule of the module documentation.
/// Call only where [`applies`] holds.
pub fn is_dead(pos: &Position) -> bool {
    let Some(places) = pos.suit_places() else {
        return false;
    };
    let layout = pos.layout();
    // Cards that cannot move before the redeal: home, stuck, or under a
    // stuck card (one deck: a card is there or not).
    let mut fixed: u64 = 0;
    for f in layout.foundation_ids() {
        for &c in pos.pile(f) {
            fixed |= 1 << c.index();
        }
    }
    let mut stuck_at = [None; MAX_CARDS];
    for (k, t) in layout.tableau_ids().enumerate().take(MAX_CARDS) {
        let fan = pos.pile(t);
        stuck_at[k] = highest_stuck(pos, fan, &places);
        if let Some(h) = stuck_at[k] {
            for &c in &fan[..=h] {
                fixed |= 1 << c.index();
            }
        }
    }
    let mut prefix = [None; MAX_CARDS];
    let mut n = 0;
    for t in pos.fans_in_gather_order() {
        let Some(PileKind::Tableau(k)) = layout.kind(t) else {
            return false;
        };
        let fan = pos.pile(t);
        if fan.is_empty() {
            continue;
        }
        let Some(h) = stuck_at.get(k as usize).copied().flatten() else {
            break;
        };
        for &c in &fan[..=h] {
            if n < MAX_CARDS {
                prefix[n] = Some(c);
                n += 1;
            }
        }
        let top = fan[fan.len() - 1];
        let closed =
            h + 1 == fan.len() && pos.builders_of(top).all(|b| fixed & 1 << b.index() != 0);
        if !closed {
            break;
        }
    }
    let size = pos.spec().redeal_fan_size();
    let cards: Vec<Card> = prefix[..n].iter().flatten().copied().collect();
    // Each chunk of the prefix is the bottom of a fan of the next deal (the
    // last fan may take more cards on top, which keeps it dead); with more
    // redeals left only the first chunk counts.
    let chunks = match pos.redeals_left() {
        1 => layout.tableau as usize,
        _ => 1,
    };
    cards
        .chunks(size)
        .take(chunks)
        .any(|chunk| fan_is_dead(pos, chunk, &places))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve_with, Options};
    use patience_engine::prng::SplitMix64;

    use crate::prune::tests::{at, ending_piles};

    #[test]
    fn a_dead_chunk_at_the_front_of_the_gathered_cards_is_dead_through_the_redeal() {
        // Fan 1: KS over 2S, stuck (a king over a lower spade). The redeal
        // gathers fan 1 first, so the last deal's fan 1 is 2S AS KS, dead,
        // whatever goes on KS (QS is free to) or happens elsewhere.
        let text = "2S AS KS\n3S 4S 5S\n6S 7S 8S\n9S 10S JS\nQS\n";
        let p = at(text, "trilistnik", 1);
        assert!(applies(&p));
        assert!(is_dead(&p));
        // Where redeals shuffle the test does not apply; in the last deal
        // the one-deck test is the one.
        assert!(!applies(&at(text, "la-belle-lucie", 1)));
        assert!(!applies(&at(text, "trilistnik", 0)));
        // KS is stuck over 2S but falls alone in the second fan of the
        // next deal, away from 2S: not judged dead.
        let text = "4S 5S 2S KS\n3S 6S 7S\n8S 9S 10S\nJS QS\n";
        assert!(!is_dead(&at(text, "trilistnik", 1)));
        // Fan 1 begins 8S KS: the bottom of fan 1 in every deal to come,
        // dead with two redeals left as with one (Trilistnik deal 26).
        let text = "8S KS 3S\n2S 4S 5S\n6S 7S 9S\n10S JS QS\n";
        assert!(is_dead(&at(text, "trilistnik", 2)));
        assert!(is_dead(&at(text, "trilistnik", 1)));
        // Krug gathers the last fan first: only one redeal left counts.
        let krug = Position::deal(patience_engine::game("krug").unwrap(), 1).unwrap();
        assert!(!applies(&krug.clone().with_redeals_left(2).unwrap()));
        assert!(applies(&krug.with_redeals_left(1).unwrap()));
        // Trilistnik deal 26 as dealt, two redeals left.
        let deal = Position::deal(patience_engine::game("trilistnik").unwrap(), 26).unwrap();
        assert!(applies(&deal) && is_dead(&deal));
        // A fan whose pattern is split by the next deal's chunks, and what
        // a closed fan adds. Fan 1 is 2H 7S 8S KH: KH (over 2H) falls into
        // the next deal's fan 2, away from 2H. Its builder QH lies under a
        // stuck KD in fan 3, so fan 1 is closed and the walk goes on to fan
        // 2, 3S KS 4S: the next deal's fan 2 is KH 3S KS, dead.
        let rest =
            "2S 5S 6S 9S 10S JS QS 3H 4H 5H 6H 7H 8H 9H 10H JH 3D 4D 5D 6D 7D 8D 9D 10D JD QD";
        let text = format!("2H 7S 8S KH\n3S KS 4S\n2D QH KD\n{rest}\n");
        assert!(is_dead(&at(&text, "trilistnik", 1)));
        // With QH free fan 1 is not closed: the prefix ends with KH, alone
        // in its chunk, and the position is not judged dead.
        let text = format!("2H 7S 8S KH\n3S KS 4S\n2D KD QH\n{rest}\n");
        assert!(!is_dead(&at(&text, "trilistnik", 1)));
    }

    /// A random ending of `game`: each suit's foundation built to a random
    /// height, the cards left shuffled into the first fans, two or three a
    /// fan, `left` redeals left.
    fn ending(game: &str, seed: u64, left: u8) -> Position {
        let spec = patience_engine::game(game).unwrap();
        let mut rng = SplitMix64::new(seed);
        let piles = ending_piles(spec, &mut rng, (7, 6), (2, 2));
        Position::from_parts(spec, seed, piles, spec.redeals_allowed() - left, false).unwrap()
    }

    /// How many of deals 1..=200 of each game the test finds dead as
    /// dealt (printed: the test's reach), and that it finds some.
    #[test]
    fn some_deals_are_dead_as_dealt() {
        let mut dead = 0;
        for g in ["trilistnik", "bredulia", "melnitsa"] {
            let spec = patience_engine::game(g).unwrap();
            let n = (1..=200)
                .filter(|&d| is_dead(&Position::deal(spec, d).unwrap()))
                .count();
            eprintln!("{g}: {n} of 200 dead as dealt");
            dead += n;
        }
        assert!(dead > 0);
    }

    /// Random endings with one or two redeals left of the games the test
    /// applies to, solved with the dominances (this test among them) and
    /// without any, both searched to the end: an unsound test would turn a
    /// won position into a proven loss. Both verdicts occur, and the test
    /// fires at many of the lost ones.
    #[test]
    fn endings_keep_their_verdicts_under_the_next_deal_test() {
        sweep(40, 10);
    }

    #[test]
    #[ignore = "the full sweep, a minute: cargo test -p patience-solver -- --ignored"]
    fn endings_keep_their_verdicts_under_the_next_deal_test_full() {
        sweep(160, 40);
    }

    fn sweep(seeds: u64, least: usize) {
        let (mut won, mut lost, mut fired) = (0, 0, 0);
        for g in ["trilistnik", "bredulia", "melnitsa"] {
            for seed in 0..seeds {
                let p = ending(g, seed, 1 + (seed % 2) as u8);
                assert!(applies(&p), "{g}");
                let dead = is_dead(&p);
                let verdict = |dominances| {
                    solve_with(&p, &Options::with_nodes(300_000, dominances))
                        .outcome
                        .won()
                };
                let (with, without) = (verdict(true), verdict(false));
                if dead {
                    assert_eq!(with, Some(false), "{g} {seed}\n{}", p.to_text());
                }
                if let (Some(a), Some(b)) = (with, without) {
                    assert_eq!(
                        a,
                        b,
                        "{g} seed {seed}: with {a}, without {b}\n{}",
                        p.to_text()
                    );
                    if a {
                        won += 1;
                    } else {
                        lost += 1;
                        fired += dead as usize;
                    }
                }
            }
        }
        eprintln!("won {won}, lost {lost}, dead by the next deal {fired}");
        assert!(won > least && lost > least, "won {won}, lost {lost}");
        assert!(fired > least, "the test fired at {fired} positions");
    }
}
