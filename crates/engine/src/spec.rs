//! A game described as data: the deck, the piles, and the rules one engine reads.
//!
//! Each game of the rule book is one [`GameSpec`] value in [`crate::catalogue`].
//! Where a rule could not be said as data it is an enum case here with a short
//! arm in the engine (Krug's bases, Nivernaise's deal), never a game-id check.

use crate::card::{Card, Rank, Suit};

/// Which ranks a deck holds and how they are ordered in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankOrder {
    /// 52 cards: A low, then 2..10, J, Q, K.
    AceLow,
    /// 36 cards (A, 6..K) with the ace counting below the six.
    ShortAceLow,
    /// 36 cards (6..K, A) with the ace above the king (Krug).
    ShortAceHigh,
}

impl RankOrder {
    /// Rank numbers in play order, lowest first.
    fn numbers(self) -> &'static [u8] {
        match self {
            RankOrder::AceLow => &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            RankOrder::ShortAceLow => &[1, 6, 7, 8, 9, 10, 11, 12, 13],
            RankOrder::ShortAceHigh => &[6, 7, 8, 9, 10, 11, 12, 13, 1],
        }
    }

    /// The ranks in play order, lowest first.
    pub fn ranks(self) -> Vec<Rank> {
        self.numbers()
            .iter()
            .filter_map(|&r| Rank::new(r))
            .collect()
    }

    /// The rank at play order `order` (0 lowest), if the deck has one there.
    /// Allocates nothing, unlike [`RankOrder::ranks`]: the solver asks it at
    /// every node.
    #[inline]
    pub fn rank_at(self, order: usize) -> Option<Rank> {
        self.numbers().get(order).and_then(|&r| Rank::new(r))
    }

    /// Number of ranks in play.
    pub fn len(self) -> u8 {
        match self {
            RankOrder::AceLow => 13,
            _ => 9,
        }
    }

    /// Always false: every deck has ranks.
    pub fn is_empty(self) -> bool {
        false
    }
}

/// How a tableau pile takes a card onto its top card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// Nothing is built (Nivernaise's line).
    None,
    /// Same suit, one rank lower than the top card.
    DownInSuit,
    /// Same suit, one rank lower or higher (House on the Hill).
    UpOrDownInSuit,
    /// Other colour, one rank lower (Blondes and Brunettes).
    DownAlternateColour,
}

/// What may fill an empty tableau pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyPile {
    /// Never refilled.
    Stays,
    /// The player may put a lone king there (Fan).
    TakesKing,
    /// At once the next stock card (Novomanernaya, Krakowski).
    TakesStockCard,
    /// At once three cards from the stock (Nivernaise's line).
    TakesThreeStockCards,
    /// At once the waste's top card, else the stock's; once both are empty, any
    /// playable card by the player's choice (Blondes and Brunettes).
    TakesWasteThenStockThenAny,
}

/// What a click on the stock does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StockAction {
    /// There is no stock, or it only feeds refills (Novomanernaya).
    None,
    /// One card onto the waste; the stock passes once.
    OneToWaste,
    /// Three cards onto each line pile, round by round (Nivernaise).
    ThreeToEachPile,
}

/// How a redeal gathers the cards left on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gather {
    /// Fans in order, then shuffled (La Belle Lucie, the House games).
    Shuffled,
    /// Fans in order, bottom to top, no shuffle (the Russian family).
    InOrder,
    /// Fans in order and then the stock below them, no shuffle (Novomanernaya).
    InOrderWithStock,
    /// The last fan first, no shuffle (Krug).
    LastFanFirst,
}

/// The redeals a game allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redeals {
    /// Redeals allowed in a game; 0 when there are none.
    pub count: u8,
    /// How the cards left on the table are gathered.
    pub gather: Gather,
    /// Cards per fan when dealing again.
    pub fan_size: u8,
    /// Only once the stock is empty (Nivernaise).
    pub needs_empty_stock: bool,
}

