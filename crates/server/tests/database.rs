//! The database file as the server finds it at start and while it runs: a
//! lost, read-only or replaced file is refused loudly, never silently
//! recreated. Real SQLite files in temporary directories, a real server.

mod common;

use std::path::Path;

use common::{first_legal, temp_db, uid, version, Player, Server};
use reqwest::StatusCode;
use serde_json::json;

/// Why a server on `config` does not start.
async fn refusal(config: patience_server::Config) -> String {
    patience_server::bind(&config)
        .await
        .err()
        .expect("the server must not start")
        .to_string()
}

fn set_readonly(path: &Path, readonly: bool) {
    let mut p = std::fs::metadata(path).unwrap().permissions();
    p.set_readonly(readonly);
    std::fs::set_permissions(path, p).unwrap();
}

#[tokio::test]
async fn a_lost_database_is_refused_and_made_again_only_with_create() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let mut p = Player::new(&server.url);
    p.new_game("fan", 3).await;
    server.stop().await;
    std::fs::remove_file(&db.path).unwrap();

    let err = refusal(common::config(&db.path)).await;
    assert!(
        err.contains("missing") && err.contains("--create") && err.contains("patience.db"),
        "{err}"
    );
    assert!(!db.path.exists(), "a refused start makes no file");

    let server = Server::start_with(patience_server::Config {
        create: true,
        ..common::config(&db.path)
    })
    .await;
    assert!(db.path.exists());
    let mut p = Player::new(&server.url);
    p.new_game("fan", 3).await;
    server.stop().await;
    // Made again, it starts as any database does.
    Server::start(&db.path).await.stop().await;
}

#[tokio::test]
async fn a_read_only_database_or_directory_is_refused_at_start() {
    let db = temp_db();
    Server::start(&db.path).await.stop().await;
    set_readonly(&db.path, true);
    let err = refusal(common::config(&db.path)).await;
    assert!(
        err.contains("read-only") && err.contains("patience.db"),
        "{err}"
    );
    set_readonly(&db.path, false);

    let dir = db.path.parent().unwrap().join("shelf");
    std::fs::create_dir(&dir).unwrap();
    set_readonly(&dir, true);
    let err = refusal(common::config(&dir.join("patience.db"))).await;
    assert!(err.contains("read-only") && err.contains("shelf"), "{err}");
    set_readonly(&dir, false);
    assert!(!dir.join("patience.db").exists());
}

#[tokio::test]
async fn a_database_deleted_while_running_refuses_every_change_and_is_not_recreated() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("la-belle-lucie", 5).await;
    let uid = uid(&state);
    let (status, _) = p.play(&uid, &first_legal(&state), version(&state)).await;
    assert_eq!(status, StatusCode::OK);
    let (_, state) = p.get(&format!("/api/play/{uid}")).await;

    std::fs::remove_file(&db.path).unwrap();
    let (status, body) = p.play(&uid, &first_legal(&state), version(&state)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["code"], json!("database_lost"));
    let (status, body) = p.post("/api/games/fan/new", json!({"deal": 9})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["code"], json!("database_lost"));
    // A game read from the store is refused too, and no empty file appears.
    let (status, body) = p.get("/api/continue").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(!db.path.exists(), "no empty database is made in its place");
    server.stop().await;
}

