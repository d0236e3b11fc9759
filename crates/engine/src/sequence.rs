//! Rule questions about one card that the solver and the players ask: which
//! cards it builds on and which build on it in the tableau, and where it
//! stands in its foundation sequence (what must go home before it).
//!
//! The answers read the same rule functions move generation reads
//! (`tables.rs`), so a caller never re-derives a build or foundation rule
//! from the raw fields of a [`GameSpec`].

use crate::card::{Card, Suit};
use crate::layout::{PileId, PileKind};
use crate::position::Position;
use crate::spec::{Direction, GameSpec};
use crate::tables::CardSet;

/// The cards of a [`CardSet`], lowest index first (one step a card: the
/// solver asks at every node with a foundation move).
fn cards(mut set: CardSet) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        let i = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        Card::from_index(i)
    })
}

impl Position {
    /// The cards the build rule lets onto `card` on the table (the cards
    /// that build on it), lowest index first. Empty where nothing is built
    /// on the table.
    pub fn builders_of(&self, card: Card) -> impl Iterator<Item = Card> {
        cards(self.tables.onto[card.index()])
    }

    /// The cards `card` may be built on on the table (the cards it builds
    /// on), lowest index first.
    pub fn targets_of(&self, card: Card) -> impl Iterator<Item = Card> {
        cards(self.tables.takers[card.index()])
    }

    /// The cards foundation `f` takes from now on, in the order it takes
    /// them: its sequence followed from its top card in its direction,
    /// through its wrap, up to its capacity.
    ///
    /// Empty when the sequence does not name its cards (alternating colours,
    /// where any suit of the right colour will do, or an empty foundation
    /// any suit opens), when `f` is full, and when `f` is not a foundation.
    /// A house waiting for its partner (Nivernaise) is not a gap in the
    /// sequence: this names cards, not moments.
    pub fn foundation_sequence(&self, f: PileId) -> impl Iterator<Item = Card> + '_ {
        let spec = self.spec();
        let named = self.named_sequence(f);
        let (suit, mut at, step, n, wraps, room) = named
            .map_or((Suit::Spades, 0, 1, 0, false, 0), |s| {
                (s.suit, s.next, s.step, s.ranks, s.wraps, s.room)
            });
        (0..room).map_while(move |_| {
            if wraps {
                at = at.rem_euclid(n);
            }
            let card = spec
                .ranks
                .rank_at(usize::try_from(at).ok()?)
                .map(|r| Card::new(r, suit));
            at += step;
            card
        })
    }

    /// How many cards foundation `f` must still take before it takes `card`
    /// (0: `card` is the card it takes next), in its
    /// [`foundation_sequence`](Position::foundation_sequence); `None` when
    /// that sequence does not hold `card`. Counted, not walked: the
    /// person-like player asks it for every card a move uncovers.
    pub fn cards_before(&self, f: PileId, card: Card) -> Option<u8> {
        if self.sequence_suit(f).is_some_and(|s| s != card.suit()) {
            return None;
        }
        let s = self.named_sequence(f)?;
        let spec = self.spec();
        let order = i32::from(spec.order(card));
        if card.suit() != s.suit || spec.ranks.rank_at(order as usize) != Some(card.rank()) {
            return None;
        }
        let d = (order - s.next) * s.step;
        let d = if s.wraps { d.rem_euclid(s.ranks) } else { d };
        let d = usize::try_from(d).ok()?;
        (d < s.room).then_some(d as u8)
    }

    /// The sequence foundation `f` follows from now on, where it names its
    /// cards (see [`foundation_sequence`](Position::foundation_sequence)).
    fn named_sequence(&self, f: PileId) -> Option<NamedSequence> {
        let spec = self.spec();
        let Some(PileKind::Foundation(i)) = self.layout().kind(f) else {
            return None;
        };
        let rule = &spec.foundations[i as usize];
        let pile = self.pile(f);
        let suit = self.sequence_suit(f)?;
        let step = if rule.direction == Direction::Up {
            1
        } else {
            -1
        };
        let next = match pile.last() {
            Some(&top) => i32::from(spec.order(top)) + step,
            None => i32::from(spec.order(Card::new(spec.opening_rank(rule), suit))),
        };
        Some(NamedSequence {
            suit,
            next,
            step,
            ranks: i32::from(spec.ranks.len()),
            wraps: rule.wraps,
            room: (rule.capacity as usize).saturating_sub(pile.len()),
        })
    }

    /// The one suit foundation `f` takes from now on, where it names it:
    /// the suit of its top card, or the suit its rule opens with.
    fn sequence_suit(&self, f: PileId) -> Option<Suit> {
        let Some(PileKind::Foundation(i)) = self.layout().kind(f) else {
            return None;
        };
        let rule = &self.spec().foundations[i as usize];
        if rule.alternate_colours {
            return None;
        }
        self.pile(f).last().map(|c| c.suit()).or(rule.suit)
    }
}

