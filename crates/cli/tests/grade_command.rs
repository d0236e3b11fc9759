//! `patience grade` end to end: a real binary, a real SQLite file, real library files.

use std::path::Path;
use std::process::{Command, Output};

fn grade(dir: &Path, db: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_patience"))
        .current_dir(dir)
        .args([
            "grade",
            "la-belle-lucie,nivernaise",
            "--deals",
            "1..3",
            "--jobs",
            "2",
        ])
        .args(["--runs", "3", "--nodes", "3000", "--db", db])
        .args(extra)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn grades_go_to_the_store_and_library_and_a_second_run_skips_them() {
    let dir = tempfile::tempdir().unwrap();
    let first = grade(dir.path(), "a.db", &["--export", "lib"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(stdout(&first).contains("la-belle-lucie deals 1..3: 3 graded now, 0 already"));
    for game in ["la-belle-lucie", "nivernaise"] {
        let tsv = std::fs::read_to_string(dir.path().join(format!("lib/{game}.tsv"))).unwrap();
        let lines: Vec<&str> = tsv.lines().collect();
        assert_eq!(lines[0], "deal\tlevel\tperson_wins\truns");
        assert_eq!(lines.len(), 4, "{tsv}");
        for (i, line) in lines[1..].iter().enumerate() {
            let cols: Vec<&str> = line.split('\t').collect();
            let (deal, level) = (cols[0], cols[1]);
            assert_eq!(deal, (i + 1).to_string());
            let wins: u32 = cols[2].parse().unwrap();
            assert!(wins <= 3 && cols[3] == "3", "{line}");
            assert!(
                ["easy", "medium", "hard", "unwinnable", "unknown"].contains(&level),
                "{line}"
            );
        }
    }
    let again = grade(dir.path(), "a.db", &["--export", "lib"]);
    assert!(again.status.success());
    assert!(
        stdout(&again).contains("0 graded now, 3 already in the store"),
        "{}",
        stdout(&again)
    );
    let tsv = std::fs::read_to_string(dir.path().join("lib/nivernaise.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), 4, "no line is written twice");
}

#[test]
fn grading_is_deterministic_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    for (db, lib) in [("a.db", "a"), ("b.db", "b")] {
        let o = grade(dir.path(), db, &["--seed", "7", "--export", lib]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for game in ["la-belle-lucie", "nivernaise"] {
        let read =
            |d: &str| std::fs::read_to_string(dir.path().join(format!("{d}/{game}.tsv"))).unwrap();
        assert_eq!(read("a"), read("b"), "{game}");
    }
}

#[test]
fn bad_arguments_are_refused_with_a_reason_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (args, reason) in [
        (vec!["grade", "la-belle-lucie", "--deals", "9..3"], "empty"),
        (
            vec!["grade", "la-belle-lucie", "--deals", "0..3"],
            "deal numbers run from 1",
        ),
        (
            vec!["grade", "no-such-game", "--deals", "1..3"],
            "unknown game",
        ),
        (
            vec![
                "grade",
                "krakowski",
                "--deals",
                "1..3",
                "--nodes",
                "5000",
                "--then-nodes",
                "5000",
            ],
            "each budget must exceed the one before",
        ),
        (
            vec!["grade", "krug", "--deals", "1..3", "--hunt", "hard,unknown"],
            "--hunt takes easy, medium or hard",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_patience"))
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
    assert!(!dir.path().join("patience.db").exists());
}

/// Runs `patience` with `args` in `dir`.
fn patience(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_patience"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Krug with these budgets: cheap, and every deal has a known win.
const KRUG: &[&str] = &[
    "grade", "krug", "--jobs", "1", "--runs", "2", "--nodes", "30000",
];

fn krug_deals(dir: &Path) -> Vec<u64> {
    let store = patience_store::Store::open(&dir.join("k.db")).unwrap();
    store
        .grades("krug")
        .unwrap()
        .into_iter()
        .map(|g| g.deal)
        .collect()
}

#[test]
fn enough_stops_a_game_once_every_level_holds_that_many_deals() {
    let dir = tempfile::tempdir().unwrap();
    {
        // Medium and Hard already hold two deals each, outside the range.
        let store = patience_store::Store::open(&dir.path().join("k.db")).unwrap();
        use patience_store::{DealGrade, Level};
        for (deal, level) in [
            (900, Level::Medium),
            (901, Level::Medium),
            (902, Level::Hard),
            (903, Level::Hard),
        ] {
            store
                .put_grade("krug", &DealGrade::level_only(deal, level), "{}")
                .unwrap();
        }
    }
    let args = [
        KRUG,
        &["--db", "k.db", "--deals", "1..100", "--enough", "2"],
    ]
    .concat();
    let o = patience(dir.path(), &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(
        out.contains("stopped: easy, medium and hard each hold at least 2"),
        "{out}"
    );
    // One chunk (8 deals a worker) was enough for two Easy deals; what was
    // graded is a prefix of the range.
    let deals = krug_deals(dir.path());
    let graded: Vec<u64> = deals.iter().copied().filter(|&d| d < 900).collect();
    assert_eq!(graded, (1..=8).collect::<Vec<u64>>(), "{out}");

    // Already enough: nothing more is graded.
    let args = [
        KRUG,
        &["--db", "k.db", "--deals", "1..100", "--enough", "2"],
    ]
    .concat();
    let o = patience(dir.path(), &args);
    assert!(stdout(&o).contains("0 graded now"), "{}", stdout(&o));
    assert_eq!(krug_deals(dir.path()).len(), 12);

    // A level that never fills (no more Medium deals in Krug) runs the range out.
    let args = [KRUG, &["--db", "k.db", "--deals", "1..20", "--enough", "3"]].concat();
    let o = patience(dir.path(), &args);
    assert!(o.status.success());
    assert!(!stdout(&o).contains("stopped"), "{}", stdout(&o));
    assert_eq!(krug_deals(dir.path()).len(), 24);
}

#[test]
fn export_without_deals_writes_the_store_and_merges_stores_into_one_library() {
    let dir = tempfile::tempdir().unwrap();
    for (db, deals) in [("a.db", "1..3"), ("b.db", "7..8")] {
        let args = [KRUG, &["--deals", deals, "--db", db]].concat();
        assert!(patience(dir.path(), &args).status.success());
    }
    assert!(!dir.path().join("lib").exists(), "no export was asked for");
    for db in ["b.db", "a.db"] {
        let o = patience(
            dir.path(),
            &["grade", "krug", "--db", db, "--export", "lib"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(!stdout(&o).contains("graded now"), "nothing is graded");
    }
    let tsv = std::fs::read_to_string(dir.path().join("lib/krug.tsv")).unwrap();
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines[0], "deal\tlevel\tperson_wins\truns");
    let deals: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(
        deals,
        ["1", "2", "3", "7", "8"],
        "both stores, sorted, one line a deal"
    );
    for line in &lines[1..] {
        // The store keeps the person-like wins of each deal (Krug: 2 runs).
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "{line}");
        assert_eq!(cols[3], "2", "{line}");
        assert!(cols[2].parse::<u32>().unwrap() <= 2, "{line}");
    }

    // A malformed line is named, and the file is left as it was.
    let broken = tsv.replacen("\n7\t", "\n7\tsimple\t", 1);
    assert_ne!(broken, tsv);
    std::fs::write(dir.path().join("lib/krug.tsv"), &broken).unwrap();
    let o = patience(
        dir.path(),
        &["grade", "krug", "--db", "a.db", "--export", "lib"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("krug.tsv:5") && err.contains("simple"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("lib/krug.tsv")).unwrap(),
        broken
    );

    // Neither deals nor an export: refused, with the reason.
    let o = patience(dir.path(), &["grade", "krug", "--db", "a.db"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to do"));
}

#[test]
fn reused_verdicts_skip_the_solver_and_play_only_where_a_win_exists() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("old")).unwrap();
    // An old library: deal 1 said unwinnable (so no runs), deal 2 hard (a
    // win exists, so runs), in the form written before the wins were kept.
    std::fs::write(
        dir.path().join("old/la-belle-lucie.tsv"),
        "deal\tlevel\n1\tunwinnable\n2\thard\n",
    )
    .unwrap();
    let o = patience(
        dir.path(),
        &[
            "grade",
            "la-belle-lucie",
            "--deals",
            "1..2",
            "--runs",
            "2",
            "--reuse-verdicts",
            "old",
            "--db",
            "r.db",
            "--export",
            "new",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tsv = std::fs::read_to_string(dir.path().join("new/la-belle-lucie.tsv")).unwrap();
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines[1], "1\tunwinnable\t\t", "{tsv}");
    let cols: Vec<&str> = lines[2].split('\t').collect();
    assert_eq!((cols[0], cols[3]), ("2", "2"), "{tsv}");
    assert!(["easy", "medium", "hard"].contains(&cols[1]), "{tsv}");
    let store = patience_store::Store::open(&dir.path().join("r.db")).unwrap();
    assert_eq!(store.grades("la-belle-lucie").unwrap().len(), 2);
}

#[test]
fn play_prints_each_deal_and_the_win_rate_with_its_interval() {
    let dir = tempfile::tempdir().unwrap();
    let o = patience(
        dir.path(),
        &[
            "play", "krug", "--deals", "1..3", "--runs", "2", "--jobs", "1",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(line.starts_with(&format!("{}\t", i + 1)), "{line}");
        assert!(
            line.contains(" of 2\t") && line.ends_with("cards home"),
            "{line}"
        );
    }
    assert!(
        lines[3].starts_with("krug deals 1..3, person-like player")
            && lines[3].contains("of 6 games won")
            && lines[3].contains("95% CI"),
        "{out}"
    );
    let bad = patience(dir.path(), &["play", "krug", "--deals", "0..3"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A hunt for Hard finds the very Hard deals a full grading of the range
/// finds, with the same grades; every other deal of the range is either
/// graded in full or ruled out (never Hard); a second hunt skips them all.
#[test]
fn a_hunt_finds_every_deal_of_its_level_that_a_full_grading_finds() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let o = patience(dir.path(), &[KRUG, args].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    run(&["--db", "full.db", "--deals", "1..40"]);
    let out = run(&["--db", "k.db", "--deals", "1..40", "--hunt", "hard"]);
    assert!(out.contains("deals ruled out after"), "{out}");
    let open = |db: &str| patience_store::Store::open(&dir.path().join(db)).unwrap();
    let (full, hunted) = (open("full.db").grades("krug").unwrap(), open("k.db"));
    let ruled_out = hunted
        .ruled_out_deals("krug", patience_store::Level::Hard)
        .unwrap();
    let found = hunted.grades("krug").unwrap();
    let hard = |g: &&patience_store::DealGrade| g.level == patience_store::Level::Hard;
    assert!(full.iter().filter(hard).count() >= 2, "{full:?}");
    assert_eq!(
        found.iter().filter(hard).collect::<Vec<_>>(),
        full.iter().filter(hard).collect::<Vec<_>>()
    );
    for g in &found {
        assert_eq!(Some(g), full.iter().find(|f| f.deal == g.deal));
    }
    for g in &full {
        let graded = found.iter().any(|f| f.deal == g.deal);
        assert!(graded != ruled_out.contains(&g.deal), "deal {}", g.deal);
        assert!(
            graded || g.level != patience_store::Level::Hard,
            "deal {}",
            g.deal
        );
    }
    assert!(!ruled_out.is_empty());
    let again = run(&["--db", "k.db", "--deals", "1..40", "--hunt", "hard"]);
    assert!(again.contains("0 graded now, 40 already"), "{again}");
    // With --enough, a hunt counts only the levels it seeks.
    let out = run(&[
        "--db", "e.db", "--deals", "1..40", "--hunt", "hard", "--enough", "2",
    ]);
    assert!(
        out.contains("stopped: hard holds at least 2 deals"),
        "{out}"
    );
}
