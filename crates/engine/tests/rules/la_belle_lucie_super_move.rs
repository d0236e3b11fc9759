//! `la-belle-lucie-super-move`: the draw, once per game, at any moment.
use crate::common::*;
use patience_engine::*;

const ID: &str = "la-belle-lucie-super-move";

#[test]
fn the_draw_is_open_from_the_start_and_used_once() {
    let mut p = build(ID, &[("f1", ""), ("t1", "AS KH"), ("t2", "2S QC")]);
    assert_eq!(p.redeals_left(), 2);
    assert!(has(&p, "t1@0>f1"));
    play(&mut p, "t1@0>f1");
    assert!(p.draw_used());
    assert_eq!(refused(&p, "t2@0>f1"), MoveError::NoDraw);
    // Still open after a redeal if unused.
    let mut q = Position::deal(spec(ID), 4).unwrap();
    play(&mut q, "redeal");
    assert!(q
        .legal_moves()
        .iter()
        .any(|m| matches!(m, Move::Draw { .. })));
}

#[test]
fn otherwise_la_belle_lucie() {
    opening(ID, &fans(17, 3, Some(1)), 0, 0);
    builds_down_in_suit_one_card(ID);
    redeals(ID, 2, 3);
}
