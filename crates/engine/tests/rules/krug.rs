//! `krug`: 36 cards (6..A), four bases of different suits chosen from the pack,
//! foundations wrapping K→A→6, the table down in suit without wrap, 3 redeals
//! gathering the last fan first.
use crate::common::*;
use patience_engine::prng::SplitMix64;
use patience_engine::*;

const ID: &str = "krug";

#[test]
fn bases_are_the_first_cards_of_four_different_suits() {
    for deal in [1, 2, 1000, 31337] {
        let p = Position::deal(spec(ID), deal).unwrap();
        // The rule book's procedure, step by step.
        let mut pack: std::collections::VecDeque<Card> = {
            let mut v = spec(ID).pack();
            SplitMix64::for_shuffle(ID, deal, 0).shuffle(&mut v);
            v.into()
        };
        let mut bases: Vec<Card> = Vec::new();
        while bases.len() < 4 {
            let c = pack.pop_front().unwrap();
            if bases.iter().any(|b| b.suit() == c.suit()) {
                pack.push_back(c);
            } else {
                bases.push(c);
            }
        }
        for b in &bases {
            let f = p.layout().foundation(b.suit().index() as u8);
            assert_eq!(p.pile(f), &[*b], "deal {deal}");
        }
        let rest: Vec<Card> = pack.into();
        let dealt: Vec<Card> = p
            .layout()
            .tableau_ids()
            .flat_map(|t| p.pile(t).to_vec())
            .collect();
        assert_eq!(dealt, rest, "deal {deal}: the other 32 cards in fans of 3");
        assert_eq!(fan_sizes(&p), fans(10, 3, Some(2)));
    }
}

#[test]
fn foundations_wrap_from_king_to_ace_to_six() {
    let mut p = build(
        ID,
        &[
            ("f1", "QS"),
            ("t1", "9C AS"),
            ("t2", "7D KS"),
            ("t3", "8D 6S"),
        ],
    );
    refused(&p, "t1>f1");
    play(&mut p, "t2>f1");
    play(&mut p, "t1>f1");
    play(&mut p, "t3>f1");
    assert_eq!(pile(&p, "f1"), "QS KS AS 6S");
    // The foundation is full with all nine of its suit.
    let mut q = build(ID, &[("f1", "8S 9S 10S JS QS KS AS 6S"), ("t1", "7S")]);
    play(&mut q, "t1>f1");
    assert_eq!(pile(&q, "f1").split(' ').count(), 9);
}

#[test]
fn the_table_builds_down_in_suit_without_wrap() {
    let p = build(
        ID,
        &[
            ("t1", "7C KH"),
            ("t2", "9C AH"),
            ("t3", "10C 6H"),
            ("t4", "JC 7H"),
        ],
    );
    assert!(has(&p, "t1>t2"), "king onto ace: the ace is highest");
    assert!(has(&p, "t3>t4"));
    assert!(
        !has(&p, "t2>t3") && !has(&p, "t3>t2"),
        "no wrap between ace and six"
    );
    emptied_fans_stay_empty_krug();
}

fn emptied_fans_stay_empty_krug() {
    let mut p = build(ID, &[("f1", "6S"), ("t1", "7S"), ("t2", "KH QS")]);
    play(&mut p, "t1>f1");
    assert!(!has(&p, "t2>t1"));
}

#[test]
fn three_redeals_gather_the_last_fan_first() {
    let mut p = Position::deal(spec(ID), 6).unwrap();
    let ids: Vec<PileId> = p.layout().tableau_ids().collect();
    let gathered: Vec<Card> = ids.iter().rev().flat_map(|&t| p.pile(t).to_vec()).collect();
    play(&mut p, "redeal");
    let dealt: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    assert_eq!(dealt, gathered);
    assert_eq!(fan_sizes(&p), fans(10, 3, Some(2)));
    redeals(ID, 3, 3);
}
