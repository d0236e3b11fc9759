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
        .args([
            "--runs",
            "3",
            "--nodes",
            "3000",
            "--hint-nodes",
            "300",
            "--db",
            db,
        ])
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
        assert_eq!(lines[0], "deal\tlevel");
        assert_eq!(lines.len(), 4, "{tsv}");
        for (i, line) in lines[1..].iter().enumerate() {
            let (deal, level) = line.split_once('\t').unwrap();
            assert_eq!(deal, (i + 1).to_string());
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
