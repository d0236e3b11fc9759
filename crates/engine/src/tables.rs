//! The build and foundation rules as pure functions of the cards, and the
//! per-game lookup tables derived from them once.
//!
//! [`builds_on`] and [`follows_on_foundation`] are where the rules are said;
//! [`RuleTables`] only evaluates them for every pair of cards up front, so
//! that move generation asks "which cards may go here?" with one bitmask
//! instead of testing every pile against every other.

use std::sync::OnceLock;

use crate::card::{bit, Card, CardSet};
use crate::catalogue::games;
use crate::runs::{FoundationRuns, SuitPlaces};
use crate::spec::{Build, Direction, Foundation, GameSpec};

/// Whether `card` may be built on `top` in the tableau (the table build rule).
pub(crate) fn builds_on(spec: &GameSpec, top: Card, card: Card) -> bool {
    let (c, t) = (spec.order(card), spec.order(top));
    match spec.build {
        Build::None => false,
        Build::DownInSuit => card.suit() == top.suit() && t == c + 1,
        Build::UpOrDownInSuit => card.suit() == top.suit() && t.abs_diff(c) == 1,
        Build::DownAlternateColour => card.colour() != top.colour() && t == c + 1,
    }
}

/// Whether a foundation of rule `rule` topped by `top` (`None`: empty) takes
/// `card` next by sequence, suit or colour. Capacity and the paired-house
/// condition depend on more than the cards; [`crate::Position::foundation_takes`]
/// adds them.
pub(crate) fn follows_on_foundation(
    spec: &GameSpec,
    rule: &Foundation,
    top: Option<Card>,
    card: Card,
) -> bool {
    let order = spec.order(card);
    let n = spec.ranks.len();
    match top {
        None => {
            card.rank() == spec.opening_rank(rule) && rule.suit.is_none_or(|s| s == card.suit())
        }
        Some(top) => {
            let t = spec.order(top);
            let next = match rule.direction {
                Direction::Up if t + 1 < n => t + 1,
                Direction::Up if rule.wraps => 0,
                Direction::Down if t > 0 => t - 1,
                Direction::Down if rule.wraps => n - 1,
                _ => return false,
            };
            let follows = if rule.alternate_colours {
                top.colour() != card.colour()
            } else {
                top.suit() == card.suit()
            };
            order == next && follows
        }
    }
}

/// Whether a deal may lay `card` as the first card of an empty foundation of
/// rule `rule` whatever its rank: a wrapping foundation (Krug) starts from
/// the base laid out, always in its own suit. Any other foundation starts
/// with the card [`follows_on_foundation`] lets onto it empty.
pub(crate) fn lays_base(rule: &Foundation, card: Card) -> bool {
    rule.wraps && rule.suit.is_none_or(|s| s == card.suit())
}

/// The rules of one game evaluated for every card.
#[derive(Debug)]
pub(crate) struct RuleTables {
    /// `onto[top]`: the cards that may be built on `top` in the tableau.
    pub onto: [CardSet; Card::COUNT],
    /// `takers[card]`: the cards `card` may be built on in the tableau
    /// (`onto` read the other way round).
    pub takers: [CardSet; Card::COUNT],
    /// `next[f][top]`: the cards foundation `f` takes after `top`; the index
    /// [`Card::COUNT`] stands for the empty foundation.
    pub next: Vec<[CardSet; Card::COUNT + 1]>,
    /// `same_rule_before[f]`: the earlier foundations with the same rule as
    /// `f`, as bits of their foundation number.
    pub same_rule_before: Vec<u16>,
    /// The cards of the highest rank in play order (the ones an empty fan
    /// takes where it takes only kings).
    pub tops: CardSet,
    /// `runs[f]`: the sequences foundation `f` follows, by its first card
    /// (walked along `next`).
    pub runs: &'static [FoundationRuns],
    /// The suit places where the game's rules fix them
    /// ([`SuitPlaces::of_game`]); `None` where the position decides them.
    pub game_places: Option<Option<SuitPlaces>>,
}

