//! Rule questions about a whole game or position, asked by the searches
//! before they trust a dominance: do cards move one at a time, what fills an
//! emptied fan, is a draw still to come, does a redeal depend on anything
//! but the cards left. Each answer is a match over every case of the rule it
//! reads, so a new rule case must be answered here before it compiles; the
//! solver asks these instead of reading the raw fields of a [`GameSpec`].

use crate::layout::PileId;
use crate::position::Position;
use crate::spec::{Build, Direction, Draw, EmptyPile, Foundation, GameSpec, Gather, StockAction};

/// How a redeal that does not shuffle gathers the fans: the cards it deals
/// again are the fans' cards, each fan bottom card first, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InOrderGather {
    /// Fan 1 first, then fan 2, ... (the Russian family).
    FirstFanFirst,
    /// The last fan first, then the one before it (Krug).
    LastFanFirst,
    /// Fan 1 first, ..., and then the stock, its next card first
    /// (Novomanernaya).
    FansThenStock,
}

/// What may come to an emptied tableau pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptiedFan {
    /// Nothing, ever.
    StaysEmpty,
    /// Only a lone king the player moves there (Fan).
    TakesAKing,
    /// Cards of the stock or the waste, at once, by the rules (and in
    /// Blondes and Brunettes any card once those are empty).
    RefilledAtOnce,
}

impl GameSpec {
    /// What may come to an emptied tableau pile.
    pub fn emptied_fan(&self) -> EmptiedFan {
        match self.empty_pile {
            EmptyPile::Stays => EmptiedFan::StaysEmpty,
            EmptyPile::TakesKing => EmptiedFan::TakesAKing,
            EmptyPile::TakesStockCard
            | EmptyPile::TakesThreeStockCards
            | EmptyPile::TakesWasteThenStockThenAny => EmptiedFan::RefilledAtOnce,
        }
    }

    /// Whether every move takes one card off a pile (no runs move as a unit).
    pub fn moves_one_card(&self) -> bool {
        !self.moves_runs
    }

    /// Whether a card goes on the table only onto the card one rank above it
    /// in its own suit (so each card has one target card and, in one deck,
    /// one builder).
    pub fn builds_down_in_suit(&self) -> bool {
        match self.build {
            Build::DownInSuit => true,
            Build::None | Build::UpOrDownInSuit | Build::DownAlternateColour => false,
        }
    }

    /// Whether the position after a redeal depends only on which cards are
    /// left on the table, never on how the fans hold them: the shuffled
    /// redeals sort the gathered cards before shuffling; the others deal
    /// them again in the order gathered.
    pub fn redeal_depends_only_on_cards_left(&self) -> bool {
        match self.redeals.gather {
            Gather::Shuffled => true,
            Gather::InOrder | Gather::InOrderWithStock | Gather::LastFanFirst => false,
        }
    }

    /// How a redeal gathers the cards when it does not shuffle them; `None`
    /// where it shuffles. The gathered cards are dealt again from the first
    /// in fans of [`GameSpec::redeal_fan_size`], fan 1 first.
    pub fn in_order_gather(&self) -> Option<InOrderGather> {
        match self.redeals.gather {
            Gather::Shuffled => None,
            Gather::InOrder => Some(InOrderGather::FirstFanFirst),
            Gather::LastFanFirst => Some(InOrderGather::LastFanFirst),
            Gather::InOrderWithStock => Some(InOrderGather::FansThenStock),
        }
    }

    /// Cards a redeal deals to each fan, fan 1 first (the last fan, where
    /// there is no stock, takes whatever is left over).
    pub fn redeal_fan_size(&self) -> usize {
        (self.redeals.fan_size as usize).max(1)
    }

    /// Whether a click on the stock deals cards onto the tableau piles
    /// (Nivernaise's three to each pile): while it can, the piles' order
    /// matters.
    pub fn stock_deals_to_the_piles(&self) -> bool {
        match self.stock_action {
            StockAction::ThreeToEachPile => true,
            StockAction::None | StockAction::OneToWaste => false,
        }
    }

    /// Whether every foundation builds up in one named suit from its lowest
    /// card to its highest, without wrapping and without waiting for another
    /// foundation (not Krug, Nivernaise, House on the Hill or Blondes and
    /// Brunettes).
    pub fn foundations_up_in_suit(&self) -> bool {
        self.foundations.iter().all(|f| {
            let Foundation {
                suit,
                direction,
                alternate_colours,
                wraps,
                capacity: _,
                last_after_open,
            } = *f;
            let up = match direction {
                Direction::Up => true,
                Direction::Down => false,
            };
            up && suit.is_some() && !alternate_colours && !wraps && last_after_open.is_none()
        })
    }

