//! The engine's commands of the built `patience` binary: games, deal, moves,
//! replay and perft, with their inputs from arguments, files and stdin.

mod common;

use std::io::Write;

use common::patience;
use patience_engine::{game, games, perft, Game, Position};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(args: &[&str], stdin: Option<&str>) -> Run {
    let o = patience(args, stdin);
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn ok(args: &[&str]) -> String {
    let r = run(args, None);
    assert_eq!(r.code, 0, "{args:?}: {}", r.err);
    r.out
}

fn fails(args: &[&str], needle: &str) {
    let r = run(args, None);
    assert_ne!(r.code, 0, "{args:?} should fail");
    assert!(
        r.err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: {}",
        r.err
    );
    assert!(!r.err.contains("panicked"), "{}", r.err);
}

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn games_lists_every_id_with_both_names() {
    let out = ok(&["games"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), games().len());
    for (line, g) in lines.iter().zip(games()) {
        assert!(line.starts_with(g.id), "{line}");
        assert!(
            line.contains(g.name_en) && line.contains(g.name_ru),
            "{line}"
        );
    }
}

#[test]
fn deal_prints_the_position_text_of_the_deal() {
    for id in ["la-belle-lucie", "krug", "nivernaise"] {
        let out = ok(&["deal", id, "1000"]);
        assert_eq!(
            out,
            Position::deal(game(id).unwrap(), 1000).unwrap().to_text()
        );
    }
    fails(&["deal", "klondike", "1"], "unknown game");
    fails(&["deal", "fan", "0"], "out of range");
    fails(&["deal", "fan", "4294967296"], "out of range");
    fails(&["deal", "fan", "x"], "invalid");
}

#[test]
fn moves_lists_the_legal_moves_of_a_deal_or_a_position() {
    let g = game("la-belle-lucie").unwrap();
    let pos = Position::deal(g, 1).unwrap();
    let expected: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.text(pos.layout()))
        .collect();
    let out = ok(&["moves", "la-belle-lucie", "--deal", "1"]);
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
    assert_eq!(out.lines().last(), Some("redeal"));
    // --redeals 0 turns the redeal off.
    let out = ok(&["moves", "la-belle-lucie", "--deal", "1", "--redeals", "0"]);
    assert!(!out.contains("redeal"));
    // From a position file.
    let f = file(&pos.to_text());
    let from_file = ok(&[
        "moves",
        "la-belle-lucie",
        "--position",
        f.path().to_str().unwrap(),
    ]);
    assert_eq!(from_file.lines().collect::<Vec<_>>(), expected);
    // lblsolve's plain form on stdin: two fans, everything else home.
    let r = run(&["moves", "fan", "--position", "-"], Some("KH QH\nKS QS\n"));
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.lines().collect::<Vec<_>>(), ["t1>f2", "t2>f1"]);
}

#[test]
fn moves_refuses_bad_positions_with_a_reason() {
    let r = run(&["moves", "fan", "--position", "-"], Some("KH QS QS\n"));
    assert_ne!(r.code, 0);
    assert!(r.err.contains("QS"), "{}", r.err);
    fails(
        &["moves", "fan", "--position", "/no/such/file"],
        "/no/such/file",
    );
    fails(&["moves", "fan"], "--deal");
    fails(
        &["moves", "fan", "--deal", "1", "--redeals", "3"],
        "redeals",
    );
    let big = file(&"KS ".repeat(4_000_000));
    fails(
        &["moves", "fan", "--position", big.path().to_str().unwrap()],
        "larger",
    );
}

#[test]
fn replay_checks_a_record_and_prints_the_final_position() {
    let g = game("house-on-the-hill").unwrap();
    let mut play = Game::new(g, 12).unwrap();
    for _ in 0..5 {
        let mv = play.position().legal_moves()[0];
        play.play(mv).unwrap();
    }
    let f = file(&play.record().to_text());
    let out = ok(&["replay", f.path().to_str().unwrap()]);
    assert!(out.starts_with(&play.position().to_text()), "{out}");
    assert!(out.contains("status: in progress (5 moves)"), "{out}");
    // From stdin, a record of no moves yet.
    let r = run(&["replay", "-"], Some("game: fan\ndeal: 1\n"));
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("status: in progress (0 moves)"), "{}", r.out);
}

