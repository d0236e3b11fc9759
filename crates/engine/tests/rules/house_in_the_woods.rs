//! `house-in-the-woods` (and its table layouts `fan-layout`, `swallows`): two
//! decks in 35 fans, 8 foundations up in suit, 2 shuffled redeals.
use crate::common::*;

pub fn plays_as_house_in_the_woods(id: &str) {
    opening(id, &fans(34, 3, Some(2)), 0, 0);
    builds_down_in_suit_one_card(id);
    foundations_up_in_suit_from_ace(id);
    foundations_keep_their_cards(id);
    emptied_fans_stay_empty(id);
    king_goes_only_to_a_foundation(id);
    redeals(id, 2, 3);
    redeal_shuffles_the_set_left(id);
}

#[test]
fn house_in_the_woods() {
    plays_as_house_in_the_woods("house-in-the-woods");
}

#[test]
fn fan_layout_and_swallows_differ_only_in_table_layout() {
    for id in ["fan-layout", "swallows"] {
        plays_as_house_in_the_woods(id);
        let (a, b) = (spec(id), spec("house-in-the-woods"));
        assert_ne!(a.layout, b.layout);
        assert_eq!(
            (a.build, a.empty_pile, a.redeals, &a.foundations),
            (b.build, b.empty_pile, b.redeals, &b.foundations)
        );
    }
    assert_eq!(spec("fan-layout").name_ru, "Веер (две колоды)");
    assert_eq!(spec("fan-layout").name_en, "Fan-shaped House");
}

#[test]
fn two_foundations_a_suit_take_the_two_aces_in_turn() {
    let mut p = build(
        "house-in-the-woods",
        &[("f1", ""), ("f5", ""), ("t1", "AS"), ("t2", "KD AS")],
    );
    // Both empty spade foundations are one destination: only f1 is listed.
    assert!(has(&p, "t1>f1") && !has(&p, "t1>f5"));
    play(&mut p, "t1>f1");
    assert!(has(&p, "t2>f5"));
    play(&mut p, "t2>f5");
    assert_eq!((pile(&p, "f1"), pile(&p, "f5")), ("AS".into(), "AS".into()));
}