    /// Whether a card the player chooses may ever come to an emptied fan
    /// (Fan's king; Blondes and Brunettes' any card once the waste and the
    /// stock are empty). Elsewhere an emptied fan stays empty or takes the
    /// stock's next cards at once, by the rules.
    pub fn player_may_fill_emptied_fans(&self) -> bool {
        match self.empty_pile {
            EmptyPile::TakesKing | EmptyPile::TakesWasteThenStockThenAny => true,
            EmptyPile::Stays | EmptyPile::TakesStockCard | EmptyPile::TakesThreeStockCards => false,
        }
    }

    /// How many copies of each card the pack holds: 1, or 2 in the two-deck
    /// games.
    pub fn copies_of_each_card(&self) -> u8 {
        self.decks
    }

    /// Whether a card on a foundation may come back to the table (Blondes
    /// and Brunettes).
    pub fn foundations_give_cards_back(&self) -> bool {
        self.foundation_returns
    }

    /// How many redeals the game allows in all.
    pub fn redeals_allowed(&self) -> u8 {
        self.redeals.count
    }

    /// Whether some foundation builds down (Nivernaise's and House on the
    /// Hill's king-houses).
    pub fn has_a_foundation_building_down(&self) -> bool {
        self.foundations.iter().any(|f| match f.direction {
            Direction::Down => true,
            Direction::Up => false,
        })
    }

