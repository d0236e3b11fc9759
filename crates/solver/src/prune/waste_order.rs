//! Dead positions by the waste's order, in the two-deck games with a waste
//! built down in suit (Krakowski), in their last deal.
//!
//! **The relaxation.** The waste gives its cards top first, and each must
//! then go home (onto a foundation of its suit showing the card below it) or
//! onto the table (onto a fan top one rank above it in suit). Forget
//! everything else about the position: call every card that is neither home
//! nor on the waste *loose* (the fans' cards, buried or not, and the stock's),
//! free to go home whenever a foundation of its suit shows the card below it.
//! The relaxed game has three moves: a loose card goes home; the waste's top
//! card goes home; the waste's top card becomes loose, if a copy of the card
//! one rank above it in suit is loose. Every real line of play is a line of
//! the relaxed game: a fan's or the stock's card going home is a loose card
//! going home; a fan move, a refill and a deal change nothing relaxed (the
//! card dealt was loose and stays loose; the waste cards under it are not
//! uncovered any sooner in the relaxed game than in the real one, since the
//! relaxed waste keeps only the cards it began with, in their order); the
//! waste's top going onto a fan needs a fan top one rank above it, which is
//! loose. So a real win is a relaxed win, and a position whose relaxed game
//! cannot be won is lost. Nothing is ever put back on the waste, foundations
//! never give a card back, and there is no redeal, cell, reserve or draw:
//! the conditions of [`super::dead_two_deck::applies`].
//!
//! **Suit by suit.** A relaxed move of one suit's cards asks nothing of
//! another suit's: whether a card may go home or become loose depends on its
//! own suit's foundations and cards alone. Only the waste ties the suits,
//! through the order in which its cards come off, and that order is fixed.
//! So the relaxed game is won exactly when, for every suit, that suit's
//! waste cards can be taken off top first, each in its turn; between turns
//! loose cards of the suit may go home.
//!
//! **One suit, without search.** The state of a suit is its two foundations'
//! heights and the number of its waste cards taken off. Two rules decide
//! every choice (`suit_clears`), each because the state it leads to can do
//! whatever the others can:
//!
//! 1. *A waste card that may become loose does.* From there, any line that
//!    sent it home instead sends it home from among the loose cards at the
//!    same moment (a loose copy of a card is never short: this one is
//!    neither home nor on the waste).
//! 2. *Otherwise it goes home, and a foundation is raised only then, only to
//!    the card below it, and the higher of the two that can be.* Raising a
//!    foundation early only makes a card home that a waste card above could
//!    have been laid on, and the loose copies a raise needs only grow as the
//!    waste shrinks. A lower foundation raised to the same height must pass
//!    every card the higher one passes, with the same copies free, so where
//!    the higher cannot be raised neither can the lower; and the lower one
//!    left behind keeps every way the other would have had.
//!
//! A test holds these rules to a search of every relaxed line, on random
//! suits.

use super::dead_two_deck::{tables, NONE};
use patience_engine::{Position, Suit};

/// Whether the test applies: the two-deck dead test's conditions
/// ([`super::dead_two_deck::applies`]) and a waste with cards on it.
pub fn applies(pos: &Position) -> bool {
    pos.layout().waste.is_some_and(|w| !pos.pile(w).is_empty())
        && super::dead_two_deck::applies(pos)
}

/// Whether some suit's waste cards cannot all be taken off (see the module
/// documentation). Call only where [`applies`] holds. One pass down the
/// waste for each suit.
pub fn is_dead(pos: &Position) -> bool {
    let layout = pos.layout();
    let Some(waste) = layout.waste else {
        return false;
    };
    let t = tables(pos);
    let copies = pos.spec().copies_of_each_card();
    // Each suit's foundations' heights (at most two of them).
    let mut heights = [[0u8; 2]; 4];
    let mut started = [0usize; 4];
    for f in layout.foundation_ids() {
        let pile = pos.pile(f);
        if let Some(&first) = pile.first() {
            let s = first.suit().index();
            if started[s] < 2 {
                heights[s][started[s]] = pile.len() as u8;
            }
            started[s] += 1;
        }
    }
    // Each suit's waste cards by their place in the suit, top first.
    // At most two copies of 13 cards a suit: `applies` asks for two decks.
    let mut orders = [[0u8; 26]; 4];
    let mut count = [0usize; 4];
    for &c in pos.pile(waste).iter().rev() {
        let s = c.suit().index();
        let o = t.order[c.index()];
        if o == NONE {
            return false;
        }
        orders[s][count[s]] = o;
        count[s] += 1;
    }
    Suit::ALL.into_iter().any(|s| {
        let s = s.index();
        !suit_clears(
            &orders[s][..count[s]],
            heights[s],
            copies,
            t.top_order as u8,
        )
    })
}

