//! Rule questions about one card that the solver and the players ask: which
//! cards it builds on and which build on it in the tableau, and where it
//! stands in its foundation sequence (what must go home before it).
//!
//! The answers read the same rule functions move generation reads
//! (`tables.rs`), so a caller never re-derives a build or foundation rule
//! from the raw fields of a [`GameSpec`].

use crate::card::Card;
use crate::layout::{PileId, PileKind};
use crate::position::Position;
use crate::runs::{cards, Run, SuitPlaces, OFF};
use crate::spec::{Direction, GameSpec};

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
        let cards = match self.run(f) {
            Some(run) => run.cards.get(self.pile(f).len()..).unwrap_or_default(),
            None => &[],
        };
        cards.iter().copied()
    }

    /// How many cards foundation `f` must still take before it takes `card`
    /// (0: `card` is the card it takes next), in its
    /// [`foundation_sequence`](Position::foundation_sequence); `None` when
    /// that sequence does not hold `card`. A table read: the person-like
    /// player asks it for every card a move uncovers.
    pub fn cards_before(&self, f: PileId, card: Card) -> Option<u8> {
        let place = self.run(f)?.place[card.index()];
        let held = self.pile(f).len() as u8;
        (place != OFF && place >= held).then(|| place - held)
    }

    /// Whether `y` must reach a foundation before `x` can: `y` comes before
    /// `x` in the foundation sequence `x` belongs to. By suit where each
    /// suit has one sequence ([`Position::suit_places`], Krug's dealt bases
    /// included); by colour and rank in alternating colours
    /// ([`GameSpec::sequence_of`]); where a suit has two houses built in
    /// opposite directions (Nivernaise, House on the Hill), when every
    /// foundation that may still take `x` takes `y` before it. A card lying
    /// above such a `y` in a fan must move again before `y` goes home.
    pub fn goes_home_before(&self, y: Card, x: Card) -> bool {
        if let Some(places) = self.suit_places() {
            return y.suit() == x.suit() && places.of(y) < places.of(x);
        }
        let spec = self.spec();
        if let (Some(a), Some(b)) = (spec.sequence_of(y), spec.sequence_of(x)) {
            return a.sequence == b.sequence && a.place < b.place;
        }
        let mut takers = self
            .layout()
            .foundation_ids()
            .filter_map(|f| self.cards_before(f, x).map(|n| (f, n)))
            .peekable();
        takers.peek().is_some()
            && takers.all(|(f, n)| self.cards_before(f, y).is_some_and(|m| m < n))
    }

    /// Where every card stands in the foundation sequence of its suit, for
    /// positions where each suit has one: every foundation builds in suit
    /// (not in alternating colours), the foundations of one suit follow one
    /// sequence (two decks' ace-foundations do, Nivernaise's ace- and
    /// king-houses do not), and every suit's sequence is named (no empty
    /// foundation any suit may open). `None` otherwise.
    ///
    /// The places count from a foundation's first card, so they stay the
    /// same as cards go home: an empty foundation's sequence starts with the
    /// card it takes first, and only a dealt base (Krug's) starts one
    /// elsewhere.
    pub fn suit_places(&self) -> Option<SuitPlaces> {
        if let Some(places) = self.tables.game_places {
            return places;
        }
        // Foundations are the piles after the tableau, in rule order.
        let piles = self.piles.get(self.layout().tableau as usize..)?;
        SuitPlaces::merge(
            self.tables
                .runs
                .iter()
                .zip(piles)
                .map(|(runs, pile)| runs.starting(pile.first())),
        )
    }

    /// The sequence foundation `f` follows, from its first card; `None` when
    /// it does not name its cards or `f` is not a foundation.
    fn run(&self, f: PileId) -> Option<&'static Run> {
        match self.layout().kind(f) {
            Some(PileKind::Foundation(i)) => {
                self.tables.runs[i as usize].starting(self.pile(f).first())
            }
            _ => None,
        }
    }
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
    use crate::card::bit;
    use crate::card::{Rank, Suit};
    use crate::catalogue::game;

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

    /// docs/games.md: La Belle Lucie builds each suit up from the ace;
    /// Blondes and Brunettes in alternating colours; House on the Hill has an
    /// ace-house up and a king-house down per suit, so a middle card waits
    /// for neither alone, while the ace-house's next cards come first once
    /// the king-house can no longer take them.
    #[test]
    fn what_goes_home_before_a_card_follows_its_foundations() {
        let p = deal("la-belle-lucie");
        assert!(p.goes_home_before(card("2S"), card("KS")));
        assert!(!p.goes_home_before(card("KS"), card("2S")));
        assert!(!p.goes_home_before(card("2H"), card("KS")));
        let b = deal("blondes-and-brunettes");
        assert!(b.goes_home_before(card("AH"), card("2S")));
        assert!(!b.goes_home_before(card("AS"), card("2S")));
        let h = deal("house-on-the-hill");
        assert!(!h.goes_home_before(card("5S"), card("7S")));
        assert!(!h.goes_home_before(card("7S"), card("5S")));
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

    /// A Krug position written out: spades' foundation holds 7S 8S, hearts'
    /// its base KH, diamonds' none (so it opens with the six), clubs' its
    /// base 9C. The ace ranks highest; each foundation wraps K → A → 6.
    const KRUG: &str = "game: krug\ndeal: 1\nredeals-used: 0\n\
        t1: 6S 9S 10S\nt2: JS QS KS\nt3: AS 6H 7H\nt4: 8H 9H 10H\n\
        t5: JH QH AH\nt6: 6D 7D 8D\nt7: 9D 10D JD\nt8: QD KD AD\n\
        t9: 6C 7C 8C\nt10: 10C JC QC\nt11: KC AC\n\
        f1: 7S 8S\nf2: KH\nf4: 9C\n";

    #[test]
    fn krug_places_count_from_each_base_and_an_empty_foundation_from_the_six() {
        let p = Position::from_text(KRUG, None).unwrap();
        let places = p.suit_places().unwrap();
        let at = |c: &str| places.of(card(c));
        // Spades from the base 7S: 7 8 9 10 J Q K A 6.
        assert_eq!((at("7S"), at("8S"), at("9S")), (0, 1, 2));
        assert_eq!((at("KS"), at("AS"), at("6S")), (6, 7, 8));
        // Hearts from the base KH: K A 6 7 8 9 10 J Q.
        assert_eq!((at("KH"), at("AH"), at("6H"), at("QH")), (0, 1, 2, 8));
        // Diamonds, no base yet: the six opens, the ace comes last.
        assert_eq!((at("6D"), at("10D"), at("KD"), at("AD")), (0, 4, 7, 8));
        // Clubs from the base 9C: 9 10 J Q K A 6 7 8.
        assert_eq!((at("9C"), at("AC"), at("6C"), at("8C")), (0, 5, 6, 8));
        // Cards the short deck lacks are in no sequence.
        assert_eq!(at("2C"), u8::MAX);

        let f = |n: usize| p.layout().foundation_ids().nth(n - 1).unwrap();
        let seq = |n: usize| {
            p.foundation_sequence(f(n))
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(seq(1), ["9S", "10S", "JS", "QS", "KS", "AS", "6S"]);
        assert_eq!(
            seq(3),
            ["6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"]
        );
        // 8S is home already; 6S is not of diamonds' sequence.
        for (n, c, before) in [
            (1, "8S", None),
            (1, "9S", Some(0)),
            (1, "6S", Some(6)),
            (2, "AH", Some(0)),
            (3, "6D", Some(0)),
            (3, "AD", Some(8)),
            (3, "6S", None),
        ] {
            assert_eq!(p.cards_before(f(n), card(c)), before, "f{n} {c}");
        }
    }

    #[test]
    fn suit_places_follow_the_rank_where_foundations_build_up_from_the_ace() {
        // Nothing home yet (one deck and two), and with hearts' foundation
        // started: a place counts from the ace either way.
        for p in [deal("la-belle-lucie"), deal("house-in-the-woods")] {
            let places = p.suit_places().unwrap();
            assert_eq!(places.of(card("AS")), 0);
            assert_eq!(places.of(card("2H")), 1);
            assert_eq!(places.of(card("10D")), 9);
            assert_eq!(places.of(card("KC")), 12);
        }
        let p = Position::from_text(
            "game: la-belle-lucie\ndeal: 1\nredeals-used: 0\n\
             t1: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS\n\
             t2: 4H 5H 6H 7H 8H 9H 10H JH QH KH\n\
             t3: AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD\n\
             t4: AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC\n\
             f2: AH 2H 3H\n",
            None,
        )
        .unwrap();
        let places = p.suit_places().unwrap();
        assert_eq!((places.of(card("3H")), places.of(card("4H"))), (2, 3));
        assert_eq!(places.of(card("AS")), 0);
        // Trefoil deals its aces home: the places are the same.
        let places = deal("trefoil").suit_places().unwrap();
        assert_eq!((places.of(card("AS")), places.of(card("5S"))), (0, 4));
    }

    #[test]
    fn no_suit_places_where_a_suit_has_two_sequences_or_none_named() {
        // Nivernaise: each suit an ace-house up and a king-house down.
        assert!(deal("nivernaise").suit_places().is_none());
        // House on the Hill builds down from kings too (docs/games.md).
        assert!(deal("house-on-the-hill").suit_places().is_none());
        // Blondes and Brunettes: foundations in alternating colours.
        assert!(deal("blondes-and-brunettes").suit_places().is_none());
    }

    #[test]
    fn the_card_set_iterator_lists_exactly_the_set() {
        let set = bit(card("AS")) | bit(card("KD"));
        let v: Vec<Card> = cards(set).collect();
        assert_eq!(v, [card("AS"), card("KD")]);
        assert_eq!(cards(0).count(), 0);
    }
}
