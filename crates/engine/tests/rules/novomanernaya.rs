//! `novomanernaya`: two decks, 18 fans of 3 and a stock of 50 that refills an
//! emptied fan at once; 2 redeals gathering the fans in order, then the stock.
use crate::common::*;
use patience_engine::*;

const ID: &str = "novomanernaya";

#[test]
fn eighteen_fans_of_three_and_a_stock_of_fifty() {
    let p = opening(ID, &fans(18, 3, None), 0, 50);
    // The stock only refills: it is never dealt by a click.
    assert!(!has(&p, "deal"));
    assert_eq!(refused(&p, "deal"), MoveError::NoDeal);
}

#[test]
fn plays_down_in_suit_to_ace_foundations() {
    builds_down_in_suit_one_card(ID);
    foundations_keep_their_cards(ID);
    let mut p = build_with(
        ID,
        "",
        &[
            ("f1", ""),
            ("f5", ""),
            ("t1", "KD AS"),
            ("t2", "QC AS"),
            ("s", "5H 9D"),
        ],
        Some("spread"),
    );
    play(&mut p, "t1>f1");
    play(&mut p, "t2>f5");
}

#[test]
fn an_emptied_fan_at_once_gets_the_next_stock_card() {
    let mut p = build_with(
        ID,
        "",
        &[("f1", ""), ("t1", "AS"), ("s", "5H 9D")],
        Some("spread"),
    );
    play(&mut p, "t1>f1");
    assert_eq!(pile(&p, "t1"), "9D");
    assert_eq!(pile(&p, "s"), "5H");
    let mut q = build_with(
        ID,
        "",
        &[
            ("f1", ""),
            ("f5", ""),
            ("t1", "AS"),
            ("t2", "AS"),
            ("s", ""),
        ],
        Some("spread"),
    );
    play(&mut q, "t1>f1");
    assert_eq!(pile(&q, "t1"), "", "an empty stock refills nothing");
    assert!(!has(&q, "t2>t1"));
}

#[test]
fn two_redeals_gather_the_fans_in_order_and_the_stock_below_them() {
    let mut p = Position::deal(spec(ID), 2).unwrap();
    let mut gathered: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    let s = p.layout().stock.unwrap();
    gathered.extend(p.pile(s).iter().rev());
    play(&mut p, "redeal");
    let mut dealt: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    dealt.extend(p.pile(s).iter().rev());
    assert_eq!(dealt, gathered);
    assert_eq!(fan_sizes(&p), fans(18, 3, None));
    redeals(ID, 2, 3);
}