/// When the once-per-game draw (a covered card played out) is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The game has no draw.
    Never,
    /// Only in the last deal, after every redeal is used.
    InLastDeal,
    /// At any moment.
    Anytime,
}

/// Where the aces go in games that start with them on the foundations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcesOut {
    /// The aces are dealt like any card and stay where they fall.
    No,
    /// Taken from the pack before shuffling and dealing.
    BeforeDeal,
    /// Dealt like any card, then taken out from wherever they lie.
    AfterDeal,
}

/// Which way a foundation builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the opening rank up.
    Up,
    /// From the opening rank down.
    Down,
}

/// The rule of one foundation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Foundation {
    /// The suit an empty foundation takes; `None` when any suit opens it.
    pub suit: Option<Suit>,
    /// Which way it builds.
    pub direction: Direction,
    /// In alternating colours rather than in suit.
    pub alternate_colours: bool,
    /// Wraps from the highest rank to the lowest (Krug: K, A, 6).
    pub wraps: bool,
    /// Cards it holds when complete.
    pub capacity: u8,
    /// Its last card may only come once this other foundation is open: the
    /// second ace of a suit goes last onto the king-house only after the first
    /// one opened the ace-house (Nivernaise).
    pub last_after_open: Option<u8>,
}

/// The table arrangement the page draws; rules never depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableLayout {
    /// Fans in rows.
    Rows,
    /// The two-deck House: the foundations in a row between two equal
    /// groups of fans, left and right (seed 002).
    House,
    /// One large fan (Fan layout).
    BigFan,
    /// Fans grouped as flying birds (Swallows).
    Birds,
    /// Fans in a circle (Krug).
    Circle,
    /// Reserve, columns, stock and waste (Blondes and Brunettes).
    BlondesAndBrunettes,
    /// A line of piles between two flanks of cells (Nivernaise).
    Nivernaise,
}

/// One game of the catalogue.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Stable public id: in URLs, saved games and records.
    pub id: &'static str,
    /// The English name.
    pub name_en: &'static str,
    /// The Russian name.
    pub name_ru: &'static str,
    /// The rules in one English sentence.
    pub about: &'static str,
    /// Number of decks: 1 or 2.
    pub decks: u8,
    /// The ranks of the deck and their play order.
    pub ranks: RankOrder,
    /// Whether the aces start on the foundations.
    pub aces_out: AcesOut,
    /// Krug: bases chosen from the pack before the deal.
    pub krug_bases: bool,
    /// Reserve cards dealt face up (Blondes and Brunettes).
    pub reserve: u8,
    /// Tableau piles and their opening sizes; the last may be short.
    pub tableau_piles: u8,
    /// Cards in each opening tableau pile.
    pub tableau_fan_size: u8,
    /// How a tableau pile takes a card.
    pub build: Build,
    /// A run in suit, descending, moves as a unit (La Belle Lucie with sequences).
    pub moves_runs: bool,
    /// What fills an emptied tableau pile.
    pub empty_pile: EmptyPile,
    /// Flank cells with one card each at the start (Nivernaise).
    pub cells: u8,
    /// Cards dealt to the waste at the start.
    pub waste: u8,
    /// Whether there is a stock (every card left after the deal goes there).
    pub has_stock: bool,
    /// What a click on the stock does.
    pub stock_action: StockAction,
    /// Every foundation's rule, in pile order.
    pub foundations: Vec<Foundation>,
    /// The top card of a foundation may come back to the tableau.
    pub foundation_returns: bool,
    /// The redeals allowed.
    pub redeals: Redeals,
    /// When the draw is allowed.
    pub draw: Draw,
    /// How the page arranges the table.
    pub layout: TableLayout,
}

impl GameSpec {
    /// Every card of the game's pack, sorted (suit by suit, ranks in play order, then the copy).
    pub fn pack(&self) -> Vec<Card> {
        let mut pack = Vec::with_capacity(self.card_count());
        for _ in 0..self.decks {
            for suit in Suit::ALL {
                for rank in self.ranks.ranks() {
                    pack.push(Card::new(rank, suit));
                }
            }
        }
        pack.sort();
        pack
    }

