//! Golden deals: deals 1, 2 and 1000 of every game, pinned as position text in
//! `tests/golden/<game>.txt`. A deal number means the same deal forever, so
//! these files never change; a failure here means the generator, the shuffle
//! or the deal order changed. (To write the files for a new game only, run with
//! `UPDATE_GOLDEN=1`, and review the diff: existing games must not change.)

use std::path::PathBuf;

use patience_engine::*;

const DEALS: [u64; 3] = [1, 2, 1000];

fn expected(id: &str) -> String {
    DEALS
        .iter()
        .map(|&d| Position::deal(game(id).unwrap(), d).unwrap().to_text())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn deals_1_2_and_1000_of_every_game_never_change() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for g in games() {
        let path = dir.join(format!("{}.txt", g.id));
        let now = expected(g.id);
        if std::env::var_os("UPDATE_GOLDEN").is_some() && !path.exists() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &now).unwrap();
        }
        let pinned =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(now, pinned, "{}: the deals changed", g.id);
    }
}

#[test]
fn golden_texts_read_back_to_the_same_positions() {
    for g in games() {
        for d in DEALS {
            let p = Position::deal(g, d).unwrap();
            let back = Position::from_text(&p.to_text(), None).unwrap();
            assert_eq!(back, p);
            assert_eq!(back.hash(), p.hash());
            assert_eq!(back.deal_number(), d);
        }
    }
}

#[test]
fn the_shuffle_is_pinned_by_its_first_numbers() {
    // The generator behind every deal, independent of the deal code.
    let mut g = prng::SplitMix64::for_shuffle("la-belle-lucie", 1, 0);
    let first: Vec<u64> = (0..3).map(|_| g.next_u64()).collect();
    assert_eq!(
        first,
        [
            12002934099662159665,
            13170579288521448668,
            10355597705265870254
        ]
    );
    let seed = prng::fnv1a64(b"la-belle-lucie") ^ 0x9E37_79B9_7F4A_7C15 ^ 0xC2B2_AE3D_27D4_EB4F;
    let mut by_hand = prng::SplitMix64::new(seed);
    assert_eq!(first[0], by_hand.next_u64(), "seed formula as documented");
}
