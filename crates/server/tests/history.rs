//! The player's lists (`/api/continue`, `/api/stats`, `/api/stats/games`)
//! through a real server over the store the run selects
//! ([`common::temp_store`]): kept until the player changes something (by a
//! server that owns its SQLite file), answered without a stored row that
//! cannot be read, and a deal started over counted as one game.

mod common;

use common::{first_legal, on_postgres, temp_store, uid, Player, Server, TestStore};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn fan(stats: &Value) -> Value {
    stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == json!("fan"))
        .unwrap()
        .clone()
}

/// Three games of Fan, each one move in, of a new player on
/// `server`; their uids, oldest first, once the lists have been read.
async fn three_games(server: &Server) -> (Player, Vec<String>) {
    let mut p = Player::new(&server.url);
    let mut uids = Vec::new();
    for deal in [11, 12, 13] {
        let s = p.new_game("fan", deal).await;
        let (status, _) = p.play(&uid(&s), &first_legal(&s), 0).await;
        assert_eq!(status, StatusCode::OK);
        uids.push(uid(&s));
    }
    let (_, list) = p.get("/api/continue").await;
    assert_eq!(list.as_array().unwrap().len(), 3);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(fan(&stats)["played"], json!(3));
    (p, uids)
}

/// The uids `/api/continue` lists, after a move of the player's (an undo of
/// their first game, which leaves it with no move) marked the lists stale.
async fn listed_after_a_change(p: &mut Player, uids: &[String]) -> Vec<String> {
    let (status, _) = p
        .post(&format!("/api/play/{}/undo", uids[0]), json!({"expect": 1}))
        .await;
    assert_eq!(status, StatusCode::OK);
    continued(p).await
}

/// `/api/stats` and `/api/stats/games` count one game played: the first
/// game was undone to no move, the second cannot be read.
async fn one_game_counted(p: &mut Player) {
    let (status, stats) = p.get("/api/stats").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(fan(&stats)["played"], json!(1));
    let (status, rows) = p.get("/api/stats/games").await;
    assert_eq!(
        (status, rows.as_array().unwrap().len()),
        (StatusCode::OK, 1)
    );
}

/// A level no store can read: the statistics, which read it, leave the
/// game out; "continue", which does not, still lists it.
#[tokio::test]
async fn one_row_with_an_unreadable_level_leaves_the_rest_answered() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let (mut p, uids) = three_games(&server).await;
    // Another connection damages one row, as a failing disk or a hand edit might.
    damage(&db, "level = 'many'", &uids[1]).await;
    // Kept until the player changes something (by a server that owns its
    // file: a shared PostgreSQL database is read every time).
    let (_, stats) = p.get("/api/stats").await;
    let played = if on_postgres() { 2 } else { 3 };
    assert_eq!(fan(&stats)["played"], json!(played));
    let listed = listed_after_a_change(&mut p, &uids).await;
    assert_eq!(listed, [uids[2].as_str(), uids[1].as_str()]);
    one_game_counted(&mut p).await;
    // A server started afresh, with nothing in memory: the listed game
    // that cannot be read is refused with a clear answer, the others open.
    server.stop().await;
    let server = Server::start_with(db.config()).await;
    p.url = server.url.clone();
    let (status, body) = p.get(&format!("/api/play/{}", uids[1])).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::INTERNAL_SERVER_ERROR, Some("storage_failed")),
        "{body}"
    );
    let (status, body) = p.get(&format!("/api/play/{}", uids[2])).await;
    assert_eq!((status, body["moves"].as_u64()), (StatusCode::OK, Some(1)));
    server.stop().await;
}

/// A move count that is not a number: every list leaves the game out.
#[tokio::test]
async fn one_row_with_an_unreadable_count_leaves_the_rest_answered() {
    // SQLite only: a PostgreSQL column holds nothing but its own type.
    if common::sqlite_only("one_row_with_an_unreadable_count_leaves_the_rest_answered") {
        return;
    }
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let (mut p, uids) = three_games(&server).await;
    damage(&db, "move_count = 'many'", &uids[1]).await;
    // Kept until the player changes something: the same answer, no read.
    let (_, kept) = p.get("/api/continue").await;
    assert_eq!(kept.as_array().unwrap().len(), 3);
    let listed = listed_after_a_change(&mut p, &uids).await;
    assert_eq!(
        listed,
        [uids[2].as_str()],
        "the undone game has no move; the damaged one is left out"
    );
    one_game_counted(&mut p).await;
    server.stop().await;
}

/// Sets `set` in the row of the game `uid`, on a connection of its own.
async fn damage(db: &TestStore, set: &str, uid: &str) {
    db.execute_raw(&format!("UPDATE games SET {set} WHERE uid = '{uid}'"))
        .await;
}

#[tokio::test]
async fn a_deal_started_over_is_one_game_played() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let first = p.new_game("fan", 21).await;
    let (status, _) = p.play(&uid(&first), &first_legal(&first), 0).await;
    assert_eq!(status, StatusCode::OK);
    // Started over, and a move made in the fresh game: still one game.
    let (status, again) = p
        .post(&format!("/api/play/{}/restart", uid(&first)), json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_ne!(uid(&again), uid(&first));
    let (status, _) = p.play(&uid(&again), &first_legal(&again), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(
        (fan(&stats)["played"].clone(), fan(&stats)["won"].clone()),
        (json!(1), json!(0))
    );
    let (_, rows) = p.get("/api/stats/games").await;
    assert_eq!(rows.as_array().unwrap().len(), 1);
    // "Continue" offers the fresh try alone: the abandoned one is not in progress.
    assert_eq!(continued(&mut p).await, [uid(&again)]);
    // The deal's link (a new game of the same deal) is starting over too.
    let third = p.new_game("fan", 21).await;
    let (status, _) = p.play(&uid(&third), &first_legal(&third), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(fan(&stats)["played"], json!(1));
    assert_eq!(continued(&mut p).await, [uid(&third)]);
    // Another deal: the first one was abandoned, a second game played.
    let other = p.new_game("fan", 22).await;
    let (status, _) = p.play(&uid(&other), &first_legal(&other), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(fan(&stats)["played"], json!(2));
    assert_eq!(continued(&mut p).await, [uid(&other), uid(&third)]);
    server.stop().await;
}

/// The uids `/api/continue` lists, newest first.
async fn continued(p: &mut Player) -> Vec<String> {
    let (status, list) = p.get("/api/continue").await;
    assert_eq!(status, StatusCode::OK);
    list.as_array()
        .unwrap()
        .iter()
        .map(|g| g["uid"].as_str().unwrap().to_string())
        .collect()
}
