//! Perft: move-path counts pinned for deal 1 of every game, and one small
//! position per game whose count is worked out by hand in the comments.
//! Any change in move generation, make or unmake changes some count.

use patience_engine::*;

/// Perft of deal 1 of each game at depths 1, 2, 3...
const PINNED: &[(&str, &[u64])] = &[
    ("la-belle-lucie", &[4, 17, 83, 443, 2396]),
    ("la-belle-lucie-one-redeal", &[4, 16, 66, 267, 988, 3275]),
    ("trefoil", &[6, 35, 213, 1366, 8962]),
    ("three-shuffles-and-a-draw", &[8, 60, 444, 3419]),
    ("la-belle-lucie-super-move", &[20, 259, 2808]),
    ("la-belle-lucie-sequences", &[8, 65, 538, 4514]),
    ("la-belle-lucie-36", &[6, 39, 246, 1511, 8992]),
    ("fan", &[5, 27, 148, 798, 4141]),
    ("house-in-the-woods", &[23, 510, 11085]),
    ("house-on-the-hill", &[51, 2545]),
    ("fan-layout", &[27, 722, 19125]),
    ("swallows", &[21, 427, 8568]),
    ("novomanernaya", &[7, 46, 277, 1582, 8819]),
    ("krakowski", &[1, 2, 3, 4, 5, 6, 7]),
    ("trilistnik", &[8, 62, 465, 3345]),
    ("bredulia", &[2, 5, 15, 65, 345, 1953, 11067]),
    ("melnitsa", &[5, 24, 108, 444, 1646, 5504]),
    ("krug", &[3, 9, 36, 150, 628, 2642]),
    ("blondes-and-brunettes", &[1, 1, 2, 2, 2, 3, 6]),
    ("nivernaise", &[2, 12, 43, 135, 306, 823, 2732]),
];

#[test]
fn opening_deals_have_their_pinned_perft() {
    assert_eq!(PINNED.len(), games().len());
    for (id, counts) in PINNED {
        let mut p = Position::deal(game(id).unwrap(), 1).unwrap();
        let start = p.clone();
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), n, "{id} depth {}", d + 1);
        }
        assert_eq!(p, start, "{id}: perft leaves the position as it was");
        assert_eq!(p.hash(), start.hash());
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut p = Position::deal(game("house-in-the-woods").unwrap(), 1).unwrap();
    let parts = perft::divide(&mut p, 2);
    assert_eq!(parts.len(), 23);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 510);
}

#[test]
fn redeals_count_as_moves_only_while_left() {
    let p = Position::deal(game("la-belle-lucie").unwrap(), 1).unwrap();
    let mut none = p.clone().with_redeals_left(0).unwrap();
    // Deal 1 at depth 1: 3 moves and the redeal.
    assert_eq!(perft(&mut none, 1), 3);
}

