//! What the person-like player reads off a position: which cards a
//! foundation takes now and how far each card is from going home
//! ([`HomeGlance`], found by [`Homes`]), and how many copies of each card lie where the table
//! can still use them ([`InPlay`]).
//!
//! Scoring the moves of one position asks these questions about the same
//! cards again and again (every move to a foundation asks about every card
//! on the table, every move onto a pile about each card it covers), so each
//! answer is worked out once, when it is first asked, and kept while it
//! holds. The answers are the engine's; a glance only remembers them.

use std::collections::HashMap;

use patience_engine::{Card, PileId, PileKind, Position};

/// Which cards a foundation takes now and how far each card is from home,
/// each computed on first use. Both depend on the foundations alone (their
/// first cards, sizes and top cards), so one glance serves every position
/// with the same foundations; [`Homes`] finds it.
#[derive(Clone, Debug)]
pub(super) struct HomeGlance {
    wanted: [Option<bool>; Card::COUNT],
    distance: [Option<u8>; Card::COUNT],
}

impl HomeGlance {
    fn new() -> HomeGlance {
        HomeGlance {
            wanted: [None; Card::COUNT],
            distance: [None; Card::COUNT],
        }
    }

    /// Whether some foundation takes `card` now; `ip` has the foundations
    /// this glance was found for.
    pub(super) fn wanted(&mut self, ip: &Position, card: Card) -> bool {
        *self.wanted[card.index()].get_or_insert_with(|| ip.home_cards().contains(card))
    }

    /// How many cards must go home before `card` can (0: it is next), over
    /// every foundation; `u8::MAX` when none will take it. See [`distance`].
    pub(super) fn distance(&mut self, ip: &Position, card: Card) -> u8 {
        *self.distance[card.index()].get_or_insert_with(|| distance(ip, card))
    }
}

/// The home glances of the foundations met while the player thinks over
/// one decision: a look-ahead mostly moves cards about the table, so the
/// same few foundations come back at most of the positions it visits.
#[derive(Clone, Debug, Default)]
pub(super) struct Homes {
    index: HashMap<Vec<u8>, usize>,
    glances: Vec<HomeGlance>,
    key: Vec<u8>,
}

impl Homes {
    /// Forgets every glance (a new decision: memory stays bounded).
    pub(super) fn clear(&mut self) {
        self.index.clear();
        self.glances.clear();
    }

    /// The number of the glance at the foundations of `ip`, made if new.
    pub(super) fn of(&mut self, ip: &Position) -> usize {
        // What `wanted` and `distance` read of a foundation: its first card
        // (which sequence it follows), its size and its top card.
        self.key.clear();
        for f in ip.layout().foundation_ids() {
            let pile = ip.pile(f);
            let index = |c: Option<&Card>| c.map_or(u8::MAX, |c| c.index() as u8);
            self.key
                .extend([index(pile.first()), pile.len() as u8, index(pile.last())]);
        }
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            return i;
        }
        let i = self.glances.len();
        self.glances.push(HomeGlance::new());
        self.index.insert(self.key.clone(), i);
        i
    }

    /// Glance number `i` (from [`of`](Homes::of)).
    pub(super) fn get(&mut self, i: usize) -> &mut HomeGlance {
        &mut self.glances[i]
    }
}

/// How many copies of each card lie on the piles a card can be taken from
/// or laid on (every pile but the foundations and the stock) of one
/// position, counted on first use.
#[derive(Clone, Debug, Default)]
pub(super) struct InPlay {
    counts: Option<[u8; Card::COUNT]>,
}

impl InPlay {
    /// Whether a copy of `card` lies on a pile in play other than `from`;
    /// `ip` is the position of every question this glance is asked.
    pub(super) fn beside(&mut self, ip: &Position, from: PileId, card: Card) -> bool {
        let counts = self.counts.get_or_insert_with(|| {
            let mut counts = [0u8; Card::COUNT];
            let layout = ip.layout();
            for id in layout.ids() {
                if !matches!(
                    layout.kind(id),
                    Some(PileKind::Foundation(_) | PileKind::Stock)
                ) {
                    for c in ip.pile(id) {
                        counts[c.index()] += 1;
                    }
                }
            }
            counts
        });
        let here = ip.pile(from).iter().filter(|&&c| c == card).count();
        usize::from(counts[card.index()]) > here
    }
}

