//! `blondes-and-brunettes`: a reserve of 10, 9 columns built down in
//! alternating colours, one pass through the stock, foundations from any ace
//! up in alternating colours, empty columns filled from the waste, then the
//! stock, then by anything.
use crate::common::*;
use patience_engine::*;

const ID: &str = "blondes-and-brunettes";

fn bb(listed: &[(&str, &str)]) -> Position {
    build_with(ID, "", listed, Some("spread"))
}

#[test]
fn reserve_of_ten_nine_columns_one_waste_card_and_a_stock_of_84() {
    let p = opening(ID, &fans(9, 1, None), 0, 84);
    assert_eq!(pile(&p, "r").split(' ').count(), 10);
    assert_eq!(pile(&p, "w").split(' ').count(), 1);
    assert_eq!(p.redeals_left(), 0);
}

#[test]
fn foundations_start_with_any_ace_and_alternate_colours() {
    let mut p = bb(&[
        ("f1", ""),
        ("f2", "AH 2S"),
        ("r", "3D 2C AS"),
        ("t1", "3H"),
        ("w", ""),
        ("s", ""),
    ]);
    assert!(has(&p, "r>f1"));
    play(&mut p, "r>f1");
    assert!(
        !moves(&p).iter().any(|m| m == "r>f1"),
        "2C on AS: same colour"
    );
    refused(&p, "r>f1");
    play(&mut p, "t1>f2");
    assert_eq!(pile(&p, "f2"), "AH 2S 3H");
}

#[test]
fn columns_build_down_in_alternating_colours_without_wrap() {
    let p = bb(&[
        ("t1", "8H"),
        ("t2", "7S"),
        ("t3", "7D"),
        ("t4", "KH"),
        ("t5", "AS"),
        ("w", ""),
        ("s", ""),
    ]);
    assert!(has(&p, "t2>t1"));
    assert!(!has(&p, "t3>t1"), "same colour");
    assert!(!has(&p, "t4>t5"), "a king never goes onto an ace");
    // One card at a time.
    let p = bb(&[("t1", "9C 8H 7S"), ("t2", "9D"), ("w", ""), ("s", "")]);
    assert!(!has(&p, "t1>t2"));
}

#[test]
fn only_the_reserve_top_plays_and_nothing_goes_onto_it() {
    let p = bb(&[
        ("r", "6C 5D"),
        ("t1", "6S"),
        ("t2", "4S"),
        ("w", "KD"),
        ("s", "QD"),
    ]);
    assert!(has(&p, "r>t1"));
    assert!(
        !moves(&p)
            .iter()
            .any(|m| m.starts_with("r>") && m != "r>t1" && m.contains('t')),
        "{:?}",
        moves(&p)
    );
    assert!(!moves(&p).iter().any(|m| m.ends_with(">r")));
    refused(&p, "t2>r");
}

#[test]
fn the_stock_turns_one_card_onto_the_waste_and_passes_once() {
    let mut p = bb(&[("w", "KD"), ("s", "2C 5H")]);
    play(&mut p, "deal");
    assert_eq!(
        (pile(&p, "w"), pile(&p, "s")),
        ("KD 5H".into(), "2C".into())
    );
    play(&mut p, "deal");
    assert!(!has(&p, "deal") && !has(&p, "redeal"));
}

#[test]
fn an_empty_column_takes_the_waste_top_at_once() {
    let mut p = bb(&[("f1", "AH"), ("t1", "2S"), ("w", "9C 4D"), ("s", "JH")]);
    play(&mut p, "t1>f1");
    assert_eq!((pile(&p, "t1"), pile(&p, "w")), ("4D".into(), "9C".into()));
}

#[test]
fn then_the_stock_top_when_the_waste_is_empty() {
    let mut p = bb(&[("f1", "AH"), ("t1", "2S"), ("w", ""), ("s", "JH 6C")]);
    play(&mut p, "t1>f1");
    assert_eq!((pile(&p, "t1"), pile(&p, "s")), ("6C".into(), "JH".into()));
}

#[test]
fn any_playable_card_fills_an_empty_column_once_stock_and_waste_are_empty() {
    let mut p = bb(&[
        ("f1", "AH"),
        ("t1", "2S"),
        ("t2", "QH JC"),
        ("r", "9C 5D"),
        ("w", ""),
        ("s", ""),
    ]);
    play(&mut p, "t1>f1");
    assert_eq!(pile(&p, "t1"), "");
    assert!(has(&p, "r>t1") && has(&p, "t2>t1"));
    // The foundation's top may come back too.
    assert!(has(&p, "f1>t1"));
    play(&mut p, "r>t1");
    assert_eq!(pile(&p, "t1"), "5D");
}

#[test]
fn a_foundation_top_comes_back_to_a_column_by_the_column_rule() {
    let mut p = bb(&[
        ("f1", "AH 2S"),
        ("t1", "3H"),
        ("t2", "3C"),
        ("w", ""),
        ("s", ""),
    ]);
    assert!(has(&p, "f1>t1") && !has(&p, "f1>t2"));
    play(&mut p, "f1>t1");
    assert_eq!(
        (pile(&p, "f1"), pile(&p, "t1")),
        ("AH".into(), "3H 2S".into())
    );
}
