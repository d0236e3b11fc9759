//! `bredulia`: aces out before the deal, 16 fans of 3, 2 redeals in order.
use crate::common::*;
use patience_engine::*;

const ID: &str = "bredulia";

#[test]
fn aces_first_then_sixteen_fans_of_three() {
    let p = opening(ID, &fans(16, 3, None), 4, 0);
    assert!(p
        .piles()
        .iter()
        .take(16)
        .flatten()
        .all(|c| c.rank() != Rank::ACE));
}

#[test]
fn plays_as_trilistnik() {
    builds_down_in_suit_one_card(ID);
    emptied_fans_stay_empty(ID);
    redeals(ID, 2, 3);
    redeal_gathers_in_order(ID, 3);
}