/// How many cards must go home before `card` can (0: it is next), over
/// every foundation; `u8::MAX` when none will take it. The engine names a
/// foundation's sequence ([`Position::cards_before`]); where it cannot
/// (foundations in alternating colours, opened by any suit), the card's
/// place in its game's sequence ([`GameSpec::sequence_of`]) is counted from
/// the foundation's top card of the same sequence.
///
/// [`GameSpec::sequence_of`]: patience_engine::GameSpec::sequence_of
pub(super) fn distance(ip: &Position, card: Card) -> u8 {
    let place = ip.spec().sequence_of(card);
    ip.layout()
        .foundation_ids()
        .filter_map(|f| {
            ip.cards_before(f, card).or_else(|| {
                let p = place?;
                if ip.foundation_sequence(f).next().is_some() {
                    return None; // a named sequence without this card
                }
                match ip.pile(f).last() {
                    None => Some(p.place),
                    Some(&top) => {
                        let t = ip.spec().sequence_of(top)?;
                        (t.sequence == p.sequence && t.place < p.place)
                            .then(|| p.place - t.place - 1)
                    }
                }
            })
        })
        .min()
        .unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::{distance, Homes, InPlay};
    use patience_engine::{game, Card, Position};

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    /// La Belle Lucie's foundations build up in suit from the ace: with the
    /// spade ace home, the two of spades is next and the five three cards
    /// away; a heart counts from its own empty foundation.
    #[test]
    fn distance_counts_the_cards_each_suit_still_needs_home() {
        // Plain form: every card not listed is home.
        let fans = "KS QS JS\n10S 9S 8S\n7S 6S 5S\n4S 3S 2S\n\
                    KH QH JH\n10H 9H 8H\n7H 6H 5H\n4H 3H 2H AH\n";
        let pos = Position::from_text(fans, Some("la-belle-lucie")).unwrap();
        assert_eq!(distance(&pos, card("2S")), 0);
        assert_eq!(distance(&pos, card("5S")), 3);
        assert_eq!(distance(&pos, card("AH")), 0);
        assert_eq!(distance(&pos, card("2H")), 1);
        assert_eq!(distance(&pos, card("AS")), u8::MAX, "already home");
    }

    /// Blondes and Brunettes' foundations alternate colours and any ace
    /// opens one, so the sequence is the colour against the rank's parity:
    /// on a red ace a black two is next and a black three can never follow.
    #[test]
    fn distance_follows_alternating_colours() {
        let spec = game("blondes-and-brunettes").unwrap();
        let start = Position::deal(spec, 1).unwrap();
        let f1 = start.layout().foundation_ids().next().unwrap();
        let text: String = start
            .to_text()
            .replacen(" AH", "", 1)
            .lines()
            .map(|l| {
                if l.starts_with("f1:") {
                    "f1: AH\n".into()
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let pos = Position::from_text(&text, Some(spec.id)).unwrap();
        assert_eq!(pos.pile(f1), [card("AH")]);
        assert_eq!(distance(&pos, card("2S")), 0);
        assert_eq!(distance(&pos, card("3H")), 1);
        // Any other ace opens an empty foundation: a two is one card away.
        assert_eq!(distance(&pos, card("2H")), 1);
        assert_eq!(distance(&pos, card("AD")), 0);
    }

    /// A card is in play beside a pile when a copy of it lies on another
    /// pile a card can be taken from; a card home is in play nowhere.
    #[test]
    fn glance_answers_from_the_position_it_looked_at() {
        let fans = "KS QS JS\n10S 9S 8S\n7S 6S 5S\n4S 3S 2S\n\
                    KH QH JH\n10H 9H 8H\n7H 6H 5H\n4H 3H 2H AH\n";
        let pos = Position::from_text(fans, Some("la-belle-lucie")).unwrap();
        let fan: Vec<_> = pos.layout().tableau_ids().collect();
        let mut in_play = InPlay::default();
        assert!(!in_play.beside(&pos, fan[0], card("KS")));
        assert!(in_play.beside(&pos, fan[1], card("KS")));
        assert!(!in_play.beside(&pos, fan[1], card("AS")), "home");
        let mut homes = Homes::default();
        let i = homes.of(&pos);
        let glance = homes.get(i);
        assert!(glance.wanted(&pos, card("AH")));
        assert!(glance.wanted(&pos, card("2S")));
        assert!(!glance.wanted(&pos, card("2H")));
        assert_eq!(glance.distance(&pos, card("5S")), 3);
        assert_eq!(glance.distance(&pos, card("5S")), 3, "remembered");
        // Another position with the same foundations shares the glance;
        // one with a card more at home does not.
        let moved = Position::from_text(&fans.replacen("2S\n", "\n", 1), Some("la-belle-lucie"));
        let moved = moved.unwrap();
        assert_eq!(homes.of(&moved), i + 1, "2S went home");
        let other = fans.replace("KS QS JS\n10S 9S 8S", "KS QS\n10S 9S 8S JS");
        let other = Position::from_text(&other, Some("la-belle-lucie")).unwrap();
        assert_eq!(homes.of(&other), i);
    }
}