impl RuleTables {
    fn of(spec: &GameSpec) -> RuleTables {
        let deck: Vec<Card> = spec.pack();
        let mut onto = [0; Card::COUNT];
        let mut takers = [0; Card::COUNT];
        for &top in &deck {
            for &card in &deck {
                if builds_on(spec, top, card) {
                    onto[top.index()] |= bit(card);
                    takers[card.index()] |= bit(top);
                }
            }
        }
        let mut next = Vec::new();
        for rule in &spec.foundations {
            let mut row = [0; Card::COUNT + 1];
            for &card in &deck {
                if follows_on_foundation(spec, rule, None, card) {
                    row[Card::COUNT] |= bit(card);
                }
                for &top in &deck {
                    if follows_on_foundation(spec, rule, Some(top), card) {
                        row[top.index()] |= bit(card);
                    }
                }
            }
            next.push(row);
        }
        let same_rule_before = (0..spec.foundations.len())
            .map(|i| {
                (0..i)
                    .filter(|&j| spec.foundations[j] == spec.foundations[i])
                    .fold(0u16, |m, j| m | 1 << j)
            })
            .collect();
        let tops = deck
            .iter()
            .filter(|&&c| spec.order(c) == spec.top_order())
            .fold(0, |m, &c| m | bit(c));
        let runs = spec
            .foundations
            .iter()
            .zip(&next)
            .map(|(rule, next)| {
                FoundationRuns::of(&deck, rule.capacity, next, |c| lays_base(rule, c))
            })
            .collect::<Vec<_>>();
        // Kept for the life of the program, as the tables are (see
        // `for_spec`), so that a position's answers can point into them.
        let runs: &'static [FoundationRuns] = Box::leak(runs.into_boxed_slice());
        let game_places = SuitPlaces::of_game(runs);
        RuleTables {
            onto,
            takers,
            next,
            same_rule_before,
            tops,
            runs,
            game_places,
        }
    }

    /// The tables of a game of the catalogue (computed once), or of any other
    /// spec (computed and kept for the life of the program).
    pub fn for_spec(spec: &'static GameSpec) -> &'static RuleTables {
        static TABLES: OnceLock<Vec<RuleTables>> = OnceLock::new();
        let all = TABLES.get_or_init(|| games().iter().map(RuleTables::of).collect());
        match games().iter().position(|g| std::ptr::eq(g, spec)) {
            Some(i) => &all[i],
            None => Box::leak(Box::new(RuleTables::of(spec))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_rules_for_every_pair_of_cards() {
        for g in games() {
            let t = RuleTables::for_spec(g);
            for top in g.pack() {
                for card in g.pack() {
                    let onto = t.onto[top.index()] & bit(card) != 0;
                    assert_eq!(onto, builds_on(g, top, card), "{} {card} on {top}", g.id);
                    let takes = t.takers[card.index()] & bit(top) != 0;
                    assert_eq!(takes, onto, "{} {top} takes {card}", g.id);
                    for (f, rule) in g.foundations.iter().enumerate() {
                        let next = t.next[f][top.index()] & bit(card) != 0;
                        let rule_says = follows_on_foundation(g, rule, Some(top), card);
                        assert_eq!(next, rule_says, "{} f{} {card} after {top}", g.id, f + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn foundation_opening_names_exactly_the_cards_an_empty_foundation_takes() {
        use crate::card::{Rank, Suit};
        for g in games() {
            let t = RuleTables::for_spec(g);
            for f in 0..g.foundations.len() {
                let Some((rank, suit)) = g.foundation_opening(f) else {
                    assert!(g.krug_bases, "{} f{} has no opening", g.id, f + 1);
                    continue;
                };
                let said = g
                    .pack()
                    .into_iter()
                    .filter(|c| c.rank() == rank && suit.is_none_or(|s| s == c.suit()))
                    .fold(0, |m, c| m | bit(c));
                assert_ne!(said, 0, "{} f{}", g.id, f + 1);
                assert_eq!(t.next[f][Card::COUNT], said, "{} f{}", g.id, f + 1);
            }
        }
        let niv = crate::catalogue::game("nivernaise").unwrap();
        assert_eq!(
            niv.foundation_opening(0),
            Some((Rank::ACE, Some(Suit::Spades)))
        );
        assert_eq!(
            niv.foundation_opening(4),
            Some((Rank::KING, Some(Suit::Spades)))
        );
        let bb = crate::catalogue::game("blondes-and-brunettes").unwrap();
        assert_eq!(bb.foundation_opening(7), Some((Rank::ACE, None)));
        assert_eq!(bb.foundation_opening(8), None);
        let krug = crate::catalogue::game("krug").unwrap();
        assert_eq!(krug.foundation_opening(0), None);
    }

    #[test]
    fn down_in_suit_takes_exactly_one_card_below() {
        let g = crate::catalogue::game("la-belle-lucie").unwrap();
        let t = RuleTables::for_spec(g);
        let eight = Card::parse("8H").unwrap();
        assert_eq!(t.onto[eight.index()], bit(Card::parse("7H").unwrap()));
        assert_eq!(t.onto[Card::parse("AS").unwrap().index()], 0);
        // An empty foundation f1 (spades) takes the ace of spades only.
        assert_eq!(t.next[0][Card::COUNT], bit(Card::parse("AS").unwrap()));
    }
}
