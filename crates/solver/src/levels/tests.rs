//! Behaviour of the levels module as a whole: the person-like player cannot
//! see hidden cards, plays legal games to an end, and grading is repeatable.

use patience_engine::{game, Position};

use super::grade::run_seed;
use super::*;
use crate::Budget;

/// The position text with the stock's cards in reverse order.
fn with_stock_reversed(pos: &Position) -> Position {
    let text: String = pos
        .to_text()
        .lines()
        .map(|line| match line.strip_prefix("s:") {
            Some(cards) => {
                let mut v: Vec<&str> = cards.split_whitespace().collect();
                v.reverse();
                format!("s: {}\n", v.join(" "))
            }
            None => format!("{line}\n"),
        })
        .collect();
    Position::from_text(&text, Some(pos.spec().id)).unwrap()
}

/// The same piles under another deal number (so other redeal shuffles).
fn with_deal_number(pos: &Position, deal: u64) -> Position {
    let text: String = pos
        .to_text()
        .lines()
        .map(|line| match line.strip_prefix("deal:") {
            Some(_) => format!("deal: {deal}\n"),
            None => format!("{line}\n"),
        })
        .collect();
    Position::from_text(&text, Some(pos.spec().id)).unwrap()
}

/// Plays two positions side by side with equally seeded players for as long
/// as they look the same to a person; returns how many moves were compared.
fn lockstep(a: &Position, b: &Position, seed: u64) -> usize {
    let (mut a, mut b) = (a.clone(), b.clone());
    let (mut pa, mut pb) = (PersonPlayer::new(seed), PersonPlayer::new(seed));
    let mut compared = 0;
    for _ in 0..2000 {
        let (va, vb) = (View::of(&a), View::of(&b));
        if va != vb {
            break;
        }
        let (ma, mb) = (pa.choose(&va), pb.choose(&vb));
        assert_eq!(ma, mb, "same view, same seed, different moves");
        compared += 1;
        let Some(m) = ma else { break };
        a.apply(m).unwrap();
        b.apply(m).unwrap();
    }
    compared
}

#[test]
fn the_person_plays_the_same_whatever_the_stock_order() {
    for id in ["nivernaise", "blondes-and-brunettes", "krakowski"] {
        let spec = game(id).unwrap();
        for deal in 1..=4 {
            let a = Position::deal(spec, deal).unwrap();
            let b = with_stock_reversed(&a);
            assert_ne!(a, b, "{id} {deal}: the stocks should differ");
            assert_eq!(View::of(&a), View::of(&b));
            for seed in 0..5 {
                assert!(lockstep(&a, &b, seed) >= 1, "{id} {deal}");
            }
        }
    }
}

#[test]
fn the_person_plays_the_same_whatever_the_future_shuffles() {
    let spec = game("la-belle-lucie").unwrap();
    let mut longest = 0;
    for deal in 1..=5 {
        let a = Position::deal(spec, deal).unwrap();
        let b = with_deal_number(&a, deal + 1000);
        for seed in 0..3 {
            longest = longest.max(lockstep(&a, &b, seed));
        }
    }
    // The games stay alike until the first redeal shuffles them apart.
    assert!(longest > 5, "compared only {longest} moves");
}

#[test]
fn the_person_wins_a_position_that_only_needs_cards_sent_up() {
    let pos = Position::from_text("KS QS\nJS\n", Some("la-belle-lucie")).unwrap();
    for seed in 0..5 {
        let g = play_like_a_person(&pos, seed, 100);
        assert!(g.won, "{g:?}");
        assert_eq!(g.moves, 3);
    }
}

#[test]
fn the_person_keeps_the_last_flank_cell_free_unless_it_uncovers_a_wanted_card() {
    // Nivernaise with one flank cell free (the eighth card moved to the
    // stock): parking a line card there is only worth it when it uncovers a
    // card a house takes at once; otherwise dealing comes first.
    let spec = game("nivernaise").unwrap();
    let mut parked = 0;
    for deal in 1..=60 {
        let start = Position::deal(spec, deal).unwrap();
        let mut cell_card = String::new();
        let text: String = start
            .to_text()
            .lines()
            .map(|line| {
                if let Some(card) = line.strip_prefix("c8:") {
                    cell_card = card.trim().to_string();
                    "c8:\n".to_string()
                } else {
                    format!("{line}\n")
                }
            })
            .collect();
        let text = text.replacen("s: ", &format!("s: {cell_card} "), 1);
        let pos = Position::from_text(&text, Some("nivernaise")).unwrap();
        let mv = PersonPlayer::new(deal).choose(&View::of(&pos)).unwrap();
        let layout = *pos.layout();
        if let patience_engine::Move::Step { from, to } = mv {
            if layout.cell_ids().any(|c| c == to) {
                parked += 1;
                let mut after = pos.clone();
                after.apply(mv).unwrap();
                let under = after.top(from).unwrap();
                let wanted = layout
                    .foundation_ids()
                    .any(|f| after.foundation_takes(f, under));
                assert!(wanted, "deal {deal}: filled the last cell for {under}");
            }
        }
    }
    assert!(parked > 0, "no deal tested the exception");
}