#[tokio::test]
async fn a_database_replaced_while_running_gets_no_changes() {
    let db = temp_db();
    let other = temp_db();
    // Made and closed at once (a stopped server's writer may still be closing).
    drop(patience_store::Store::open(&other.path).unwrap());
    let replacement = std::fs::read(&other.path).unwrap();
    let server = Server::start(&db.path).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("fan", 4).await;
    let uid = uid(&state);
    std::fs::rename(&other.path, &db.path).unwrap();
    let (status, body) = p.play(&uid, &first_legal(&state), version(&state)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["code"], json!("database_lost"));
    let (status, _) = p.post("/api/games/fan/new", json!({"deal": 9})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    server.stop().await;
    // The server wrote nothing into the file that took the old one's name.
    assert!(std::fs::read(&db.path).unwrap() == replacement);
}

#[tokio::test]
async fn a_schema_upgrade_at_start_keeps_a_copy_of_the_old_file() {
    let db = temp_db();
    Server::start(&db.path).await.stop().await;
    {
        // Back to version 3: the grades without the person-like columns, no
        // hint records, names or deals of the day.
        let store = patience_store::Store::open(&db.path).unwrap();
        store
            .execute_raw("ALTER TABLE grades DROP COLUMN person_wins")
            .unwrap();
        store
            .execute_raw("ALTER TABLE grades DROP COLUMN runs")
            .unwrap();
        store.execute_raw("DROP TABLE library_files").unwrap();
        store.execute_raw("DROP TABLE ruled_out").unwrap();
        store.execute_raw("DROP TABLE player_names").unwrap();
        store.execute_raw("DROP TABLE daily_deals").unwrap();
        store.execute_raw("DROP INDEX games_by_deal").unwrap();
        store
            .execute_raw("ALTER TABLE games DROP COLUMN hints_known")
            .unwrap();
        store.execute_raw("PRAGMA user_version = 3").unwrap();
    }
    Server::start(&db.path).await.stop().await;
    let mut backup = db.path.as_os_str().to_owned();
    backup.push(".v3.bak");
    assert!(Path::new(&backup).exists());
    let store = patience_store::Store::open(&db.path).unwrap();
    assert_eq!(
        store.schema_version().unwrap(),
        patience_store::SCHEMA_VERSION
    );
}

/// No spelling of the database's path starts a second server on it: not a
/// hard link, not a symbolic link.
#[tokio::test]
async fn a_second_server_through_a_link_to_the_file_refuses_to_start() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let dir = db.path.parent().unwrap();
    let hard = dir.join("hard.db");
    std::fs::hard_link(&db.path, &hard).unwrap();
    let soft = dir.join("soft.db");
    std::os::unix::fs::symlink(&db.path, &soft).unwrap();
    for link in [hard, soft] {
        let err = refusal(common::config(&link)).await;
        assert!(err.contains("another server"), "{}: {err}", link.display());
    }
    server.stop().await;
}

/// A backup put back in place of a lost database, beside the lost file's
/// write-ahead log, is refused with the files named: SQLite would replay
/// the newer log into the older copy and mix two moments.
#[tokio::test]
async fn a_restored_copy_beside_another_files_wal_is_refused() {
    let db = temp_db();
    let dir = db.path.parent().unwrap().to_path_buf();
    let aside = |suffix: &str| dir.join(format!("aside{suffix}"));
    let server = Server::start(&db.path).await;
    let mut p = Player::new(&server.url);
    let mut games = Vec::new();
    for deal in 1..=4 {
        let state = p.new_game("la-belle-lucie", deal).await;
        let (_, state) = p
            .play(&uid(&state), &first_legal(&state), version(&state))
            .await;
        games.push(state);
    }
    // A consistent copy taken while the server runs.
    let backup = dir.join("backup.db");
    let reader = patience_store::Store::open_existing(&db.path).unwrap();
    reader
        .execute_raw(&format!("VACUUM INTO '{}'", backup.display()))
        .unwrap();
    drop(reader);
    for state in &games {
        let (status, _) = p
            .play(&uid(state), &first_legal(state), version(state))
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    // What a crash leaves: the database file, its log and its index.
    for suffix in ["", "-wal", "-shm"] {
        let mut from = db.path.as_os_str().to_owned();
        from.push(suffix);
        std::fs::copy(&from, aside(suffix)).unwrap();
    }
    server.stop().await;
    // The file is lost; its log and index are still there, and the backup
    // goes back in its place.
    // (Moved rather than deleted, so that its inode number is not given to
    // the copy: a copy taken by another tool during the same run would then
    // pass; `patience store backup` stamps its own id, see store_command.rs.)
    std::fs::rename(&db.path, dir.join("lost.db")).unwrap();
    for suffix in ["-wal", "-shm"] {
        let mut to = db.path.as_os_str().to_owned();
        to.push(suffix);
        // A new file, not the old one overwritten: the stopped server's
        // connection may still map the old index while it closes, and
        // truncating a mapped file kills the process (SIGBUS).
        let _ = std::fs::remove_file(&to);
        std::fs::copy(aside(suffix), &to).unwrap();
    }
    std::fs::copy(&backup, &db.path).unwrap();
    let err = refusal(common::config(&db.path)).await;
    assert!(
        err.contains("patience.db-wal") && err.contains("patience.db"),
        "{err}"
    );
}
