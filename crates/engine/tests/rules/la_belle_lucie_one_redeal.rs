//! `la-belle-lucie-one-redeal`: La Belle Lucie with a single redeal.
use crate::common::*;

const ID: &str = "la-belle-lucie-one-redeal";

#[test]
fn deals_as_la_belle_lucie() {
    opening(ID, &fans(17, 3, Some(1)), 0, 0);
    builds_down_in_suit_one_card(ID);
    foundations_up_in_suit_from_ace(ID);
    emptied_fans_stay_empty(ID);
}

#[test]
fn only_one_redeal() {
    redeals(ID, 1, 3);
    redeal_shuffles_the_set_left(ID);
}
