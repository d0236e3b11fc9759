//! `la-belle-lucie`: 18 fans (17 of 3, 1 of 1), build down in suit one card at a
//! time, foundations ace to king, emptied fans stay empty, 2 shuffled redeals.
use crate::common::*;
use patience_engine::*;

const ID: &str = "la-belle-lucie";

#[test]
fn deals_seventeen_fans_of_three_and_one_of_one() {
    opening(ID, &fans(17, 3, Some(1)), 0, 0);
}

#[test]
fn builds_down_in_suit_one_card_at_a_time() {
    builds_down_in_suit_one_card(ID);
}

#[test]
fn foundations_go_up_in_suit_from_the_ace() {
    foundations_up_in_suit_from_ace(ID);
    foundations_keep_their_cards(ID);
}

#[test]
fn an_emptied_fan_is_never_refilled() {
    emptied_fans_stay_empty(ID);
}

#[test]
fn a_king_leaves_only_for_a_foundation() {
    king_goes_only_to_a_foundation(ID);
}

#[test]
fn two_redeals_in_fans_of_three_keep_the_foundations() {
    let p = redeals(ID, 2, 3);
    assert_eq!(fan_sizes(&p), fans(17, 3, Some(1)));
}

#[test]
fn a_redeal_shuffles_the_cards_left_whatever_their_order() {
    redeal_shuffles_the_set_left(ID);
}

#[test]
fn a_redeal_is_a_move_at_any_moment_and_undoes_exactly() {
    let mut p = Position::deal(spec(ID), 3).unwrap();
    let start = p.clone();
    assert_eq!(moves(&p).last().map(String::as_str), Some("redeal"));
    let u = p.apply(Move::Redeal).unwrap();
    assert_eq!(p.redeals_used(), 1);
    p.undo(&u);
    assert_eq!(p, start);
    assert_eq!(p.hash(), start.hash());
}

#[test]
fn won_when_every_card_is_home_and_stuck_when_no_move_is_left() {
    let mut p = build(
        ID,
        &[("f1", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"), ("t1", "KS")],
    );
    assert!(!p.is_won());
    play(&mut p, "t1>f1");
    assert!(p.is_won() && !p.is_stuck());
    // Hearts blocked: 2H under AH, no redeal left.
    let p = build_with(
        ID,
        "redeals-used: 2",
        &[
            ("f2", ""),
            ("t1", "AH 2H"),
            ("t2", "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
        ],
        None,
    );
    assert!(p.legal_moves().is_empty());
    assert!(p.is_stuck());
}