#[test]
fn replay_names_the_first_illegal_move() {
    let f = file("game: la-belle-lucie\ndeal: 1\nmoves: t5>f4 t1>t2\n");
    fails(&["replay", f.path().to_str().unwrap()], "move 1 (t1>t2)");
    let f = file("game: la-belle-lucie\ndeal: 1\nmoves: t5>f9\n");
    fails(&["replay", f.path().to_str().unwrap()], "t5>f9");
    let f = file("");
    fails(&["replay", f.path().to_str().unwrap()], "empty");
}

#[test]
fn perft_counts_move_sequences() {
    assert_eq!(ok(&["perft", "la-belle-lucie", "3"]).trim(), "83");
    assert_eq!(
        ok(&["perft", "la-belle-lucie", "1", "--redeals", "0"]).trim(),
        "3"
    );
    assert_eq!(ok(&["perft", "krug", "4", "--deal", "1"]).trim(), "150");
    // --divide lists each first move's count, then the total.
    let out = ok(&["perft", "house-in-the-woods", "2", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    let total: u64 = lines.last().unwrap().parse().unwrap();
    let parts: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!((total, parts), (510, 510));
    // From a position.
    let pos = Position::deal(game("nivernaise").unwrap(), 7).unwrap();
    let f = file(&pos.to_text());
    let out = ok(&[
        "perft",
        "nivernaise",
        "3",
        "--position",
        f.path().to_str().unwrap(),
    ]);
    assert_eq!(out.trim(), perft(&mut pos.clone(), 3).to_string());
    fails(
        &["perft", "fan", "2", "--deal", "1", "--position", "x"],
        "cannot be used",
    );
}

/// `--redeals K` gives at most the redeals the position has left: a text
/// that used both of La Belle Lucie's redeals offers no third one.
#[test]
fn redeals_beyond_what_the_position_has_left_are_refused() {
    let text = Position::deal(game("la-belle-lucie").unwrap(), 1)
        .unwrap()
        .to_text()
        .replace("redeals-used: 0", "redeals-used: 2");
    assert!(text.contains("redeals-used: 2"), "{text}");
    let f = file(&text);
    let path = f.path().to_str().unwrap();
    for cmd in [
        &[
            "moves",
            "la-belle-lucie",
            "--position",
            path,
            "--redeals",
            "1",
        ][..],
        &[
            "perft",
            "la-belle-lucie",
            "1",
            "--position",
            path,
            "--redeals",
            "1",
        ][..],
    ] {
        fails(cmd, "0 redeal(s) left");
    }
    let out = ok(&[
        "moves",
        "la-belle-lucie",
        "--position",
        path,
        "--redeals",
        "0",
    ]);
    assert!(!out.contains("redeal"), "{out}");
}

/// A shuffled redeal needs the deal number: a text without `deal:` is
/// refused while a redeal is left, and accepted with `--redeals 0`.
#[test]
fn a_position_without_a_deal_number_is_refused_where_a_redeal_shuffles() {
    let f = file("KH QH\nKS QS\n");
    let path = f.path().to_str().unwrap();
    fails(&["moves", "la-belle-lucie", "--position", path], "deal:");
    fails(
        &["perft", "la-belle-lucie", "2", "--position", path],
        "deal:",
    );
    ok(&[
        "moves",
        "la-belle-lucie",
        "--position",
        path,
        "--redeals",
        "0",
    ]);
    // Fan has no redeal: nothing needs the number.
    ok(&["moves", "fan", "--position", path]);
    // `deal: 0` names no deal either.
    let text = Position::from_text("KH QH\nKS QS\n", Some("la-belle-lucie"))
        .unwrap()
        .to_text();
    assert!(text.contains("deal: 0\n"), "{text}");
    let zero = file(&text);
    let zero = zero.path().to_str().unwrap();
    fails(&["moves", "la-belle-lucie", "--position", zero], "deal:");
}

/// `--redeals K` beyond the game's count is refused for a numbered deal too,
/// by moves and perft alike.
#[test]
fn redeals_beyond_the_game_are_refused_for_a_deal() {
    for cmd in ["moves", "perft"] {
        let mut args = vec![cmd, "la-belle-lucie"];
        if cmd == "perft" {
            args.push("1");
        }
        args.extend(["--deal", "1", "--redeals", "3"]);
        fails(&args, "2 redeal(s) left");
    }
    // Within the count it is accepted: one redeal left still offers it.
    let out = ok(&["moves", "la-belle-lucie", "--deal", "1", "--redeals", "1"]);
    assert!(out.lines().any(|l| l == "redeal"), "{out}");
}