    /// Whether foundations `a` and `b` (indices in rule order) follow the
    /// same rule, so that swapping their cards changes nothing a move could
    /// tell; `false` when either is not a foundation of the game.
    pub fn foundations_alike(&self, a: usize, b: usize) -> bool {
        match (self.foundations.get(a), self.foundations.get(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Whether, within a deal, the stock's cards come out only onto emptied
    /// fans, one refill at a time by the rules (Novomanernaya): no click on
    /// the stock turns or deals them, so while no fan empties the stock
    /// stays as it is. (A redeal gathers the stock too.)
    pub fn stock_leaves_only_by_refills(&self) -> bool {
        let by_click = self.stock_turns_onto_a_waste() || self.stock_deals_to_the_piles();
        self.has_stock && self.emptied_fan() == EmptiedFan::RefilledAtOnce && !by_click
    }

    /// Whether the stock turns onto a waste, once (Krakowski, Blondes and
    /// Brunettes).
    pub fn stock_turns_onto_a_waste(&self) -> bool {
        match self.stock_action {
            StockAction::OneToWaste => true,
            StockAction::None | StockAction::ThreeToEachPile => false,
        }
    }
}

impl Position {
    /// The fans in the order a redeal that does not shuffle gathers them
    /// (empty where redeals shuffle); see [`GameSpec::in_order_gather`].
    pub fn fans_in_gather_order(&self) -> impl Iterator<Item = PileId> + '_ {
        let n = match self.spec().in_order_gather() {
            Some(_) => self.layout().tableau,
            None => 0,
        };
        let last_first = self.spec().in_order_gather() == Some(InOrderGather::LastFanFirst);
        (0..n).map(move |i| {
            self.layout()
                .tableau(if last_first { n - 1 - i } else { i })
        })
    }

    /// Whether the once-per-game draw is still to be used, now or in a later
    /// deal.
    pub fn draw_left(&self) -> bool {
        !self.draw_used()
            && match self.spec().draw {
                Draw::Never => false,
                Draw::InLastDeal | Draw::Anytime => true,
            }
    }

    /// Whether the draw may be played in the current deal (now, or later in
    /// this deal without a redeal).
    pub fn draw_in_this_deal(&self) -> bool {
        !self.draw_used()
            && match self.spec().draw {
                Draw::Never => false,
                Draw::InLastDeal => self.redeals_left() == 0,
                Draw::Anytime => true,
            }
    }

    /// Whether a redeal is still to come whose deal depends on how the fans
    /// hold the cards (not only on which cards are left).
    pub fn redeal_in_order_left(&self) -> bool {
        self.redeals_left() > 0 && !self.spec().redeal_depends_only_on_cards_left()
    }
}

#[cfg(test)]
mod tests {
    use crate::catalogue::game;
    use crate::position::Position;

    use super::{EmptiedFan, InOrderGather};

    /// docs/games.md: La Belle Lucie's emptied fans are never refilled,
    /// Fan's take a king, Krakowski's the stock's next card.
    #[test]
    fn emptied_fans_follow_the_rule_book() {
        assert_eq!(
            game("la-belle-lucie").unwrap().emptied_fan(),
            EmptiedFan::StaysEmpty
        );
        assert_eq!(game("fan").unwrap().emptied_fan(), EmptiedFan::TakesAKing);
        assert_eq!(
            game("krakowski").unwrap().emptied_fan(),
            EmptiedFan::RefilledAtOnce
        );
    }

    /// docs/games.md: Fan's emptied fan takes a king the player moves there
    /// and Blondes and Brunettes' any card once waste and stock are empty;
    /// Krakowski's takes the stock's next card at once, Nivernaise's line
    /// three, La Belle Lucie's nothing.
    #[test]
    fn only_fan_and_blondes_and_brunettes_let_the_player_fill_a_fan() {
        for (id, chooses) in [
            ("fan", true),
            ("blondes-and-brunettes", true),
            ("krakowski", false),
            ("nivernaise", false),
            ("la-belle-lucie", false),
        ] {
            assert_eq!(
                game(id).unwrap().player_may_fill_emptied_fans(),
                chooses,
                "{id}"
            );
        }
    }

    /// Novomanernaya's stock refills emptied fans and nothing else turns
    /// it; Krakowski's turns onto a waste, Nivernaise's deals onto the
    /// piles, La Belle Lucie has none.
    #[test]
    fn only_novomanernaya_stock_leaves_by_refills_alone() {
        for spec in crate::catalogue::games() {
            assert_eq!(
                spec.stock_leaves_only_by_refills(),
                spec.id == "novomanernaya",
                "{}",
                spec.id
            );
        }
    }

    /// docs/games.md: two decks in Krakowski, one in La Belle Lucie;
    /// Blondes and Brunettes may take a card back from a foundation;
    /// Nivernaise's king-houses build down; La Belle Lucie's four
    /// foundations follow one rule each for its suit, none alike.
    #[test]
    fn pack_and_foundation_questions_follow_the_rule_book() {
        assert_eq!(game("krakowski").unwrap().copies_of_each_card(), 2);
        assert_eq!(game("la-belle-lucie").unwrap().copies_of_each_card(), 1);
        assert!(game("blondes-and-brunettes")
            .unwrap()
            .foundations_give_cards_back());
        assert!(!game("krakowski").unwrap().foundations_give_cards_back());
        assert!(game("nivernaise").unwrap().has_a_foundation_building_down());
        assert!(!game("krakowski").unwrap().has_a_foundation_building_down());
        assert_eq!(game("la-belle-lucie").unwrap().redeals_allowed(), 2);
        assert_eq!(game("krakowski").unwrap().redeals_allowed(), 0);
        let lucie = game("la-belle-lucie").unwrap();
        assert!(lucie.foundations_alike(0, 0) && !lucie.foundations_alike(0, 1));
        assert!(!lucie.foundations_alike(0, 4), "no fifth foundation");
    }

    /// "In the third deal, that is after the second redeal, once per game"
    /// (Three Shuffles and a Draw); "at any moment" (super-move).
    #[test]
    fn the_draw_comes_in_the_deal_the_rule_book_says() {
        let three = Position::deal(game("three-shuffles-and-a-draw").unwrap(), 1).unwrap();
        assert!(three.draw_left() && !three.draw_in_this_deal());
        let last = three.clone().with_redeals_left(0).unwrap();
        assert!(last.draw_in_this_deal());
        let sup = Position::deal(game("la-belle-lucie-super-move").unwrap(), 1).unwrap();
        assert!(sup.draw_in_this_deal());
        let lucie = Position::deal(game("la-belle-lucie").unwrap(), 1).unwrap();
        assert!(!lucie.draw_left() && !lucie.draw_in_this_deal());
    }

    /// La Belle Lucie's redeals shuffle the sorted cards left; Trilistnik's
    /// and Novomanernaya's gather in order.
    #[test]
    fn only_shuffled_redeals_depend_on_the_cards_left_alone() {
        assert!(game("la-belle-lucie")
            .unwrap()
            .redeal_depends_only_on_cards_left());
        for g in ["trilistnik", "novomanernaya", "krug"] {
            let spec = game(g).unwrap();
            assert!(!spec.redeal_depends_only_on_cards_left(), "{g}");
            assert!(Position::deal(spec, 1).unwrap().redeal_in_order_left());
        }
    }

    /// docs/games.md: Krug gathers "from the end, the last fan onto the one
    /// before it"; Trilistnik "fan 1 bottom to top, then fan 2"; Melnitsa
    /// deals again in fans of 4.
    #[test]
    fn in_order_redeals_gather_as_the_rule_book_says() {
        let krug = Position::deal(game("krug").unwrap(), 1).unwrap();
        let order: Vec<u8> = krug.fans_in_gather_order().map(|p| p.0).collect();
        assert_eq!(order.first(), Some(&(krug.layout().tableau - 1)));
        assert_eq!(order.last(), Some(&0));
        let tri = game("trilistnik").unwrap();
        assert_eq!(tri.in_order_gather(), Some(InOrderGather::FirstFanFirst));
        assert_eq!(tri.redeal_fan_size(), 3);
        assert_eq!(game("melnitsa").unwrap().redeal_fan_size(), 4);
        assert_eq!(
            game("novomanernaya").unwrap().in_order_gather(),
            Some(InOrderGather::FansThenStock)
        );
        let lucie = Position::deal(game("la-belle-lucie").unwrap(), 1).unwrap();
        assert_eq!(lucie.fans_in_gather_order().count(), 0);
    }
}
