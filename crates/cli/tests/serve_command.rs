//! `patience serve` and its database: a database lost beside its lock file
//! is refused with the way out, and `--create` makes a new one.

mod common;

use common::{patience, serve};

#[test]
fn a_lost_database_is_refused_and_create_makes_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    std::fs::write(dir.path().join("p.db.lock"), b"").unwrap();
    let db_arg = db.to_str().unwrap();

    let o = patience(&["serve", "--port", "0", "--db", db_arg], None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("missing") && err.contains("--create"), "{err}");
    assert_eq!(
        err.matches("--create").count(),
        1,
        "the reason is said once: {err}"
    );
    assert!(!db.exists(), "a refused start makes no file");

    let (mut child, addr) = serve(db_arg, &["--create"]).expect("--create starts the server");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    assert!(db.exists());
}
