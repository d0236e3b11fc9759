//! `three-shuffles-and-a-draw`: once per game, in the third deal only, a card
//! that is not the top of its fan may be drawn and played.
use crate::common::*;
use patience_engine::*;

const ID: &str = "three-shuffles-and-a-draw";

#[test]
fn no_draw_before_the_second_redeal() {
    let mut p = Position::deal(spec(ID), 1).unwrap();
    for _ in 0..2 {
        assert!(!p
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::Draw { .. })));
        assert_eq!(refused(&p, "t1@0>f1"), MoveError::NoDraw);
        play(&mut p, "redeal");
    }
    assert!(p
        .legal_moves()
        .iter()
        .any(|m| matches!(m, Move::Draw { .. })));
}

#[test]
fn the_draw_plays_a_covered_card_to_a_foundation_or_a_fan_once() {
    let header = "redeals-used: 2\ndraw-used: no";
    let mut p = build_with(
        ID,
        header,
        &[
            ("f1", ""),
            ("t1", "AS KH"),
            ("t2", "7H 9C"),
            ("t3", "KD 8H"),
        ],
        Some("fans"),
    );
    let ms = moves(&p);
    assert!(ms.contains(&"t1@0>f1".to_string()), "{ms:?}");
    assert!(ms.contains(&"t2@0>t3".to_string()), "{ms:?}");
    // The top card is not drawn: it plays as usual.
    assert_eq!(refused(&p, "t1@1>f1"), MoveError::BadDrawIndex("t1".into()));
    play(&mut p, "t2@0>t3");
    assert_eq!(pile(&p, "t3"), "KD 8H 7H");
    assert_eq!(pile(&p, "t2"), "9C");
    assert!(p.draw_used());
    // Once per game.
    assert!(!p
        .legal_moves()
        .iter()
        .any(|m| matches!(m, Move::Draw { .. })));
    assert_eq!(refused(&p, "t1@0>f1"), MoveError::NoDraw);
}

#[test]
fn a_card_may_be_drawn_onto_its_own_fans_top() {
    let header = "redeals-used: 2\ndraw-used: no";
    let mut p = build_with(ID, header, &[("t1", "7H QC 8H")], Some("fans"));
    assert!(has(&p, "t1@0>t1"));
    play(&mut p, "t1@0>t1");
    assert_eq!(pile(&p, "t1"), "QC 8H 7H");
}

#[test]
fn otherwise_la_belle_lucie() {
    opening(ID, &fans(17, 3, Some(1)), 0, 0);
    builds_down_in_suit_one_card(ID);
    redeals(ID, 2, 3);
}
