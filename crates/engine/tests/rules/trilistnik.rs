//! `trilistnik`: the whole deck dealt, then the aces taken out from wherever
//! they lie; 2 redeals gathering the fans in order.
use crate::common::*;
use patience_engine::prng::SplitMix64;
use patience_engine::*;

const ID: &str = "trilistnik";

#[test]
fn the_aces_are_taken_out_only_after_the_deal() {
    for deal in [1, 2, 3, 77] {
        let p = Position::deal(spec(ID), deal).unwrap();
        // The deal as if the aces stayed: 17 fans of 3 and one of 1 ...
        let mut pack = spec(ID).pack();
        SplitMix64::for_shuffle(ID, deal, 0).shuffle(&mut pack);
        for (i, chunk) in pack.chunks(3).enumerate() {
            // ... minus the aces, every fan keeping its other cards in order.
            let kept: Vec<Card> = chunk
                .iter()
                .copied()
                .filter(|c| c.rank() != Rank::ACE)
                .collect();
            assert_eq!(
                p.pile(p.layout().tableau(i as u8)),
                &kept[..],
                "deal {deal} fan {}",
                i + 1
            );
        }
        for (i, s) in ["AS", "AH", "AD", "AC"].iter().enumerate() {
            assert_eq!(pile(&p, &format!("f{}", i + 1)), *s);
        }
    }
}

#[test]
fn plays_down_in_suit_with_two_redeals_in_order() {
    builds_down_in_suit_one_card(ID);
    foundations_keep_their_cards(ID);
    emptied_fans_stay_empty(ID);
    redeals(ID, 2, 3);
    redeal_gathers_in_order(ID, 3);
}
