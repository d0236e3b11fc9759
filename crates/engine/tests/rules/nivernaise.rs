//! `nivernaise`: a line of 6 piles of 3, two flanks of 4 cells, per suit an
//! ace-house and a king-house, 3-card refills, the 18-card deal, 2 redeals once
//! the stock is empty.
use crate::common::*;
use patience_engine::*;

const ID: &str = "nivernaise";

fn niv(listed: &[(&str, &str)]) -> Position {
    build_with(ID, "", listed, Some("spread"))
}

const NEARLY_UP: &str = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS";
const NEARLY_DOWN: &str = "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S";

#[test]
fn a_line_of_six_piles_of_three_eight_flank_cells_and_a_stock_of_78() {
    let p = opening(ID, &fans(6, 3, None), 0, 78);
    for c in 1..=8 {
        assert_eq!(pile(&p, &format!("c{c}")).split(' ').count(), 1);
    }
}

#[test]
fn the_first_ace_opens_the_ace_house_and_the_second_goes_last_onto_the_king_house() {
    // Ace-house empty: the ace must open it, even with the king-house at 2.
    let p = niv(&[("f1", ""), ("f5", NEARLY_DOWN), ("t1", "AS"), ("s", "")]);
    assert!(has(&p, "t1>f1") && !has(&p, "t1>f5"));
    refused(&p, "t1>f5");
    // With the ace-house open, the second ace completes the king-house.
    let mut p = niv(&[("f1", "AS"), ("f5", NEARLY_DOWN), ("t1", "AS"), ("s", "")]);
    assert!(has(&p, "t1>f5"));
    play(&mut p, "t1>f5");
    assert_eq!(pile(&p, "f5").split(' ').count(), 13);
}

#[test]
fn the_first_king_opens_the_king_house_and_the_second_goes_onto_the_ace_house_after_the_queen() {
    let p = niv(&[("f1", NEARLY_UP), ("f5", ""), ("t1", "KS"), ("s", "")]);
    assert!(has(&p, "t1>f5") && !has(&p, "t1>f1"));
    refused(&p, "t1>f1");
    let mut p = niv(&[("f1", NEARLY_UP), ("f5", "KS"), ("t1", "KS"), ("s", "")]);
    play(&mut p, "t1>f1");
    assert_eq!(pile(&p, "f1"), format!("{NEARLY_UP} KS"));
}

#[test]
fn line_tops_go_home_or_to_an_empty_flank_cell_and_nothing_is_built_on_the_line() {
    let mut p = niv(&[
        ("t1", "9C 7H"),
        ("t2", "KD 8H"),
        ("t3", "QC 6H"),
        ("c1", "5D"),
        ("c2", ""),
        ("s", ""),
    ]);
    assert!(has(&p, "t1>c2"));
    assert!(
        !moves(&p)
            .iter()
            .any(|m| m.starts_with('t') && m.contains(">t")),
        "{:?}",
        moves(&p)
    );
    refused(&p, "t1>t2");
    refused(&p, "t1>c1");
    play(&mut p, "t1>c2");
    assert_eq!(pile(&p, "c2"), "7H");
    // A flank card goes to a foundation only.
    refused(&p, "c2>t2");
    refused(&p, "c2>c3");
}

#[test]
fn a_flank_card_goes_home() {
    let mut p = niv(&[("f2", "AH"), ("c3", "2H"), ("s", "")]);
    assert!(has(&p, "c3>f2"));
    play(&mut p, "c3>f2");
    assert_eq!(pile(&p, "c3"), "");
}

#[test]
fn an_emptied_line_pile_at_once_takes_three_stock_cards_or_what_is_left() {
    let mut p = niv(&[("f1", ""), ("t1", "AS"), ("s", "9D 8C 7D 6C")]);
    play(&mut p, "t1>f1");
    assert_eq!(
        (pile(&p, "t1"), pile(&p, "s")),
        ("6C 7D 8C".into(), "9D".into())
    );
    let mut p = niv(&[("f1", ""), ("t1", "AS"), ("s", "9D 8C")]);
    play(&mut p, "t1>f1");
    assert_eq!((pile(&p, "t1"), pile(&p, "s")), ("8C 9D".into(), "".into()));
}

#[test]
fn a_deal_puts_three_cards_on_each_pile_round_by_round() {
    let stock: Vec<String> = (0..20)
        .map(|i| ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"][i % 10].to_string())
        .collect();
    let mut p = niv(&[("f4", ""), ("f8", ""), ("s", &stock.join(" "))]);
    let before: Vec<usize> = fan_sizes(&p);
    let s = p.layout().stock.unwrap();
    let order: Vec<Card> = p.pile(s).iter().rev().copied().collect();
    play(&mut p, "deal");
    for (t, n) in before.iter().enumerate() {
        let pile = p.pile(p.layout().tableau(t as u8));
        assert_eq!(pile.len(), n + 3);
        let got: Vec<Card> = pile[*n..].to_vec();
        assert_eq!(
            got,
            vec![order[t], order[t + 6], order[t + 12]],
            "round by round"
        );
    }
    assert_eq!(pile(&p, "s").split(' ').count(), 2);
    // Fewer than 18 left: as many as there are, round by round.
    play(&mut p, "deal");
    let after: Vec<usize> = fan_sizes(&p);
    assert_eq!(
        after
            .iter()
            .zip(&before)
            .map(|(a, b)| a - b - 3)
            .collect::<Vec<_>>(),
        [1, 1, 0, 0, 0, 0]
    );
    assert!(!has(&p, "deal"));
}

#[test]
fn two_redeals_only_once_the_stock_is_empty_and_the_flanks_stay() {
    let mut p = Position::deal(spec(ID), 8).unwrap();
    assert!(!has(&p, "redeal"));
    assert_eq!(refused(&p, "redeal"), MoveError::NoRedeal);
    while has(&p, "deal") {
        play(&mut p, "deal");
    }
    let cells: Vec<Vec<Card>> = p.layout().cell_ids().map(|c| p.pile(c).to_vec()).collect();
    let line: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    play(&mut p, "redeal");
    assert_eq!(fan_sizes(&p), fans(6, 3, None));
    let mut dealt: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    let s = p.layout().stock.unwrap();
    dealt.extend(p.pile(s).iter().rev());
    assert_eq!(dealt, line, "gathered left to right, not shuffled");
    let now: Vec<Vec<Card>> = p.layout().cell_ids().map(|c| p.pile(c).to_vec()).collect();
    assert_eq!(now, cells);
    while has(&p, "deal") {
        play(&mut p, "deal");
    }
    play(&mut p, "redeal");
    while has(&p, "deal") {
        play(&mut p, "deal");
    }
    assert!(!has(&p, "redeal"));
}

#[test]
fn foundation_cards_never_move_again() {
    let p = niv(&[("f1", "AS 2S"), ("c1", ""), ("s", "")]);
    assert!(moves(&p).iter().all(|m| !m.starts_with('f')));
    refused(&p, "f1>c1");
}
