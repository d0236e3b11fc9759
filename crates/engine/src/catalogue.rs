//! The games of the rule book (`docs/games.md`), each as one [`GameSpec`].
//!
//! Ids are stable public names: they appear in URLs, saved games and records.

use std::sync::OnceLock;

use crate::card::Suit;
use crate::spec::*;

/// Every game, in the order of the rule book.
pub fn games() -> &'static [GameSpec] {
    static GAMES: OnceLock<Vec<GameSpec>> = OnceLock::new();
    GAMES.get_or_init(build)
}

/// The game with this id.
pub fn game(id: &str) -> Option<&'static GameSpec> {
    games().iter().find(|g| g.id == id)
}

fn up_in_suit(suit: Suit, capacity: u8) -> Foundation {
    Foundation {
        suit: Some(suit),
        direction: Direction::Up,
        alternate_colours: false,
        wraps: false,
        capacity,
        last_after_open: None,
    }
}

/// One ace-up foundation per suit per deck: `f1..f4` the suits in order, `f5..f8` again.
fn ace_foundations(decks: u8, capacity: u8) -> Vec<Foundation> {
    (0..decks)
        .flat_map(|_| Suit::ALL.map(|s| up_in_suit(s, capacity)))
        .collect()
}

/// Per suit an ace-house (`f1..f4`) built up and a king-house (`f5..f8`) built down.
/// With `paired`, each house's last card waits until the other house is open.
fn houses(paired: bool) -> Vec<Foundation> {
    let mut v = Vec::new();
    for (dir, offset) in [(Direction::Up, 4u8), (Direction::Down, 0u8)] {
        for (i, s) in Suit::ALL.into_iter().enumerate() {
            v.push(Foundation {
                direction: dir,
                last_after_open: paired.then_some(i as u8 + offset),
                ..up_in_suit(s, 13)
            });
        }
    }
    v
}

fn la_belle_lucie() -> GameSpec {
    GameSpec {
        id: "la-belle-lucie",
        name_en: "La Belle Lucie",
        name_ru: "Прекрасная Люси",
        about: "One deck in eighteen fans of three; build down in suit, one card at a time; two redeals.",
        decks: 1,
        ranks: RankOrder::AceLow,
        aces_out: AcesOut::No,
        krug_bases: false,
        reserve: 0,
        tableau_piles: 18,
        tableau_fan_size: 3,
        build: Build::DownInSuit,
        moves_runs: false,
        empty_pile: EmptyPile::Stays,
        cells: 0,
        waste: 0,
        has_stock: false,
        stock_action: StockAction::None,
        foundations: ace_foundations(1, 13),
        foundation_returns: false,
        redeals: Redeals {
            count: 2,
            gather: Gather::Shuffled,
            fan_size: 3,
            needs_empty_stock: false,
        },
        draw: Draw::Never,
        layout: TableLayout::Rows,
    }
}

fn house_in_the_woods() -> GameSpec {
    GameSpec {
        id: "house-in-the-woods",
        name_en: "House in the Woods",
        name_ru: "Дом в лесу",
        about: "Two decks in thirty-five fans of three; build down in suit; two redeals.",
        decks: 2,
        tableau_piles: 35,
        foundations: ace_foundations(2, 13),
        layout: TableLayout::House,
        ..la_belle_lucie()
    }
}

fn trilistnik() -> GameSpec {
    GameSpec {
        id: "trilistnik",
        name_en: "Trilistnik",
        name_ru: "Трилистник",
        about:
            "One deck dealt in full, then the aces are taken out; two redeals without shuffling.",
        aces_out: AcesOut::AfterDeal,
        redeals: Redeals {
            gather: Gather::InOrder,
            ..la_belle_lucie().redeals
        },
        ..la_belle_lucie()
    }
}

fn novomanernaya() -> GameSpec {
    GameSpec {
        id: "novomanernaya",
        name_en: "Novomanernaya",
        name_ru: "Новоманерная",
        about: "Two decks; eighteen fans of three and a stock that refills every emptied fan; two redeals without shuffling.",
        decks: 2,
        tableau_piles: 18,
        empty_pile: EmptyPile::TakesStockCard,
        has_stock: true,
        foundations: ace_foundations(2, 13),
        redeals: Redeals {
            gather: Gather::InOrderWithStock,
            ..la_belle_lucie().redeals
        },
        ..la_belle_lucie()
    }
}

