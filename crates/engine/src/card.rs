//! Cards, suits and ranks, and their text form.
//!
//! A [`Card`] packs rank and suit into one byte so that piles stay compact for
//! the solver, but it is its own type: nothing outside this module sees the
//! byte. Two-deck games hold two equal `Card`s; the copies are interchangeable
//! in play, so the engine never tells them apart.

use std::fmt;

/// One of the four suits, in the order the rule book lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Spades, black.
    Spades = 0,
    /// Hearts, red.
    Hearts = 1,
    /// Diamonds, red.
    Diamonds = 2,
    /// Clubs, black.
    Clubs = 3,
}

/// Card colour, for the games that build in alternating colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Hearts and diamonds.
    Red,
    /// Spades and clubs.
    Black,
}

impl Suit {
    /// The four suits in their order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's place in [`Suit::ALL`], for tables keyed by suit.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Red for hearts and diamonds, black for spades and clubs.
    pub fn colour(self) -> Colour {
        match self {
            Suit::Hearts | Suit::Diamonds => Colour::Red,
            Suit::Spades | Suit::Clubs => Colour::Black,
        }
    }

    /// The letter used in the text form: `S`, `H`, `D`, `C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self.index()]
    }

    fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' | '♠' => Some(Suit::Spades),
            'H' | '♥' => Some(Suit::Hearts),
            'D' | '♦' => Some(Suit::Diamonds),
            'C' | '♣' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A rank from ace (1) to king (13). Where a game orders ranks differently
/// (the 36-card games), the game's [`crate::RankOrder`] says where each rank stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The ace, rank 1.
    pub const ACE: Rank = Rank(1);
    /// The king, rank 13.
    pub const KING: Rank = Rank(13);

    /// `n` from 1 (ace) to 13 (king).
    pub fn new(n: u8) -> Option<Rank> {
        (1..=13).contains(&n).then_some(Rank(n))
    }

    /// The rank's number: 1 for the ace to 13 for the king.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The thirteen ranks, ace first; a game's own ranks and their order are in [`crate::RankOrder`].
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }

    /// Text form: `A`, `2`..`9`, `10`, `J`, `Q`, `K`.
    pub fn text(self) -> &'static str {
        [
            "", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ][self.0 as usize]
    }
}

/// A playing card: a rank and a suit in one byte (`rank * 4 + suit`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// A set of cards as bits of their [`Card::index`] (all below 64).
pub(crate) type CardSet = u64;

/// The bit of one card in a [`CardSet`].
#[inline]
pub(crate) fn bit(card: Card) -> CardSet {
    1 << card.index()
}

impl Card {
    /// Number of distinct cards; `Card::index` is below this.
    pub const COUNT: usize = 56;

    /// The card of a rank and a suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank.0 * 4 + suit as u8)
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        Rank(self.0 >> 2)
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 & 3) as usize]
    }

    /// The colour of the card's suit.
    pub fn colour(self) -> Colour {
        self.suit().colour()
    }

    /// A dense index (below [`Card::COUNT`]) for tables keyed by card.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The card's byte, never 0 (ranks start at 1), so 0 can mean "no card"
    /// in compact caches.
    #[inline]
    pub(crate) const fn byte(self) -> u8 {
        self.0
    }

    /// The card whose [`Card::byte`] is `b`; `b` must come from `byte`.
    #[inline]
    pub(crate) const fn from_byte(b: u8) -> Card {
        Card(b)
    }

    /// The inverse of [`Card::index`], for tables keyed by card.
    pub fn from_index(i: usize) -> Option<Card> {
        let rank = Rank::new((i >> 2) as u8)?;
        Some(Card::new(rank, Suit::ALL[i & 3]))
    }

    /// Parses `AS`, `TH`, `10H`, `qd` (case does not matter; `T` and `10` both mean ten).
    pub fn parse(text: &str) -> Result<Card, CardError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(CardError::Empty);
        }
        if t.len() > 4 {
            return Err(CardError::Unknown(shorten(t)));
        }
        let mut chars: Vec<char> = t.chars().collect();
        let suit_char = chars.pop().ok_or(CardError::Empty)?;
        let suit = Suit::from_letter(suit_char).ok_or_else(|| CardError::Unknown(shorten(t)))?;
        let rank_text: String = chars.into_iter().collect::<String>().to_ascii_uppercase();
        let n = match rank_text.as_str() {
            "A" | "1" => 1,
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            s if s.len() == 1 && ("2"..="9").contains(&s) => s.parse().unwrap_or(0),
            _ => 0,
        };
        let rank = Rank::new(n).ok_or_else(|| CardError::Unknown(shorten(t)))?;
        Ok(Card::new(rank, suit))
    }
}

/// Error text quotes at most this much of the input, so a 10 MB line gives a short message.
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 24;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().text(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Card {
    type Err = CardError;
    fn from_str(s: &str) -> Result<Card, CardError> {
        Card::parse(s)
    }
}

/// Why a card text names no card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    /// Nothing but blanks.
    #[error("empty card text")]
    Empty,
    /// No rank and suit read from the text (quoted, shortened).
    #[error("unknown card `{0}` (expected rank A,2..10,J,Q,K or T, then suit S,H,D,C, as in `10H` or `QS`)")]
    Unknown(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_tens_and_prints_ten_as_10() {
        let a = Card::parse("TH").unwrap();
        let b = Card::parse("10h").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "10H");
    }

    #[test]
    fn every_card_round_trips_through_text_and_index() {
        for suit in Suit::ALL {
            for rank in Rank::all() {
                let c = Card::new(rank, suit);
                assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
                assert_eq!(Card::from_index(c.index()), Some(c));
                assert_eq!((c.rank(), c.suit()), (rank, suit));
            }
        }
    }

    #[test]
    fn rejects_unknown_cards_with_a_message_naming_them() {
        for bad in ["", "1", "XS", "11H", "0S", "KX", "AAAAAAS"] {
            let err = Card::parse(bad).unwrap_err().to_string();
            assert!(!err.is_empty());
        }
        assert!(Card::parse("ZZ").unwrap_err().to_string().contains("ZZ"));
        let long = "K".repeat(10_000_000) + "S";
        assert!(Card::parse(&long).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn colours() {
        assert_eq!(Card::parse("AH").unwrap().colour(), Colour::Red);
        assert_eq!(Card::parse("AD").unwrap().colour(), Colour::Red);
        assert_eq!(Card::parse("AS").unwrap().colour(), Colour::Black);
        assert_eq!(Card::parse("AC").unwrap().colour(), Colour::Black);
    }
}
