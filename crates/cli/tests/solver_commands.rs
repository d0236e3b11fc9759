//! `patience solve` and `patience survey` end to end, through the real binary.

mod common;

use std::process::Output;

use common::patience;
use patience_engine::{game, Move, Position};

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn solve_json_gives_moves_that_replay_to_a_win() {
    let o = patience(
        &[
            "solve",
            "la-belle-lucie",
            "--deal",
            "3",
            "--json",
            "--nodes",
            "500000",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j = json(&o);
    assert_eq!(j["result"], "win");
    assert!(j["nodes"].as_u64().unwrap() > 0);
    assert!(j["milliseconds"].as_f64().is_some());
    assert!(j["peak_entries"].as_u64().unwrap() > 0);
    let spec = game("la-belle-lucie").unwrap();
    let mut p = Position::deal(spec, 3).unwrap();
    for m in j["moves"].as_array().unwrap() {
        let m = Move::parse(m.as_str().unwrap(), p.layout()).unwrap();
        p.apply(m).unwrap();
    }
    assert!(p.is_won());
}

#[test]
fn solve_reads_a_position_from_stdin_and_proves_a_loss_with_best() {
    let board =
        "AS KS\n2S 3S 4S\n5S 6S 7S\n8S 9S 10S\nJS QS\nKH QH JH\n10H 9H 8H\n7H 6H 5H\n4H 3H 2H\n";
    let o = patience(
        &[
            "solve",
            "la-belle-lucie",
            "--position",
            "-",
            "--redeals",
            "0",
            "--json",
            "--best",
        ],
        Some(board),
    );
    assert_eq!(o.status.code(), Some(1), "no win exits 1: {o:?}");
    let j = json(&o);
    assert_eq!(j["result"], "no-win");
    assert_eq!(j["best"]["cards"], 39);
    assert_eq!(j["best"]["complete"], true);
}

#[test]
fn solve_says_unknown_under_a_tiny_budget_and_refuses_bad_input() {
    let o = patience(
        &["solve", "house-in-the-woods", "--deal", "1", "--nodes", "5"],
        None,
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stdout).contains("unknown-nodes"));
    let o = patience(&["solve", "no-such-game", "--deal", "1"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown game"));
    let o = patience(
        &["solve", "la-belle-lucie", "--position", "-"],
        Some("this is not a board"),
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn survey_writes_a_line_per_deal_and_a_closing_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.jsonl");
    let o = patience(
        &[
            "survey",
            "la-belle-lucie",
            "--deals",
            "1..6",
            "--jobs",
            "2",
            "--nodes",
            "300000",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{o:?}");
    let table = String::from_utf8_lossy(&o.stdout);
    for word in ["won", "lost", "unknown", "median", "p95", "M/s"] {
        assert!(table.contains(word), "{word} in {table}");
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let mut deals: Vec<u64> = text
        .lines()
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            assert!(j["result"].is_string());
            j["deal"].as_u64().unwrap()
        })
        .collect();
    deals.sort();
    assert_eq!(deals, vec![1, 2, 3, 4, 5, 6]);
    let o = patience(&["survey", "fan", "--deals", "5..2"], None);
    assert_eq!(o.status.code(), Some(2));
}

/// `--then-nodes` solves again, with the larger budget, only the deals the
/// first budget left unknown, and reports what every pass cost.
#[test]
fn survey_escalates_unknown_deals_to_the_next_budget() {
    let dir = tempfile::tempdir().unwrap();
    let lines = |nodes: &[&str]| {
        let out = dir.path().join("s.jsonl");
        let mut args = vec!["survey", "la-belle-lucie", "--deals", "1..4", "--jobs", "1"];
        args.extend_from_slice(nodes);
        args.extend(["--out", out.to_str().unwrap()]);
        let o = patience(&args, None);
        assert!(o.status.success(), "{o:?}");
        let mut rows: Vec<(u64, String, u64)> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| {
                let j: serde_json::Value = serde_json::from_str(l).unwrap();
                let result = j["result"].as_str().unwrap().to_string();
                (
                    j["deal"].as_u64().unwrap(),
                    result,
                    j["nodes"].as_u64().unwrap(),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    let small = lines(&["--nodes", "50"]);
    let large = lines(&["--nodes", "300000"]);
    let both = lines(&["--nodes", "50", "--then-nodes", "300000"]);
    assert!(
        small.iter().all(|r| r.1.starts_with("unknown")),
        "{small:?}"
    );
    assert!(large.iter().all(|r| r.1 == "win"), "{large:?}");
    for ((s, l), b) in small.iter().zip(&large).zip(&both) {
        assert_eq!(b.1, l.1, "deal {}: the larger budget's verdict", b.0);
        assert_eq!(b.2, s.2 + l.2, "deal {}: both passes' positions", b.0);
    }
    let o = patience(
        &[
            "survey",
            "fan",
            "--deals",
            "1..2",
            "--nodes",
            "100",
            "--then-nodes",
            "100",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "a budget that does not grow");
}