#[test]
fn the_person_takes_a_krakowski_waste_card_to_the_table_before_turning_another() {
    // Krakowski's waste is a trap (the stock passes once, and only the two
    // copies of one card can take a waste card on the table): wherever the
    // waste card can go onto a fan, the person does not turn the next card.
    let spec = game("krakowski").unwrap();
    let mut checked = 0;
    for deal in 1..=30 {
        let mut pos = Position::deal(spec, deal).unwrap();
        let mut player = PersonPlayer::new(deal);
        let waste = pos.layout().waste.unwrap();
        for _ in 0..400 {
            let Some(mv) = player.choose(&View::of(&pos)) else {
                break;
            };
            let to_table = pos.legal_moves().into_iter().any(|m| {
                matches!(m, patience_engine::Move::Step { from, to }
                    if from == waste && pos.layout().tableau_ids().any(|t| t == to))
            });
            if to_table {
                checked += 1;
                assert_ne!(mv, patience_engine::Move::Deal, "deal {deal}");
            }
            pos.apply(mv).unwrap();
        }
    }
    assert!(checked >= 30, "only {checked} positions tested the rule");
}

#[test]
fn a_larger_budget_decides_what_the_first_left_unknown() {
    // La Belle Lucie deal 1 is won, but not within 50 positions.
    let pos = Position::deal(game("la-belle-lucie").unwrap(), 1).unwrap();
    let cfg = GradeConfig {
        solve: Budget::of_nodes(50),
        runs: 0,
        ..GradeConfig::default()
    };
    let first = grade_position(&pos, &cfg);
    assert!(matches!(first.solver, SolverVerdict::Unknown { .. }));
    let escalated = grade_position(
        &pos,
        &GradeConfig {
            then_nodes: vec![100, 300_000],
            ..cfg
        },
    );
    assert!(matches!(escalated.solver, SolverVerdict::Win { .. }));
    // Every budget tried counts: 50, then 100, then the one that won.
    assert!(escalated.solver_nodes > 150, "{}", escalated.solver_nodes);
}

#[test]
fn person_games_end_and_are_repeatable_for_a_seed() {
    for id in [
        "la-belle-lucie",
        "nivernaise",
        "blondes-and-brunettes",
        "fan",
        "krug",
        "house-on-the-hill",
    ] {
        let spec = game(id).unwrap();
        let pos = Position::deal(spec, 11).unwrap();
        let limit = super::move_limit(spec);
        let g1 = play_like_a_person(&pos, 5, limit);
        let g2 = play_like_a_person(&pos, 5, limit);
        assert_eq!(g1, g2, "{id}");
        assert!(
            g1.moves < limit,
            "{id}: the player should end before the limit"
        );
    }
}

#[test]
fn the_hint_follower_ends() {
    let spec = game("la-belle-lucie").unwrap();
    let pos = Position::deal(spec, 3).unwrap();
    let budget = Budget {
        nodes: Some(2_000),
        ..Budget::default()
    };
    let f = follow_hints(&pos, &budget, 300);
    assert!(f.moves <= 300);
    let won = Position::from_text("KS\n", Some("la-belle-lucie")).unwrap();
    let f = follow_hints(&won, &budget, 300);
    assert!(f.won() && f.moves == 1, "{f:?}");
}

#[test]
fn following_the_hint_wins_where_the_hint_search_finds_a_solution() {
    let budget = Budget {
        nodes: Some(20_000),
        ..Budget::default()
    };
    let mut checked = 0;
    for (id, deal) in [
        ("la-belle-lucie", 18),
        ("la-belle-lucie", 7),
        ("nivernaise", 8),
        ("nivernaise", 5),
    ] {
        let pos = Position::deal(game(id).unwrap(), deal).unwrap();
        if let crate::Outcome::Win(_) = crate::solve(&pos, &budget).outcome {
            let f = follow_hints(&pos, &budget, 2000);
            assert!(f.won(), "{id} {deal}: {f:?}");
            assert_eq!(f.heuristic_moves, 0);
            checked += 1;
        }
    }
    assert!(checked > 0, "the solver solved none of these easy deals");
}

