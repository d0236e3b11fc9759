//! `la-belle-lucie-sequences`: a run in suit, descending, moves as a unit onto
//! a card one rank above its base.
use crate::common::*;

const ID: &str = "la-belle-lucie-sequences";

#[test]
fn a_run_moves_as_a_unit() {
    let mut p = build(ID, &[("t1", "9C 7H 6H"), ("t2", "QD 8H")]);
    assert!(has(&p, "t1>t2"));
    play(&mut p, "t1>t2");
    assert_eq!(pile(&p, "t2"), "QD 8H 7H 6H");
    assert_eq!(pile(&p, "t1"), "9C");
}

#[test]
fn part_of_a_run_moves_when_its_base_fits() {
    let mut p = build(ID, &[("t1", "10C 8H 7H"), ("t2", "KD 9H")]);
    play(&mut p, "t1>t2");
    assert_eq!(pile(&p, "t2"), "KD 9H 8H 7H");
    assert_eq!(pile(&p, "t1"), "10C");
}

#[test]
fn a_broken_run_moves_only_its_top_card() {
    let mut p = build(ID, &[("t1", "9H 7C 6H"), ("t2", "QD 7H")]);
    play(&mut p, "t1>t2");
    assert_eq!(pile(&p, "t1"), "9H 7C");
    // A run in mixed suits is no run: 7C under 6H does not follow 8? nothing.
    let p = build(ID, &[("t1", "9C 7S 6H"), ("t2", "QD 8S")]);
    assert!(!has(&p, "t1>t2"));
}

#[test]
fn otherwise_la_belle_lucie() {
    opening(ID, &fans(17, 3, Some(1)), 0, 0);
    foundations_up_in_suit_from_ace(ID);
    emptied_fans_stay_empty(ID);
    redeals(ID, 2, 3);
}
