//! Property tests over random legal playouts of every game, and over
//! arbitrary text for every parser.

use patience_engine::prng::SplitMix64;
use patience_engine::*;
use proptest::prelude::*;

fn holds_the_pack(pos: &Position) -> bool {
    let mut all: Vec<Card> = pos.piles().iter().flatten().copied().collect();
    all.sort();
    all == pos.spec().pack()
}

/// An arbitrary move of the game, legal or not.
fn any_move(pos: &Position, rng: &mut SplitMix64) -> Move {
    let piles = pos.layout().piles as u64 + 1; // one past the end too
    let pile = |rng: &mut SplitMix64| PileId(rng.below(piles) as u8);
    match rng.below(8) {
        0 => Move::Deal,
        1 => Move::Redeal,
        2 => Move::Draw {
            from: pile(rng),
            index: rng.below(5) as u8,
            to: pile(rng),
        },
        _ => Move::Step {
            from: pile(rng),
            to: pile(rng),
        },
    }
}

/// Plays `steps` random legal moves of deal `deal` of game `gi`, checking the
/// invariants after each one; returns the game for the record check.
fn playout(gi: usize, deal: u64, seed: u64, steps: usize) -> Game {
    let spec = &games()[gi];
    let mut game = Game::new(spec, deal).unwrap();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..steps {
        let pos = game.position().clone();
        assert!(holds_the_pack(&pos), "{}: each card exactly once", spec.id);
        // An illegal move changes nothing.
        let wild = any_move(&pos, &mut rng);
        let mut probe = pos.clone();
        match probe.apply(wild) {
            Err(_) => {
                assert_eq!(
                    probe, pos,
                    "{}: refused {wild:?} changed the position",
                    spec.id
                );
                assert_eq!(probe.hash(), pos.hash());
            }
            Ok(u) => {
                probe.undo(&u);
                assert_eq!(probe, pos);
            }
        }
        let moves = pos.legal_moves();
        let mut listed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Step { .. }))
            .collect();
        let mut brute = steps_by_brute_force(&pos);
        listed.sort_by_key(|m| format!("{m:?}"));
        brute.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(
            listed,
            brute,
            "{}: the list and the check disagree\n{}",
            spec.id,
            pos.to_text()
        );
        if moves.is_empty() {
            assert!(pos.is_won() || pos.is_stuck());
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        assert!(pos.check(mv).is_ok(), "{}: listed {mv:?} checks", spec.id);
        let mut after = pos.clone();
        let undo = after.apply(mv).unwrap();
        // The hash is exact: the same as one computed from scratch.
        let fresh = Position::from_text(&after.to_text(), None).unwrap();
        assert_eq!(fresh, after, "{}: text round trip after {mv:?}", spec.id);
        assert_eq!(
            fresh.hash(),
            after.hash(),
            "{}: incremental hash after {mv:?}",
            spec.id
        );
        // Undo restores the exact position and hash.
        let mut back = after.clone();
        back.undo(&undo);
        assert_eq!(back, pos, "{}: undo {mv:?}", spec.id);
        assert_eq!(back.hash(), pos.hash());
        game.play(mv).unwrap();
    }
    game
}