#[test]
fn levels_follow_the_evidence() {
    // Hand-made grading results: the solver's verdict and k wins of 20.
    let win = SolverVerdict::Win { moves: Some(80) };
    let unknown = SolverVerdict::Unknown { limit: "nodes" };
    let e = |s: &SolverVerdict, w| Level::from_evidence(s, w, 20);
    assert_eq!(e(&win, 20), Level::Easy);
    assert_eq!(e(&win, 10), Level::Easy);
    assert_eq!(e(&win, 9), Level::Medium);
    assert_eq!(e(&win, 1), Level::Medium);
    assert_eq!(e(&win, 0), Level::Hard);
    assert_eq!(e(&SolverVerdict::NoWin, 0), Level::Unwinnable);
    assert_eq!(e(&unknown, 0), Level::Unknown);
    // A played win proves a win even when the solver ran out of budget.
    assert_eq!(e(&unknown, 3), Level::Medium);
    assert_eq!(e(&unknown, 12), Level::Easy);
    // Half of an odd number of runs: 3 of 5 is Easy, 2 of 5 Medium.
    assert_eq!(Level::from_evidence(&win, 3, 5), Level::Easy);
    assert_eq!(Level::from_evidence(&win, 2, 5), Level::Medium);
    // A given verdict stands for what the library level said.
    for l in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(
            SolverVerdict::of_level(l),
            SolverVerdict::Win { moves: None }
        );
    }
    assert_eq!(
        SolverVerdict::of_level(Level::Unwinnable),
        SolverVerdict::NoWin
    );
    for l in Level::ALL {
        assert_eq!(Level::parse(l.as_str()), Some(l));
    }
    assert_eq!(Level::parse("any"), None);
}

#[test]
fn grading_is_deterministic_for_a_seed() {
    let cfg = GradeConfig {
        solve: Budget::of_nodes(5_000),
        runs: 3,
        seed: 9,
        ..GradeConfig::default()
    };
    for id in ["la-belle-lucie", "nivernaise"] {
        let spec = game(id).unwrap();
        let a = grade_deal(spec, 2, &cfg).unwrap();
        let b = grade_deal(spec, 2, &cfg).unwrap();
        assert_eq!(a, b, "{id}");
        assert_eq!(a.runs, 3, "{id}");
    }
    // On a deal whose runs differ, the same seed still wins the same runs.
    let pos = Position::deal(game("la-belle-lucie").unwrap(), 40008).unwrap();
    let win = SolverVerdict::Win { moves: None };
    let cfg = GradeConfig { runs: 6, ..cfg };
    let a = grade_with_verdict(&pos, win.clone(), &cfg);
    assert_eq!(a, grade_with_verdict(&pos, win, &cfg));
    assert_ne!(run_seed(9, 2, 0), run_seed(9, 2, 1));
    assert_ne!(run_seed(9, 2, 0), run_seed(9, 3, 0));
}

/// With the verdict given, no solver runs; the person-like runs are played
/// unless the verdict proves no win, and they give the grade a full grading gives.
#[test]
fn a_given_verdict_skips_the_solver_and_keeps_the_runs() {
    let cfg = GradeConfig {
        solve: Budget::of_nodes(300_000),
        runs: 2,
        seed: 4,
        ..GradeConfig::default()
    };
    let pos = Position::deal(game("la-belle-lucie").unwrap(), 1).unwrap();
    let full = grade_position(&pos, &cfg);
    assert!(matches!(full.solver, SolverVerdict::Win { .. }), "{full:?}");
    let given = grade_with_verdict(&pos, SolverVerdict::of_level(Level::Hard), &cfg);
    assert_eq!(given.solver_nodes, 0);
    assert_eq!(
        (given.level, given.person_wins, given.runs),
        (full.level, full.person_wins, full.runs)
    );
    let lost = grade_with_verdict(&pos, SolverVerdict::NoWin, &cfg);
    assert_eq!((lost.level, lost.runs), (Level::Unwinnable, 0));
    // Where the solver ran out of budget the runs are played too, and a
    // played win makes the deal Easy or Medium, not Unknown.
    let unknown = SolverVerdict::Unknown { limit: "nodes" };
    let spec = game("la-belle-lucie-sequences").unwrap();
    let won = (1..=10)
        .map(|deal| Position::deal(spec, deal).unwrap())
        .find(|pos| grade_with_verdict(pos, unknown.clone(), &cfg).person_wins > 0)
        .expect("the player wins one of these deals");
    let g = grade_with_verdict(&won, unknown.clone(), &cfg);
    let w = grade_with_verdict(&won, SolverVerdict::Win { moves: None }, &cfg);
    assert!(matches!(g.level, Level::Easy | Level::Medium), "{g:?}");
    assert_eq!(
        (g.level, g.person_wins, g.runs),
        (w.level, w.person_wins, 2)
    );
}

