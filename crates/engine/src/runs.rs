//! The foundation sequences of a game named card by card: per foundation,
//! the runs of cards it takes from each first card it may have, and each
//! card's place in its suit's sequence ([`SuitPlaces`]). Worked out once per
//! game from the foundation rule (`tables.rs`), read by the rule questions
//! of `sequence.rs`. Depends only on the cards, so the rule tables hold these
//! runs without a module depending on one that depends on it back.

use crate::card::{bit, Card, CardSet};

/// The cards of a [`CardSet`], lowest index first (one step a card: the
/// solver asks at every node with a foundation move).
pub(crate) fn cards(mut set: CardSet) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        let i = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        Card::from_index(i)
    })
}

/// Each card's place in the foundation sequence of its suit (see
/// [`Position::suit_places`]): the cards of a suit go home in the order of
/// their places, so a card lying on a card of its suit with a lower place
/// must move again before that card can go home.
#[derive(Clone, Copy, Debug)]
pub struct SuitPlaces {
    by_suit: [&'static [u8; Card::COUNT]; 4],
}

impl SuitPlaces {
    /// The place of `card`: 0 for the first card of its suit's foundation
    /// (the one it takes first while empty, or its base), counting on in the
    /// order the foundation takes its cards; `u8::MAX` for a card that
    /// foundation never takes.
    #[inline]
    pub fn of(&self, card: Card) -> u8 {
        self.by_suit[card.suit().index()][card.index()]
    }

    /// The places of foundations following `runs` (`None`: a sequence that
    /// names no cards), where each suit has one sequence of its own suit.
    #[inline]
    pub(crate) fn merge(runs: impl Iterator<Item = Option<&'static Run>>) -> Option<SuitPlaces> {
        let mut by_suit: [Option<&'static [u8; Card::COUNT]>; 4] = [None; 4];
        for run in runs {
            let run = run?;
            match by_suit.get_mut(run.suit as usize)? {
                slot @ None => *slot = Some(&run.place),
                Some(held) if *held == &run.place => {}
                Some(_) => return None,
            }
        }
        let [Some(s), Some(h), Some(d), Some(c)] = by_suit else {
            return None;
        };
        Some(SuitPlaces {
            by_suit: [s, h, d, c],
        })
    }

    /// The places of a game whose foundations' sequences are fixed by its
    /// rules: none starts from a dealt base, and one card opens each (so a
    /// foundation's first card is always the one its empty sequence starts
    /// with). `None` where the position decides them.
    pub(crate) fn of_game(runs: &'static [FoundationRuns]) -> Option<Option<SuitPlaces>> {
        runs.iter()
            .all(|r| !r.bases && r.by_first[Card::COUNT] != OFF)
            .then(|| SuitPlaces::merge(runs.iter().map(|r| r.starting(None))))
    }
}

/// A place no card of a [`Run`] has.
pub(crate) const OFF: u8 = u8::MAX;

/// One foundation sequence named card by card: the cards a foundation holds
/// when complete, in the order it takes them, from its first card.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) cards: Vec<Card>,
    /// The index of the suit of every card of `cards`; 4 where they mix
    /// suits.
    pub(crate) suit: u8,
    /// Per card index, its place in `cards`; [`OFF`] for the others.
    pub(crate) place: [u8; Card::COUNT],
}

/// The sequences one foundation may follow, by its first card: worked out
/// once per game from the foundation rule (`tables::follows_on_foundation`),
/// so that every sequence question reads the rule move generation reads.
#[derive(Debug)]
pub(crate) struct FoundationRuns {
    /// Per first card index ([`Card::COUNT`]: the empty foundation), the
    /// index of its run in `runs`; [`OFF`] where the cards are not named.
    by_first: [u8; Card::COUNT + 1],
    runs: Vec<Run>,
    /// Whether a deal may lay a base of any rank on it (Krug).
    bases: bool,
}

impl FoundationRuns {
    /// The runs of a foundation holding `capacity` cards when complete,
    /// whose successors are `next` (`next[top]`, `next[Card::COUNT]` for the
    /// empty foundation), over the cards of `deck`; `lays_base` says which
    /// cards a deal may lay on it as a base whatever their rank (the rule's
    /// `tables::lays_base`).
    pub(crate) fn of(
        deck: &[Card],
        capacity: u8,
        next: &[CardSet; Card::COUNT + 1],
        lays_base: impl Fn(Card) -> bool,
    ) -> Self {
        let mut this = FoundationRuns {
            by_first: [OFF; Card::COUNT + 1],
            runs: Vec::new(),
            bases: false,
        };
        let opening = next[Card::COUNT];
        for &first in deck {
            let i = first.index();
            this.bases |= lays_base(first);
            let starts = opening & bit(first) != 0 || lays_base(first);
            if !starts || this.by_first[i] != OFF {
                continue;
            }
            let Some(run) = Run::walk(first, capacity, next) else {
                continue;
            };
            this.by_first[i] = this.runs.len() as u8;
            this.runs.push(run);
        }
        // An empty foundation names its sequence when one card opens it.
        if opening.count_ones() == 1 {
            this.by_first[Card::COUNT] = this.by_first[opening.trailing_zeros() as usize];
        }
        this
    }

    /// The run of a foundation whose first card is `first` (`None`: empty).
    #[inline]
    pub(crate) fn starting(&'static self, first: Option<&Card>) -> Option<&'static Run> {
        let slot = self.by_first[first.map_or(Card::COUNT, |c| c.index())];
        self.runs.get(slot as usize)
    }
}

impl Run {
    /// The sequence from `first` along `next` up to `capacity` cards;
    /// `None` where some step may take more than one card (alternating
    /// colours: the next card's suit is not named).
    fn walk(first: Card, capacity: u8, next: &[CardSet; Card::COUNT + 1]) -> Option<Run> {
        let mut run = Run {
            cards: vec![first],
            suit: first.suit().index() as u8,
            place: [OFF; Card::COUNT],
        };
        run.place[first.index()] = 0;
        let mut top = first;
        while run.cards.len() < capacity as usize {
            let step = next[top.index()];
            if step.count_ones() > 1 {
                return None;
            }
            match cards(step).next() {
                Some(c) if run.place[c.index()] == OFF => {
                    run.place[c.index()] = run.cards.len() as u8;
                    if c.suit() != first.suit() {
                        run.suit = 4;
                    }
                    run.cards.push(c);
                    top = c;
                }
                _ => break,
            }
        }
        Some(run)
    }
}
