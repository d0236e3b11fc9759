//! `patience grade --db postgres://…` with three workers on one database,
//! one killed with SIGKILL midway: every deal is graded once, and the
//! export is the library one worker alone writes for the same deals. Needs
//! the PostgreSQL server `scripts/test` starts (`PATIENCE_TEST_POSTGRES`).

mod common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::fresh_postgres_database;

const DEALS: &str = "1..40";
const COUNT: u64 = 40;

fn grade(dir: &Path, db: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_patience"));
    c.current_dir(dir)
        .args(["grade", "la-belle-lucie", "--jobs", "1"])
        .args(["--runs", "3", "--nodes", "3000", "--db", db])
        .args(extra);
    c
}

fn ok(o: Output) -> Output {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn graded(runtime: &tokio::runtime::Runtime, url: &str) -> u64 {
    runtime.block_on(async {
        let store = patience_store::PgStore::open(url, 1).await.unwrap();
        store.grade_count("la-belle-lucie").await.unwrap()
    })
}

#[test]
fn three_workers_one_killed_grade_every_deal_once_and_export_one_workers_library() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let Some(alone) = fresh_postgres_database("three_workers") else {
        return;
    };
    let shared = fresh_postgres_database("three_workers").unwrap();
    let dir = tempfile::tempdir().unwrap();
    ok(
        grade(dir.path(), &alone, &["--deals", DEALS, "--export", "alone"])
            .output()
            .unwrap(),
    );

    let spawn = || -> Child {
        grade(dir.path(), &shared, &["--deals", DEALS])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut workers: Vec<Child> = (0..3).map(|_| spawn()).collect();
    // Midway: a few deals graded, most still to do.
    let until = Instant::now() + Duration::from_secs(120);
    while graded(&runtime, &shared) < 5 {
        assert!(Instant::now() < until, "the workers grade nothing");
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut killed = workers.remove(0);
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();
    let at_kill = graded(&runtime, &shared);
    assert!(at_kill < COUNT, "the kill came after the end");
    for w in workers {
        // Each survivor ends cleanly: a deal graded twice would fail it.
        ok(w.wait_with_output().unwrap());
    }
    // The killed worker restarted: what is left (at most the deal it held,
    // if the others finished before its connection was seen closed) is done.
    ok(grade(
        dir.path(),
        &shared,
        &["--deals", DEALS, "--export", "shared"],
    )
    .output()
    .unwrap());
    assert_eq!(graded(&runtime, &shared), COUNT);
    let read =
        |d: &str| std::fs::read_to_string(dir.path().join(d).join("la-belle-lucie.tsv")).unwrap();
    assert_eq!(read("shared"), read("alone"));
    assert_eq!(read("alone").lines().count() as u64, COUNT + 1);
}
