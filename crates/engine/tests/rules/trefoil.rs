//! `trefoil`: the aces go up before the deal; 48 cards in 16 fans of 3.
use crate::common::*;
use patience_engine::*;

const ID: &str = "trefoil";

#[test]
fn aces_on_the_foundations_and_sixteen_fans_of_three() {
    let p = opening(ID, &fans(16, 3, None), 4, 0);
    for (i, s) in ["AS", "AH", "AD", "AC"].iter().enumerate() {
        assert_eq!(pile(&p, &format!("f{}", i + 1)), *s);
    }
    assert!(p
        .piles()
        .iter()
        .take(16)
        .flatten()
        .all(|c| c.rank() != Rank::ACE));
}

#[test]
fn plays_as_la_belle_lucie() {
    builds_down_in_suit_one_card(ID);
    foundations_keep_their_cards(ID);
    emptied_fans_stay_empty(ID);
    let p = redeals(ID, 2, 3);
    assert_eq!(fan_sizes(&p).iter().sum::<usize>(), 48);
}