/// A foundation's sequence from its next card on: one suit, in play order
/// from `next` by `step`, through the wrap if it `wraps`, `room` cards long.
struct NamedSequence {
    suit: Suit,
    next: i32,
    step: i32,
    ranks: i32,
    wraps: bool,
    room: usize,
}

/// Where a card stands in its game's foundation sequences: cards of one
/// `sequence` go home in the order of their `place`, so a card lying on a
/// card of its own sequence with a lower place must move again before that
/// card can go home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequencePlace {
    /// Which sequence: the suit's index where foundations build in suit; in
    /// alternating colours (any suit of the right colour), 0 or 1, the
    /// card's colour against its rank's parity (a red ace, a black two, a
    /// red three are one sequence).
    pub sequence: u8,
    /// The card's place in it: its play order.
    pub place: u8,
}

impl GameSpec {
    /// The foundation sequence `card` belongs to and its place there, where
    /// every foundation of the game builds up from its lowest rank without
    /// wrapping, all in suit or all in alternating colours. `None` otherwise
    /// (the houses' two directions, Krug's wrap from chosen bases): there
    /// what must go home before a card depends on the foundation it goes to;
    /// ask [`Position::cards_before`].
    pub fn sequence_of(&self, card: Card) -> Option<SequencePlace> {
        let f = &self.foundations;
        if f.iter().any(|r| r.direction != Direction::Up || r.wraps) {
            return None;
        }
        let place = self.order(card);
        if f.iter().all(|r| r.alternate_colours) {
            Some(SequencePlace {
                sequence: (card.colour() as u8) ^ (place & 1),
                place,
            })
        } else if f.iter().all(|r| !r.alternate_colours && r.suit.is_some()) {
            Some(SequencePlace {
                sequence: card.suit().index() as u8,
                place,
            })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Rank;
    use crate::catalogue::game;
    use crate::tables::bit;

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    fn deal(id: &str) -> Position {
        Position::deal(game(id).unwrap(), 1).unwrap()
    }

    fn list(it: impl Iterator<Item = Card>) -> Vec<String> {
        let mut v: Vec<String> = it.map(|c| c.to_string()).collect();
        v.sort();
        v
    }

    /// "A card goes onto a top card of the same suit one rank higher"
    /// (La Belle Lucie, docs/games.md).
    #[test]
    fn in_la_belle_lucie_a_card_builds_on_the_next_higher_card_of_its_suit() {
        let p = deal("la-belle-lucie");
        assert_eq!(list(p.targets_of(card("7H"))), ["8H"]);
        assert_eq!(list(p.builders_of(card("7H"))), ["6H"]);
        assert_eq!(list(p.targets_of(card("KS"))), Vec::<String>::new());
        assert_eq!(list(p.builders_of(card("AS"))), Vec::<String>::new());
    }

    /// "Same suit one rank higher **or** one rank lower" (House on the Hill).
    #[test]
    fn in_house_on_the_hill_a_card_builds_up_or_down_in_suit() {
        let p = deal("house-on-the-hill");
        assert_eq!(list(p.targets_of(card("7H"))), ["6H", "8H"]);
        assert_eq!(list(p.builders_of(card("7H"))), ["6H", "8H"]);
        assert_eq!(list(p.builders_of(card("KH"))), ["QH"], "no wrap");
    }

    /// Columns build down in alternating colours (Blondes and Brunettes).
    #[test]
    fn in_blondes_and_brunettes_a_card_builds_on_the_next_higher_of_the_other_colour() {
        let p = deal("blondes-and-brunettes");
        assert_eq!(list(p.targets_of(card("7H"))), ["8C", "8S"]);
        assert_eq!(list(p.builders_of(card("7H"))), ["6C", "6S"]);
    }

    /// "Nothing is built on the line" (Nivernaise).
    #[test]
    fn in_nivernaise_nothing_builds_on_the_table() {
        let p = deal("nivernaise");
        assert_eq!(p.builders_of(card("7H")).count(), 0);
        assert_eq!(p.targets_of(card("7H")).count(), 0);
    }

    /// Ace-houses build up A → K, king-houses down K → A (Nivernaise); an
    /// empty house takes its suit's first card next.
    #[test]
    fn nivernaise_houses_count_the_cards_before_a_card_from_both_ends() {
        let p = deal("nivernaise");
        let f = |n: usize| p.layout().foundation_ids().nth(n - 1).unwrap();
        // f1: spades' ace-house; f5: spades' king-house; both empty.
        assert_eq!(p.cards_before(f(1), card("AS")), Some(0));
        assert_eq!(p.cards_before(f(1), card("6S")), Some(5));
        assert_eq!(p.cards_before(f(1), card("KS")), Some(12));
        assert_eq!(p.cards_before(f(5), card("KS")), Some(0));
        assert_eq!(p.cards_before(f(5), card("6S")), Some(7));
        assert_eq!(p.cards_before(f(5), card("AS")), Some(12));
        assert_eq!(p.cards_before(f(1), card("6H")), None, "another suit");
    }

    /// Krug's foundations wrap from king to ace and hold nine cards.
    #[test]
    fn krug_counts_through_the_wrap_and_stops_at_the_capacity() {
        let spec = game("krug").unwrap();
        let p = Position::deal(spec, 1).unwrap();
        for (i, f) in p.layout().foundation_ids().enumerate() {
            let Some(&base) = p.pile(f).last() else {
                continue;
            };
            let rule = &spec.foundations[i];
            assert!(rule.wraps);
            // The card after the base takes 0, the base itself never again.
            assert_eq!(p.cards_before(f, base), None, "f{} {base}", i + 1);
            let count = Rank::all()
                .map(|r| Card::new(r, base.suit()))
                .filter(|&c| p.cards_before(f, c).is_some())
                .count();
            assert_eq!(count, rule.capacity as usize - p.pile(f).len());
        }
    }

    /// Foundations alternate colours whatever the suit (Blondes and
    /// Brunettes): a red ace, a black two, a red three are one sequence.
    #[test]
    fn sequences_follow_the_suit_or_the_alternating_colours() {
        let lbl = game("la-belle-lucie").unwrap();
        let s = |c: &str| lbl.sequence_of(card(c)).unwrap();
        assert_eq!(s("AH").sequence, s("KH").sequence);
        assert_ne!(s("AH").sequence, s("AS").sequence);
        assert!(s("AH").place < s("2H").place);
        let bb = game("blondes-and-brunettes").unwrap();
        let s = |c: &str| bb.sequence_of(card(c)).unwrap();
        assert_eq!(s("AH").sequence, s("2S").sequence);
        assert_eq!(s("AH").sequence, s("3D").sequence);
        assert_ne!(s("AH").sequence, s("2H").sequence);
        assert!(s("AH").place < s("2S").place);
        assert_eq!(game("nivernaise").unwrap().sequence_of(card("AS")), None);
        assert_eq!(game("krug").unwrap().sequence_of(card("AS")), None);
    }

    /// The count is the place in the walked sequence, for every card and
    /// foundation of every game, along games played to their foundations.
    #[test]
    fn cards_before_is_the_place_in_the_foundation_sequence() {
        for spec in crate::catalogue::games() {
            for deal in 1..=3 {
                let mut p = Position::deal(spec, deal).unwrap();
                let mut rng = crate::prng::SplitMix64::new(deal);
                for _ in 0..150 {
                    for f in p.layout().foundation_ids() {
                        let walked: Vec<Card> = p.foundation_sequence(f).collect();
                        for r in Rank::all() {
                            for s in Suit::ALL {
                                let c = Card::new(r, s);
                                let place = walked.iter().position(|&w| w == c);
                                assert_eq!(
                                    p.cards_before(f, c),
                                    place.map(|d| d as u8),
                                    "{} deal {deal} {f:?} {c}",
                                    spec.id
                                );
                            }
                        }
                    }
                    let moves = p.legal_moves();
                    let home = moves.iter().find(|m| {
                        matches!(m, crate::Move::Step { to, .. }
                            if matches!(p.layout().kind(*to), Some(PileKind::Foundation(_))))
                    });
                    let Some(&mv) =
                        home.or_else(|| moves.get(rng.below(moves.len().max(1) as u64) as usize))
                    else {
                        break;
                    };
                    p.apply(mv).unwrap();
                }
            }
        }
    }

    #[test]
    fn the_card_set_iterator_lists_exactly_the_set() {
        let set = bit(card("AS")) | bit(card("KD"));
        let v: Vec<Card> = cards(set).collect();
        assert_eq!(v, [card("AS"), card("KD")]);
        assert_eq!(cards(0).count(), 0);
    }
}
