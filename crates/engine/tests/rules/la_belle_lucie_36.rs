//! `la-belle-lucie-36`: 36 cards (A, 6..K), 12 fans of 3, the ace below the six.
use crate::common::*;
use patience_engine::*;

const ID: &str = "la-belle-lucie-36";

#[test]
fn thirty_six_cards_in_twelve_fans_of_three() {
    let p = opening(ID, &fans(12, 3, None), 0, 0);
    assert!(p
        .piles()
        .iter()
        .flatten()
        .all(|c| c.rank() == Rank::ACE || c.rank().number() >= 6));
}

#[test]
fn foundations_go_ace_then_six_to_king() {
    foundations_up_in_suit_from_ace(ID);
    let mut p = build(ID, &[("f1", "AS 6S 7S 8S 9S 10S JS QS"), ("t1", "KS")]);
    play(&mut p, "t1>f1");
    assert!(p.is_won());
}

#[test]
fn an_ace_goes_onto_the_six_of_its_suit_and_a_king_only_home() {
    let mut p = build(ID, &[("t1", "KD AH"), ("t2", "9C 6H"), ("t3", "7C 6S")]);
    assert!(has(&p, "t1>t2"));
    assert!(!has(&p, "t1>t3"));
    play(&mut p, "t1>t2");
    assert_eq!(pile(&p, "t2"), "9C 6H AH");
    king_goes_only_to_a_foundation(ID);
}

#[test]
fn a_two_is_no_card_of_this_game() {
    let err = Position::from_text("game: la-belle-lucie-36\nt1: 2S", None).unwrap_err();
    assert!(err.to_string().contains("2S"), "{err}");
}

#[test]
fn otherwise_la_belle_lucie() {
    builds_down_in_suit_one_card(ID);
    emptied_fans_stay_empty(ID);
    redeals(ID, 2, 3);
}
