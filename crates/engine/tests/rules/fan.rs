//! `fan`: La Belle Lucie without redeals, where an emptied fan may take a king.
use crate::common::*;
use patience_engine::*;

const ID: &str = "fan";

#[test]
fn deals_as_la_belle_lucie_and_never_redeals() {
    let p = opening(ID, &fans(17, 3, Some(1)), 0, 0);
    assert_eq!(p.redeals_left(), 0);
    assert_eq!(refused(&p, "redeal"), MoveError::NoRedeal);
    builds_down_in_suit_one_card(ID);
    foundations_up_in_suit_from_ace(ID);
}

#[test]
fn an_emptied_fan_takes_a_king_and_nothing_else() {
    let mut p = build(
        ID,
        &[("f1", ""), ("t1", "AS"), ("t2", "2S KH"), ("t3", "3S QC")],
    );
    play(&mut p, "t1>f1");
    assert!(has(&p, "t2>t1"));
    assert!(!has(&p, "t3>t1"));
    refused(&p, "t3>t1");
    play(&mut p, "t2>t1");
    assert_eq!(pile(&p, "t1"), "KH");
    // Another empty fan is the same destination: listed once, still legal.
    play(&mut p, "t2>f1");
    assert!(!has(&p, "t3>t2") && !has(&p, "t3>t1"));
    assert_eq!(pile(&p, "t2"), "");
}

#[test]
fn a_lone_king_is_not_moved_to_another_empty_fan() {
    let p = build(ID, &[("f1", "AS"), ("t1", ""), ("t2", "KH"), ("t3", "2S")]);
    assert!(!has(&p, "t2>t1"));
}