fn position(id: &str, lines: &[&str]) -> Position {
    let text = format!("game: {id}\n{}\n", lines.join("\n"));
    Position::from_text(&text, None).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Spades up to the jack, KS and QS on the table; the same in hearts;
/// diamonds and clubs home; no redeal left.
///
/// Depth 1: t2 QS goes home or onto KS (t2>f1, t2>t1), and t4 QH alike
/// (t4>f2, t4>t3): 4 moves; kings move nowhere but home, and neither is next.
/// Depth 2: after either queen move its own suit has one move left (the king
/// home, or QS home from the king's fan) and the other suit still two: 4 × 3
/// = 12.
fn two_suits_one_deck(id: &str, low: &[&str], redeals: u8) -> Position {
    let up = |s: &str| -> String {
        let mut v = vec![format!("A{s}")];
        v.extend(low.iter().map(|r| format!("{r}{s}")));
        v.join(" ")
    };
    let all = |s: &str| format!("{} Q{s} K{s}", up(s));
    position(
        id,
        &[
            &format!("redeals-used: {redeals}"),
            &format!("f1: {}", up("S")),
            &format!("f2: {}", up("H")),
            &format!("f3: {}", all("D")),
            &format!("f4: {}", all("C")),
            "t1: KS",
            "t2: QS",
            "t3: KH",
            "t4: QH",
        ],
    )
}

const TWO_TO_J: &[&str] = &["2", "3", "4", "5", "6", "7", "8", "9", "10", "J"];
const SIX_TO_J: &[&str] = &["6", "7", "8", "9", "10", "J"];

#[test]
fn hand_checked_one_deck_fan_games() {
    for (id, redeals) in [
        ("la-belle-lucie", 2),
        ("la-belle-lucie-one-redeal", 1),
        ("trefoil", 2),
        ("three-shuffles-and-a-draw", 2),
        ("la-belle-lucie-super-move", 2),
        ("la-belle-lucie-sequences", 2),
        ("fan", 0),
        ("trilistnik", 2),
        ("bredulia", 2),
        ("melnitsa", 2),
    ] {
        // The draw games: the only covered card ever is KS under QS (after
        // t2>t1) or KH under QH, and a king can be drawn nowhere, so the draw
        // adds nothing. Fan: a lone king is never moved to an empty fan, and
        // no queen may go there. Sequences: the run KS QS has nowhere to go.
        let mut p = two_suits_one_deck(id, TWO_TO_J, redeals);
        assert_eq!(perft(&mut p, 1), 4, "{id}");
        assert_eq!(perft(&mut p, 2), 12, "{id}");
    }
    // The 36-card deck: the same with spades A, 6..J home.
    let mut p = two_suits_one_deck("la-belle-lucie-36", SIX_TO_J, 2);
    assert_eq!((perft(&mut p, 1), perft(&mut p, 2)), (4, 12));
}

/// Krug: spades based on the 8 and home to the ace (8S..KS AS), 7S and 6S
/// still out; hearts alike; diamonds and clubs home; no redeal left.
///
/// Depth 1: 6S goes home (the ace wraps to the 6) or onto 7S; 7S cannot move
/// (6S is next). Hearts alike: 4 moves. Depth 2: after 6S home, 7S home;
/// after 6S onto 7S, 6S home from there; each with the other suit's 2: 4 × 3
/// = 12.
#[test]
fn hand_checked_krug() {
    let mut p = position(
        "krug",
        &[
            "redeals-used: 3",
            "f1: 8S 9S 10S JS QS KS AS",
            "f2: 8H 9H 10H JH QH KH AH",
            "f3: 6D 7D 8D 9D 10D JD QD KD AD",
            "f4: 10C JC QC KC AC 6C 7C 8C 9C",
            "t1: 7S",
            "t2: 6S",
            "t3: 7H",
            "t4: 6H",
        ],
    );
    assert_eq!((perft(&mut p, 1), perft(&mut p, 2)), (4, 12));
}

fn suit_up(s: &str, to: usize) -> String {
    [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ][..to]
        .iter()
        .map(|r| format!("{r}{s}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn suit_down(s: &str, to: usize) -> String {
    [
        "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A",
    ][..to]
        .iter()
        .map(|r| format!("{r}{s}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Two decks, foundations `f1..f4` and `f5..f8`: spades and hearts have one
/// foundation at the jack and one complete; KS QS KH QH on the table.
fn two_suits_two_decks(id: &str, second_down: bool, header: &str) -> Position {
    let second = |s: &str| {
        if second_down {
            suit_down(s, 13)
        } else {
            suit_up(s, 13)
        }
    };
    position(
        id,
        &[
            header,
            &format!("f1: {}", suit_up("S", 11)),
            &format!("f2: {}", suit_up("H", 11)),
            &format!("f3: {}", suit_up("D", 13)),
            &format!("f4: {}", suit_up("C", 13)),
            &format!("f5: {}", second("S")),
            &format!("f6: {}", second("H")),
            &format!("f7: {}", second("D")),
            &format!("f8: {}", second("C")),
            "t1: KS",
            "t2: QS",
            "t3: KH",
            "t4: QH",
        ],
    )
}

/// The house games and the stock games at the same spot (stock and waste
/// empty, no redeal left): as the one-deck count, 4 then 12.
#[test]
fn hand_checked_two_deck_down_in_suit_games() {
    for (id, header) in [
        ("house-in-the-woods", "redeals-used: 2"),
        ("fan-layout", "redeals-used: 2"),
        ("swallows", "redeals-used: 2"),
        ("novomanernaya", "redeals-used: 2"),
        ("krakowski", "redeals-used: 0"),
    ] {
        let mut p = two_suits_two_decks(id, false, header);
        assert_eq!((perft(&mut p, 1), perft(&mut p, 2)), (4, 12), "{id}");
    }
}

/// House on the Hill, building up or down: ace-houses `f1, f2` at the jack,
/// king-houses complete.
///
/// Depth 1: KS onto QS (up), QS home or onto KS (down); hearts alike: 6.
/// Depth 2: after KS onto QS, the pile QS KS is stuck (KS is not next home):
/// the 3 heart moves. After QS home: KS home, and the 3 heart moves: 4. After
/// QS onto KS: QS home, and the 3 heart moves: 4. Hearts alike: 2 × (3 + 4 + 4)
/// = 22.
#[test]
fn hand_checked_house_on_the_hill() {
    let mut p = two_suits_two_decks("house-on-the-hill", true, "redeals-used: 2");
    assert_eq!((perft(&mut p, 1), perft(&mut p, 2)), (6, 22));
}

/// Blondes and Brunettes, stock and waste empty. Foundations: f1 the chain
/// AS 2H 3S .. JS (next a red queen), f2 AH 2S .. JH (next a black queen),
/// f3..f8 complete with tops KS, KH, KD, KC, KD, KC. Columns: KS, QH, KH, QS,
/// and five empty.
///
/// Depth 1, sources in order: t1 KS: nothing (a lone card is not moved to an
/// empty column). t2 QH: f1, or onto KS: 2. t3 KH: nothing. t4 QS: f2, or
/// onto KH: 2. Foundation tops coming back: f1 JS onto QH or to the first
/// empty column: 2; f2 JH onto QS or to t5: 2; f3 KS, f4 KH, f5 KD, f6 KC to
/// t5: 4; f7 and f8 are the same as f5 and f6: listed once. Total 12.
#[test]
fn hand_checked_blondes_and_brunettes() {
    let chain = |a: &str, b: &str, n: usize| -> String {
        let ranks = [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        ranks[..n]
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{r}{}", if i % 2 == 0 { a } else { b }))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut p = position(
        "blondes-and-brunettes",
        &[
            &format!("f1: {}", chain("S", "H", 11)),
            &format!("f2: {}", chain("H", "S", 11)),
            &format!("f3: {}", chain("S", "H", 13)),
            &format!("f4: {}", chain("H", "S", 13)),
            &format!("f5: {}", chain("D", "C", 13)),
            &format!("f6: {}", chain("C", "D", 13)),
            &format!("f7: {}", chain("D", "C", 13)),
            &format!("f8: {}", chain("C", "D", 13)),
            "t1: KS",
            "t2: QH",
            "t3: KH",
            "t4: QS",
        ],
    );
    assert_eq!(perft(&mut p, 1), 12);
}

/// Nivernaise, stock empty, no redeal left: spades' ace-house at the jack,
/// king-house complete; QS and KS alone on the line; every flank cell empty.
///
/// Depth 1: QS home or to c1; KS to c1 (the ace-house wants the queen): 3.
/// Depth 2: after QS home: KS home or to c1 (2). After QS to c1: KS to c2, QS
/// home from c1 (2). After KS to c1: QS home or to c2 (2). Total 6.
/// Depth 3: QS home, KS home: won, 0; QS home, KS to c1: KS home, 1; QS to c1,
/// KS to c2: QS home, 1; QS to c1, QS home: KS home or to c1, 2; KS to c1, QS
/// home: KS home, 1; KS to c1, QS to c2: QS home, 1. Total 6.
#[test]
fn hand_checked_nivernaise() {
    let mut p = position(
        "nivernaise",
        &[
            "redeals-used: 2",
            &format!("f1: {}", suit_up("S", 11)),
            &format!("f2: {}", suit_up("H", 13)),
            &format!("f3: {}", suit_up("D", 13)),
            &format!("f4: {}", suit_up("C", 13)),
            &format!("f5: {}", suit_down("S", 13)),
            &format!("f6: {}", suit_down("H", 13)),
            &format!("f7: {}", suit_down("D", 13)),
            &format!("f8: {}", suit_down("C", 13)),
            "t1: QS",
            "t2: KS",
        ],
    );
    assert_eq!(
        (perft(&mut p, 1), perft(&mut p, 2), perft(&mut p, 3)),
        (3, 6, 6)
    );
}
