//! `krakowski`: 12 fans of 3, a stock of 68 turned once onto a waste, emptied
//! fans refilled from the stock, no redeal.
use crate::common::*;
use patience_engine::*;

const ID: &str = "krakowski";

#[test]
fn twelve_fans_of_three_and_a_stock_of_sixty_eight() {
    let p = opening(ID, &fans(12, 3, None), 0, 68);
    assert_eq!(p.redeals_left(), 0);
    assert!(has(&p, "deal") && !has(&p, "redeal"));
    builds_down_in_suit_one_card(ID);
    foundations_keep_their_cards(ID);
}

#[test]
fn the_stock_turns_one_card_onto_the_waste_once() {
    let mut p = build_with(
        ID,
        "",
        &[("f1", ""), ("f2", "AH"), ("t1", "KC 3H"), ("s", "2H AS")],
        Some("spread"),
    );
    play(&mut p, "deal");
    assert_eq!((pile(&p, "w"), pile(&p, "s")), ("AS".into(), "2H".into()));
    play(&mut p, "w>f1");
    play(&mut p, "deal");
    assert!(has(&p, "w>f2"));
    play(&mut p, "w>f2");
    // Empty stock: no deal, no pass again.
    assert!(!has(&p, "deal"));
    assert_eq!(refused(&p, "deal"), MoveError::NoDeal);
}

#[test]
fn the_waste_top_goes_onto_a_fan() {
    let mut p = build_with(
        ID,
        "",
        &[("t1", "KC 8H"), ("w", "2C 7H"), ("s", "")],
        Some("spread"),
    );
    assert!(has(&p, "w>t1"));
    play(&mut p, "w>t1");
    assert_eq!(pile(&p, "w"), "2C");
    refused(&p, "w>t1");
}

#[test]
fn an_emptied_fan_is_refilled_from_the_stock_only() {
    let mut p = build_with(
        ID,
        "",
        &[("f1", ""), ("t1", "AS"), ("w", "QD"), ("s", "5H 9D")],
        Some("spread"),
    );
    play(&mut p, "t1>f1");
    assert_eq!(
        (pile(&p, "t1"), pile(&p, "s"), pile(&p, "w")),
        ("9D".into(), "5H".into(), "QD".into())
    );
}