/// Whether one suit's waste cards, given by their places in the suit (top
/// first), can all be taken off in the relaxed game, its two foundations at
/// `heights` (cards home on each), with `copies` of each card and `top`
/// places in the suit: rules 1 and 2 of the module documentation.
fn suit_clears(waste: &[u8], heights: [u8; 2], copies: u8, top: u8) -> bool {
    let mut left = [0u8; 13];
    for &o in waste {
        left[o as usize] += 1;
    }
    let mut h = heights;
    // Copies of the card at place `q` that are loose.
    let loose = |q: u8, h: &[u8; 2], left: &[u8; 13]| -> i32 {
        copies as i32 - h.iter().filter(|&&x| x > q).count() as i32 - left[q as usize] as i32
    };
    for &o in waste {
        left[o as usize] -= 1;
        if o + 1 < top && loose(o + 1, &h, &left) >= 1 {
            continue;
        }
        // Home: the higher foundation not past the card below it.
        let Some(f) = (0..2).filter(|&i| h[i] <= o).max_by_key(|&i| h[i]) else {
            return false;
        };
        while h[f] < o {
            if loose(h[f], &h, &left) < 1 {
                return false;
            }
            h[f] += 1;
        }
        h[f] = o + 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::prng::SplitMix64;
    use std::collections::HashSet;

    /// The relaxed game of one suit searched through every line: from each
    /// state, raise either foundation (a loose copy of its next card), or
    /// take the waste's top card off, home onto either foundation that shows
    /// the card below it, or loose where a copy of the card above it is
    /// loose. The rules of [`suit_clears`] must agree.
    fn clears_by_search(waste: &[u8], heights: [u8; 2], copies: u8, top: u8) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![(0usize, heights)];
        while let Some((j, h)) = stack.pop() {
            if j == waste.len() {
                return true;
            }
            let mut hs = h;
            hs.sort_unstable();
            if !seen.insert((j, hs)) {
                continue;
            }
            let loose = |q: u8, h: &[u8; 2], taken: usize| {
                let left = waste[taken..].iter().filter(|&&o| o == q).count() as i32;
                copies as i32 - h.iter().filter(|&&x| x > q).count() as i32 - left
            };
            for f in 0..2 {
                if h[f] < top && loose(h[f], &h, j) >= 1 {
                    let mut n = h;
                    n[f] += 1;
                    stack.push((j, n));
                }
            }
            let o = waste[j];
            for f in 0..2 {
                if h[f] == o {
                    let mut n = h;
                    n[f] += 1;
                    stack.push((j + 1, n));
                }
            }
            if o + 1 < top && loose(o + 1, &h, j + 1) >= 1 {
                stack.push((j + 1, h));
            }
        }
        false
    }

    #[test]
    fn the_rules_agree_with_a_search_of_every_relaxed_line() {
        let mut rng = SplitMix64::new(7);
        let (mut clear, mut stuck) = (0, 0);
        for _ in 0..20_000 {
            // A suit of two copies of 13 cards: some home, some on the
            // waste in random order, the rest loose.
            let top = 13u8;
            let most = if rng.below(2) == 0 { 6 } else { 13 };
            let mut h = [rng.below(most) as u8, rng.below(most) as u8];
            h.sort_unstable();
            let mut out: Vec<u8> = (0..top)
                .flat_map(|q| std::iter::repeat_n(q, 2 - h.iter().filter(|&&x| x > q).count()))
                .collect();
            for i in (1..out.len()).rev() {
                out.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let on_waste = rng.below(out.len() as u64 + 1) as usize;
            let waste = &out[..on_waste];
            let by_rules = suit_clears(waste, h, 2, top);
            assert_eq!(
                by_rules,
                clears_by_search(waste, h, 2, top),
                "waste {waste:?}, heights {h:?}"
            );
            if by_rules {
                clear += 1;
            } else {
                stuck += 1;
            }
        }
        assert!(
            clear > 2_000 && stuck > 2_000,
            "{clear} clear, {stuck} stuck"
        );
    }

    #[test]
    fn a_card_over_both_copies_of_the_card_below_it_and_of_the_card_above() {
        // Waste, top first: 5, then both 4s and both 6s; foundations at 3.
        assert!(!suit_clears(&[4, 3, 3, 5, 5], [3, 3], 2, 13));
        // One 6 loose: the 5 waits on it.
        assert!(suit_clears(&[4, 3, 3, 5], [3, 3], 2, 13));
        // One 4 loose: a foundation rises to the 4 and takes the 5.
        assert!(suit_clears(&[4, 3, 5, 5], [3, 3], 2, 13));
    }
}

#[cfg(test)]
mod sweep {
    use super::*;
    use crate::{solve_with, Options};
    use patience_engine::prng::SplitMix64;
    use patience_engine::Card;

    /// A random Krakowski ending: two suits home but for `out` cards each,
    /// those shuffled into the fans (up to two each), the waste, and a
    /// short stock; every foundation holds its suit's cards below the
    /// lowest card out.
    fn ending(seed: u64, out: usize) -> Position {
        let spec = patience_engine::game("krakowski").unwrap();
        let l = *Position::deal(spec, 1).unwrap().layout();
        let mut rng = SplitMix64::new(seed);
        let ranks = spec.ranks.ranks();
        let mut piles = vec![Vec::new(); l.piles as usize];
        let mut rest = Vec::new();
        for (k, s) in Suit::ALL.into_iter().enumerate() {
            let mut h = [13usize; 2];
            if k < 2 {
                let low = 13 - out / 2;
                h = [low - rng.below(3) as usize, low];
            }
            for (copy, &hc) in h.iter().enumerate() {
                let f = l.foundation(4 * copy as u8 + k as u8);
                piles[f.index()] = ranks[..hc].iter().map(|&r| Card::new(r, s)).collect();
                rest.extend(ranks[hc..].iter().map(|&r| Card::new(r, s)));
            }
        }
        for i in (1..rest.len()).rev() {
            rest.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let fans = l.tableau as usize;
        let stock = rng.below(4) as usize;
        // While the stock has cards no fan is empty.
        let mut in_fans = (rest.len() - stock) / 3;
        if stock > 0 {
            in_fans = in_fans.max(fans).min(rest.len() - stock);
        }
        for (i, &c) in rest.iter().enumerate() {
            let pile = if i < stock {
                l.stock.unwrap()
            } else if i < stock + in_fans {
                l.tableau((i % fans) as u8)
            } else {
                l.waste.unwrap()
            };
            piles[pile.index()].push(c);
        }
        Position::from_parts(spec, 1, piles, 0, false).unwrap()
    }

    /// Krakowski endings the test calls dead, solved without any dominance
    /// to the end: none may be won, and at least `least` must be decided.
    fn dead_endings_are_lost(endings: u64, least: usize) {
        let (mut fired, mut lost) = (0, 0);
        for seed in 0..endings {
            let p = ending(seed, 8 + (seed % 8) as usize);
            if !(applies(&p) && is_dead(&p)) {
                continue;
            }
            fired += 1;
            let answer = solve_with(&p, &Options::with_nodes(300_000, false))
                .outcome
                .won();
            assert_ne!(answer, Some(true), "called dead, but won:\n{}", p.to_text());
            lost += (answer == Some(false)) as usize;
        }
        eprintln!("fired {fired}, proved lost without dominances {lost}");
        assert!(lost >= least, "fired {fired}, lost {lost}");
    }

    #[test]
    fn endings_called_dead_are_lost() {
        dead_endings_are_lost(300, 30);
    }
}
