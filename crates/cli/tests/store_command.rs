//! `patience store backup` and `restore` around a real `patience serve`
//! killed with SIGKILL: the server comes back on its own log, a backup
//! copied by hand beside another file's log is refused, and `restore` puts
//! the backup back at its own moment.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Child;

use common::patience;

/// `patience serve` on a free port over `db`.
fn serve(db: &Path) -> Result<(Child, String), String> {
    common::serve(db.to_str().unwrap(), &[])
}

/// Starts a game of Fan: its answer's status line.
fn new_game(addr: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/games/fan/new HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 11\r\nConnection: close\r\n\r\n{{\"deal\": 3}}"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or_default().to_string()
}

/// `patience store COMMAND --db DB BACKUP`, which must succeed: what it printed.
fn store(command: &str, db: &Path, backup: &Path) -> String {
    let o = patience(
        &[
            "store",
            command,
            "--db",
            db.to_str().unwrap(),
            backup.to_str().unwrap(),
        ],
        None,
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn kill(mut child: Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_backup_comes_back_at_its_own_moment_and_never_mixes_with_another_log() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    let backup = dir.path().join("b.db");
    let (child, addr) = serve(&db).unwrap();
    for _ in 0..2 {
        assert!(new_game(&addr).contains(" 201 "));
    }
    let out = store("backup", &db, &backup);
    assert!(out.contains("2 games"), "{out}");
    for _ in 0..3 {
        assert!(new_game(&addr).contains(" 201 "));
    }
    kill(child);

    // After SIGKILL the server comes back on its own log.
    let (child, addr) = serve(&db).expect("a server killed comes back");
    assert!(new_game(&addr).contains(" 201 "));
    kill(child);
    assert!(dir.path().join("p.db-wal").exists());

    // The backup copied by hand in place of the lost file is refused.
    std::fs::remove_file(&db).unwrap();
    std::fs::copy(&backup, &db).unwrap();
    let err = serve(&db).expect_err("a copy beside another log must not start");
    assert!(
        err.contains("p.db-wal") && err.contains("store restore"),
        "{err}"
    );

    let out = store("restore", &db, &backup);
    assert!(out.contains("restored") && out.contains("2 games"), "{out}");
    assert!(out.contains("p.db-wal aside"), "{out}");
    let (child, _) = serve(&db).expect("the restored database serves");
    kill(child);
    let store = patience_store::Store::open(&db).unwrap();
    assert_eq!(store.execute_raw("UPDATE games SET uid = uid").unwrap(), 2);
}
