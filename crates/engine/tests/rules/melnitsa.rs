//! `melnitsa`: as `bredulia` in fans of 4, redealt in fans of 4.
use crate::common::*;
use patience_engine::*;

const ID: &str = "melnitsa";

#[test]
fn aces_first_then_twelve_fans_of_four() {
    let p = opening(ID, &fans(12, 4, None), 4, 0);
    assert!(p
        .piles()
        .iter()
        .take(12)
        .flatten()
        .all(|c| c.rank() != Rank::ACE));
}

#[test]
fn redeals_in_fans_of_four_in_order() {
    builds_down_in_suit_one_card(ID);
    emptied_fans_stay_empty(ID);
    redeals(ID, 2, 4);
    redeal_gathers_in_order(ID, 4);
}