    /// 52, 104 or 36.
    pub fn card_count(&self) -> usize {
        self.decks as usize * 4 * self.ranks.len() as usize
    }

    /// Where a rank stands in play order, lowest 0.
    pub fn order(&self, card: Card) -> u8 {
        let r = card.rank().number();
        match self.ranks {
            RankOrder::AceLow => r - 1,
            RankOrder::ShortAceLow => {
                if r == 1 {
                    0
                } else {
                    r.saturating_sub(5)
                }
            }
            RankOrder::ShortAceHigh => {
                if r == 1 {
                    8
                } else {
                    r.saturating_sub(6)
                }
            }
        }
    }

    /// Whether no rule tells two suits of one colour apart: the table builds
    /// down in alternating colours or not at all, no runs move, no bases
    /// are chosen, and every foundation opens with any suit and builds in
    /// alternating colours (Blondes and Brunettes). Then the rule tables,
    /// and with them the legal moves pile for pile, depend on ranks and
    /// colours alone: swapping the suits of two cards of one rank and
    /// colour wherever they lie changes no move.
    pub fn suit_blind(&self) -> bool {
        matches!(self.build, Build::DownAlternateColour | Build::None)
            && !self.moves_runs
            && !self.krug_bases
            && !self.foundations.is_empty()
            && self
                .foundations
                .iter()
                .all(|f| f.suit.is_none() && f.alternate_colours)
    }

    /// Whether the card belongs to this game's deck.
    pub fn holds(&self, card: Card) -> bool {
        self.ranks.ranks().contains(&card.rank())
    }

    /// The play order of the highest rank (8 or 12).
    pub fn top_order(&self) -> u8 {
        self.ranks.len() - 1
    }

    /// The rank that opens an empty foundation of rule `rule`: the lowest in
    /// play order when it builds up, the highest when it builds down. The
    /// foundation tables are built from this, so what the page is told opens a
    /// foundation and what the engine accepts cannot disagree.
    pub fn opening_rank(&self, rule: &Foundation) -> Rank {
        let ranks = self.ranks.ranks();
        match rule.direction {
            Direction::Up => ranks[0],
            Direction::Down => ranks[ranks.len() - 1],
        }
    }

    /// What empty foundation `i` (0-based) takes, for showing it on the table:
    /// a rank, and the suit when the rule names one. `None` for a foundation
    /// the game does not have, and where the deal lays a base of any rank on
    /// every foundation (Krug), so that no one rank opens it and it is never
    /// empty in play.
    pub fn foundation_opening(&self, i: usize) -> Option<(Rank, Option<Suit>)> {
        let rule = self.foundations.get(i)?;
        if self.krug_bases {
            return None;
        }
        Some((self.opening_rank(rule), rule.suit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only Blondes and Brunettes names no suit in any rule: its foundations
    /// open with any suit and alternate colours, and its table builds in
    /// alternating colours. Every other game builds a foundation in suit.
    #[test]
    fn only_blondes_and_brunettes_is_suit_blind() {
        for g in crate::games() {
            assert_eq!(g.suit_blind(), g.id == "blondes-and-brunettes", "{}", g.id);
        }
    }

    #[test]
    fn rank_at_reads_the_play_order() {
        for order in [
            RankOrder::AceLow,
            RankOrder::ShortAceLow,
            RankOrder::ShortAceHigh,
        ] {
            let ranks = order.ranks();
            assert_eq!(ranks.len(), order.len() as usize);
            for i in 0..20 {
                assert_eq!(order.rank_at(i), ranks.get(i).copied(), "{order:?} {i}");
            }
        }
        assert_eq!(RankOrder::ShortAceHigh.rank_at(8), Some(Rank::ACE));
    }
}
