//! `house-on-the-hill`: per suit an ace-house up and a king-house down; the
//! table builds up or down in suit.
use crate::common::*;

const ID: &str = "house-on-the-hill";

#[test]
fn deals_as_house_in_the_woods() {
    opening(ID, &fans(34, 3, Some(2)), 0, 0);
    foundations_keep_their_cards(ID);
    redeals(ID, 2, 3);
}

#[test]
fn ace_houses_go_up_and_king_houses_go_down() {
    let mut p = build(
        ID,
        &[
            ("f1", ""),
            ("f5", ""),
            ("t1", "2S AS"),
            ("t2", "QS KS"),
            ("t3", "9D 2S"),
            ("t4", "9C QS"),
        ],
    );
    assert!(has(&p, "t1>f1") && has(&p, "t2>f5"));
    // A king never opens an ace-house, an ace never a king-house.
    refused(&p, "t1>f5");
    refused(&p, "t2>f1");
    play(&mut p, "t1>f1");
    play(&mut p, "t2>f5");
    play(&mut p, "t3>f1");
    play(&mut p, "t4>f5");
    assert_eq!(pile(&p, "f1"), "AS 2S");
    assert_eq!(pile(&p, "f5"), "KS QS");
}

#[test]
fn the_table_builds_up_or_down_in_suit() {
    let mut p = build(
        ID,
        &[
            ("t1", "9C 7H"),
            ("t2", "KS 8H"),
            ("t3", "QD 6H"),
            ("t4", "JC 7S"),
        ],
    );
    assert!(has(&p, "t1>t2"), "down");
    assert!(has(&p, "t1>t3"), "up");
    assert!(!has(&p, "t1>t4"), "suit");
    play(&mut p, "t1>t3");
    assert_eq!(pile(&p, "t3"), "QD 6H 7H");
    // No wrap between king and ace.
    let p = build(ID, &[("t1", "9C KH"), ("t2", "QD AH")]);
    assert!(!has(&p, "t1>t2") && !has(&p, "t2>t1"));
}