fn build() -> Vec<GameSpec> {
    let lbl = la_belle_lucie();
    let no_redeal = Redeals {
        count: 0,
        ..lbl.redeals
    };
    vec![
        lbl.clone(),
        GameSpec {
            id: "la-belle-lucie-one-redeal",
            name_en: "La Belle Lucie, one redeal",
            name_ru: "Прекрасная Люси, одна пересдача",
            about: "La Belle Lucie with a single redeal.",
            redeals: Redeals { count: 1, ..lbl.redeals },
            ..lbl.clone()
        },
        GameSpec {
            id: "trefoil",
            name_en: "Trefoil",
            name_ru: "Трилистник (тузы в базе)",
            about: "La Belle Lucie with the aces on the foundations from the start: sixteen fans of three.",
            aces_out: AcesOut::BeforeDeal,
            tableau_piles: 16,
            ..lbl.clone()
        },
        GameSpec {
            id: "three-shuffles-and-a-draw",
            name_en: "Three Shuffles and a Draw",
            name_ru: "Три тасовки и вытягивание",
            about: "La Belle Lucie; in the third deal, once, any covered card may be drawn out and played.",
            draw: Draw::InLastDeal,
            ..lbl.clone()
        },
        GameSpec {
            id: "la-belle-lucie-super-move",
            name_en: "La Belle Lucie, super-move",
            name_ru: "Прекрасная Люси, супер-ход",
            about: "La Belle Lucie; once per game, at any moment, any covered card may be drawn out and played.",
            draw: Draw::Anytime,
            ..lbl.clone()
        },
        GameSpec {
            id: "la-belle-lucie-sequences",
            name_en: "La Belle Lucie, sequences",
            name_ru: "Прекрасная Люси, последовательности",
            about: "La Belle Lucie where a run in suit moves as a unit.",
            moves_runs: true,
            ..lbl.clone()
        },
        GameSpec {
            id: "la-belle-lucie-36",
            name_en: "La Belle Lucie, 36 cards",
            name_ru: "Прекрасная Люси, 36 карт",
            about: "La Belle Lucie with a 36-card deck in twelve fans; the ace counts below the six.",
            ranks: RankOrder::ShortAceLow,
            tableau_piles: 12,
            foundations: ace_foundations(1, 9),
            ..lbl.clone()
        },
        GameSpec {
            id: "fan",
            name_en: "Fan",
            name_ru: "Веер",
            about: "La Belle Lucie without redeals, where an emptied fan may take a king.",
            empty_pile: EmptyPile::TakesKing,
            redeals: no_redeal,
            ..lbl.clone()
        },
        house_in_the_woods(),
        GameSpec {
            id: "house-on-the-hill",
            name_en: "House on the Hill",
            name_ru: "Дом на холме",
            about: "Two decks; per suit an ace-foundation up and a king-foundation down; build up or down in suit.",
            build: Build::UpOrDownInSuit,
            foundations: houses(false),
            ..house_in_the_woods()
        },
        GameSpec {
            id: "fan-layout",
            name_en: "Fan-shaped House",
            name_ru: "Веер (две колоды)",
            about: "House in the Woods laid out as one large fan.",
            layout: TableLayout::BigFan,
            ..house_in_the_woods()
        },
        GameSpec {
            id: "swallows",
            name_en: "Swallows",
            name_ru: "Ласточки",
            about: "House in the Woods laid out as flying birds.",
            layout: TableLayout::Birds,
            ..house_in_the_woods()
        },
        novomanernaya(),
        GameSpec {
            id: "krakowski",
            name_en: "Krakowski",
            name_ru: "Краковский",
            about: "Two decks; twelve fans of three; the stock turns once onto a waste and refills emptied fans.",
            tableau_piles: 12,
            waste: 0,
            stock_action: StockAction::OneToWaste,
            redeals: no_redeal,
            ..novomanernaya()
        },
        trilistnik(),
        GameSpec {
            id: "bredulia",
            name_en: "Bredulia",
            name_ru: "Бредулия",
            about: "Aces on the foundations before the deal; sixteen fans of three; two redeals without shuffling.",
            aces_out: AcesOut::BeforeDeal,
            tableau_piles: 16,
            ..trilistnik()
        },
        GameSpec {
            id: "melnitsa",
            name_en: "Melnitsa (Mill)",
            name_ru: "Мельница",
            about: "Bredulia in twelve fans of four.",
            aces_out: AcesOut::BeforeDeal,
            tableau_piles: 12,
            tableau_fan_size: 4,
            redeals: Redeals {
                fan_size: 4,
                ..trilistnik().redeals
            },
            ..trilistnik()
        },
        GameSpec {
            id: "krug",
            name_en: "Krug (Circle)",
            name_ru: "Круг",
            about: "36 cards; four bases of different suits, each foundation wrapping K, A, 6; three redeals.",
            ranks: RankOrder::ShortAceHigh,
            krug_bases: true,
            tableau_piles: 11,
            foundations: Suit::ALL
                .map(|s| Foundation {
                    wraps: true,
                    ..up_in_suit(s, 9)
                })
                .to_vec(),
            redeals: Redeals {
                count: 3,
                gather: Gather::LastFanFirst,
                fan_size: 3,
                needs_empty_stock: false,
            },
            layout: TableLayout::Circle,
            ..lbl.clone()
        },
        GameSpec {
            id: "blondes-and-brunettes",
            name_en: "Blondes and Brunettes",
            name_ru: "Блондинки и брюнетки",
            about: "Two decks; a reserve of ten, nine columns built down in alternating colours, one pass through the stock.",
            decks: 2,
            reserve: 10,
            tableau_piles: 9,
            tableau_fan_size: 1,
            build: Build::DownAlternateColour,
            empty_pile: EmptyPile::TakesWasteThenStockThenAny,
            waste: 1,
            has_stock: true,
            stock_action: StockAction::OneToWaste,
            foundations: (0..8)
                .map(|_| Foundation {
                    suit: None,
                    alternate_colours: true,
                    ..up_in_suit(Suit::Spades, 13)
                })
                .collect(),
            foundation_returns: true,
            redeals: no_redeal,
            layout: TableLayout::BlondesAndBrunettes,
            ..lbl.clone()
        },
        GameSpec {
            id: "nivernaise",
            name_en: "La Nivernaise (Napoleon's Flank)",
            name_ru: "Ниверне",
            about: "Two decks; a line of six piles, two flanks of four cells, per suit an ace-house and a king-house; two redeals.",
            decks: 2,
            tableau_piles: 6,
            build: Build::None,
            empty_pile: EmptyPile::TakesThreeStockCards,
            cells: 8,
            has_stock: true,
            stock_action: StockAction::ThreeToEachPile,
            foundations: houses(true),
            redeals: Redeals {
                count: 2,
                gather: Gather::InOrder,
                fan_size: 3,
                needs_empty_stock: true,
            },
            layout: TableLayout::Nivernaise,
            ..lbl
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: [&str; 20] = [
        "la-belle-lucie",
        "la-belle-lucie-one-redeal",
        "trefoil",
        "three-shuffles-and-a-draw",
        "la-belle-lucie-super-move",
        "la-belle-lucie-sequences",
        "la-belle-lucie-36",
        "fan",
        "house-in-the-woods",
        "house-on-the-hill",
        "fan-layout",
        "swallows",
        "novomanernaya",
        "krakowski",
        "trilistnik",
        "bredulia",
        "melnitsa",
        "krug",
        "blondes-and-brunettes",
        "nivernaise",
    ];

    #[test]
    fn every_rule_book_id_is_offered_once_in_order() {
        let ids: Vec<&str> = games().iter().map(|g| g.id).collect();
        assert_eq!(ids, IDS);
    }

    #[test]
    fn foundations_hold_the_whole_pack() {
        for g in games() {
            let room: usize = g.foundations.iter().map(|f| f.capacity as usize).sum();
            assert_eq!(room, g.card_count(), "{}", g.id);
            assert_eq!(g.pack().len(), g.card_count(), "{}", g.id);
        }
    }
}