/// Every step `check` accepts, except to a destination interchangeable with
/// an earlier one (an empty tableau pile or cell after the first, a
/// foundation equal to an earlier one of the same rule) or from a foundation
/// equal to an earlier one: what the move list must hold, by brute force.
fn steps_by_brute_force(pos: &Position) -> Vec<Move> {
    let l = pos.layout();
    let ids: Vec<PileId> = l.ids().collect();
    let equal_earlier = |f: PileId| {
        let i = (f.0 - l.tableau) as usize;
        (0..i).any(|j| {
            let g = l.foundation(j as u8);
            pos.spec().foundations[j] == pos.spec().foundations[i]
                && pos.pile(g).len() == pos.pile(f).len()
                && pos.pile(g).last() == pos.pile(f).last()
        })
    };
    let mut out = Vec::new();
    for &from in &ids {
        if matches!(l.kind(from), Some(PileKind::Foundation(_))) && equal_earlier(from) {
            continue;
        }
        for &to in &ids {
            let mv = Move::Step { from, to };
            if pos.check(mv).is_err() {
                continue;
            }
            let redundant = match l.kind(to) {
                Some(PileKind::Foundation(_)) => equal_earlier(to),
                Some(PileKind::Tableau(_)) => {
                    pos.pile(to).is_empty()
                        && l.tableau_ids()
                            .any(|t| t < to && t != from && pos.pile(t).is_empty())
                }
                Some(PileKind::Cell(_)) => l.cell_ids().any(|c| c < to && pos.pile(c).is_empty()),
                _ => false,
            };
            if !redundant {
                out.push(mv);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(gi in 0usize..20, deal in 1u64..=MAX_DEAL, seed: u64, steps in 0usize..150) {
        prop_assume!(gi < games().len());
        let game = playout(gi, deal, seed, steps);
        // A record replays to the same position.
        let text = game.record().to_text();
        let replayed = Record::parse(&text).unwrap().replay().unwrap();
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.position().hash(), game.position().hash());
        // Undo all the way back reaches the deal; redo all the way returns.
        let mut g = game.clone();
        while g.undo() {}
        prop_assert_eq!(g.position(), &Position::deal(&games()[gi], deal).unwrap());
        while g.redo() {}
        prop_assert_eq!(g.position(), game.position());
    }

    #[test]
    fn every_game_is_played_somewhat_in_every_case(seed: u64) {
        for gi in 0..games().len() {
            playout(gi, 1 + seed % 1000, seed, 25);
        }
    }

    #[test]
    fn card_parse_never_panics(s in "\\PC{0,12}") {
        let _ = Card::parse(&s);
    }

    #[test]
    fn card_parse_reads_every_card_text(r in 1u8..=13, su in 0usize..4, ten_as_t: bool) {
        let c = Card::new(Rank::new(r).unwrap(), Suit::ALL[su]);
        let text = if ten_as_t { c.to_string().replace("10", "T") } else { c.to_string().to_lowercase() };
        prop_assert_eq!(Card::parse(&text).unwrap(), c);
    }

    #[test]
    fn move_parse_never_panics(s in "[tfcrws0-9@>a-z ]{0,12}|\\PC{0,12}", gi in 0usize..20) {
        let layout = Layout::of(&games()[gi % games().len()]);
        if let Ok(m) = moves::Move::parse(&s, &layout) {
            // Whatever parses prints back to a text that parses to the same move.
            prop_assert_eq!(Move::parse(&m.text(&layout), &layout).unwrap(), m);
        }
    }

    #[test]
    fn position_text_never_panics(s in "\\PC{0,300}", gi in 0usize..20) {
        let _ = Position::from_text(&s, None);
        let _ = Position::from_text(&s, Some(games()[gi % games().len()].id));
    }

    #[test]
    fn damaged_position_texts_are_refused_or_read_without_panic(gi in 0usize..20, deal in 1u64..1000, cut in 0usize..4000, byte in 0u8..128) {
        let g = &games()[gi % games().len()];
        let text = Position::deal(g, deal).unwrap().to_text();
        let mut cut_at = cut.min(text.len());
        while !text.is_char_boundary(cut_at) { cut_at -= 1; }
        let truncated = &text[..cut_at];
        if let Ok(p) = Position::from_text(truncated, None) {
            prop_assert!(holds_the_pack(&p));
        }
        let mut changed = text.clone().into_bytes();
        let i = cut % changed.len();
        changed[i] = byte;
        if let Ok(s) = String::from_utf8(changed) {
            if let Ok(p) = Position::from_text(&s, None) {
                prop_assert!(holds_the_pack(&p));
            }
        }
    }

    #[test]
    fn plain_form_never_panics(lines in prop::collection::vec("(([AKQJT2-9]|10)[SHDC] ?){0,5}", 0..20), gi in 0usize..8) {
        let text = lines.join("\n");
        let _ = Position::from_text(&text, Some(games()[gi].id));
    }

    #[test]
    fn record_parse_never_panics(s in "\\PC{0,300}") {
        if let Ok(r) = Record::parse(&s) {
            let _ = r.replay();
        }
    }

    #[test]
    fn records_with_junk_moves_name_the_first_bad_one(gi in 0usize..20, deal in 1u64..100, words in prop::collection::vec("t[1-9]>[tf][1-9]|deal|redeal", 0..30)) {
        let g = &games()[gi % games().len()];
        let text = format!("game: {}\ndeal: {deal}\nmoves: {}\n", g.id, words.join(" "));
        let Ok(rec) = Record::parse(&text) else { return Ok(()) };
        match rec.replay() {
            Ok(game) => prop_assert_eq!(game.moves().len(), rec.moves.len()),
            Err(RecordError::Illegal { index, .. }) => {
                // Every move before the named one is legal.
                let mut ok = Game::new(g, deal).unwrap();
                for m in &rec.moves[..index] {
                    prop_assert!(ok.play(*m).is_ok());
                }
                prop_assert!(ok.play(rec.moves[index]).is_err());
            }
            Err(e) => prop_assert!(false, "unexpected {}", e),
        }
    }
}
