//! Random playouts of every game: quick invariants while the full suites grow.
use patience_engine::prng::SplitMix64;
use patience_engine::*;

#[test]
fn random_playouts_keep_every_card_and_undo_exactly() {
    for g in games() {
        for deal in 1..=5u64 {
            let mut pos = Position::deal(g, deal).unwrap();
            let start = pos.clone();
            let mut rng = SplitMix64::new(deal);
            let mut undos = Vec::new();
            for _ in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let before = pos.clone();
                let u = pos.apply(mv).unwrap();
                let total: usize = pos.piles().iter().map(|p| p.len()).sum();
                assert_eq!(total, g.card_count(), "{} {mv:?}", g.id);
                let mut check = pos.clone();
                check.undo(&u);
                assert_eq!(check, before, "{} undo {mv:?}", g.id);
                assert_eq!(check.hash(), before.hash(), "{} hash {mv:?}", g.id);
                undos.push(u);
                let reparsed = Position::from_text(&pos.to_text(), None).unwrap();
                assert_eq!(reparsed, pos, "{} text", g.id);
            }
            while let Some(u) = undos.pop() {
                pos.undo(&u);
            }
            assert_eq!(pos, start);
            assert_eq!(pos.hash(), start.hash());
        }
    }
}