/// The player's choices are random (which of near-equal lines, how far it
/// looks), so its runs on one deal differ:
/// on La Belle Lucie deal 40008, which it wins sometimes, the runs are not
/// all the same game, and some are won and some lost.
#[test]
fn runs_on_one_deal_differ_in_moves_and_outcome() {
    let spec = game("la-belle-lucie").unwrap();
    let pos = Position::deal(spec, 40008).unwrap();
    let games: Vec<(Vec<patience_engine::Move>, bool)> = (0..10)
        .map(|run| {
            let mut p = pos.clone();
            let mut player = PersonPlayer::new(run_seed(1, 40008, run));
            let mut moves = Vec::new();
            while let Some(m) = player.choose(&View::of(&p)) {
                p.apply(m).unwrap();
                moves.push(m);
                if moves.len() > super::move_limit(spec) {
                    break;
                }
            }
            (moves, p.is_won())
        })
        .collect();
    let wins = games.iter().filter(|g| g.1).count();
    assert!(
        games.iter().any(|g| g.0 != games[0].0),
        "ten runs played the same game"
    );
    assert!(
        (1..10).contains(&wins),
        "won {wins} of 10 runs: the outcomes should differ"
    );
}

/// What a hunt may stop on, pinned on hand-made evidence (of 20 runs).
#[test]
fn a_hunt_stops_only_once_every_level_sought_is_ruled_out() {
    let win = SolverVerdict::Win { moves: None };
    let c = |sought: &[Level], known, wins, played| could_be(sought, known, wins, played, 20);
    // Hard: the first win rules it out; a loss never does.
    assert!(c(&[Level::Hard], Some(&win), 0, 19));
    assert!(!c(&[Level::Hard], Some(&win), 1, 1));
    assert!(!c(&[Level::Hard], Some(&SolverVerdict::NoWin), 0, 0));
    // Easy: 10 of 20 is Easy, so 10 losses leave it possible and 11 do not.
    assert!(c(&[Level::Easy], Some(&win), 0, 10));
    assert!(!c(&[Level::Easy], Some(&win), 0, 11));
    assert!(c(&[Level::Easy], None, 3, 13));
    assert!(!c(&[Level::Easy], None, 3, 14));
    // Medium: ten wins make it Easy; no win in all 20 makes it Hard.
    assert!(!c(&[Level::Medium], Some(&win), 10, 12));
    assert!(c(&[Level::Medium], Some(&win), 9, 19));
    assert!(!c(&[Level::Medium], Some(&win), 0, 20));
    assert!(c(&[Level::Medium, Level::Hard], Some(&win), 0, 20));
    // Without a verdict, a deal never won may still be Unknown.
    assert!(c(&[Level::Unknown], None, 0, 20));
    assert!(!c(&[Level::Unknown], None, 1, 3));
}

/// A hunt plays the same runs as a grading: a deal it plays out gets the
/// very grade `grade_position` gives, and a deal it stops early is of none
/// of the levels it sought.
#[test]
fn a_hunt_grades_what_it_plays_out_as_a_grading_does() {
    let cfg = GradeConfig {
        solve: Budget::of_nodes(20_000),
        runs: 4,
        seed: 3,
        ..GradeConfig::default()
    };
    let spec = game("la-belle-lucie-sequences").unwrap();
    let (mut graded, mut ruled_out) = (0, 0);
    for deal in 1..=10 {
        let pos = Position::deal(spec, deal).unwrap();
        let full = grade_position(&pos, &cfg);
        for sought in [&[Level::Hard][..], &[Level::Easy]] {
            match hunt(&pos, None, sought, &cfg) {
                Hunted::Graded(g) => {
                    assert_eq!(g, full, "deal {deal}");
                    graded += 1;
                }
                Hunted::RuledOut { wins, played } => {
                    assert!(!sought.contains(&full.level), "deal {deal}: {full:?}");
                    assert!(played < cfg.runs && wins <= full.person_wins, "deal {deal}");
                    ruled_out += 1;
                }
            }
        }
        // A given verdict: no solver, and no runs where it finds no win.
        let win = SolverVerdict::of_level(Level::Medium);
        if let Hunted::Graded(g) = hunt(&pos, Some(win.clone()), &[Level::Hard], &cfg) {
            assert_eq!(g, grade_with_verdict(&pos, win, &cfg));
        }
        let lost = hunt(&pos, Some(SolverVerdict::NoWin), &[Level::Hard], &cfg);
        assert_eq!(
            lost,
            Hunted::Graded(grade_with_verdict(&pos, SolverVerdict::NoWin, &cfg))
        );
    }
    assert!(
        graded > 0 && ruled_out > 0,
        "{graded} graded, {ruled_out} ruled out"
    );
}
