//! The player's lists (`/api/continue`, `/api/stats`, `/api/stats/games`)
//! through a real server: kept until the player changes something,
//! answered without a stored row that cannot be read, and a deal started
//! over counted as one game.

mod common;

use common::{first_legal, temp_db, uid, Player, Server};
use patience_store::Store;
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

#[tokio::test]
async fn one_unreadable_row_leaves_the_rest_answered() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
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

    // Another connection damages one row, as a failing disk or a hand edit might.
    Store::open_existing(&db.path)
        .unwrap()
        .execute_raw(&format!(
            "UPDATE games SET move_count = 'many' WHERE uid = '{}'",
            uids[1]
        ))
        .unwrap();
    // Kept until the player changes something: the same answer, no read.
    let (_, kept) = p.get("/api/continue").await;
    assert_eq!(kept.as_array().unwrap().len(), 3);
    // A move of the player's marks the lists stale; they are read again.
    let (status, _) = p
        .post(&format!("/api/play/{}/undo", uids[0]), json!({"expect": 1}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, list) = p.get("/api/continue").await;
    assert_eq!(status, StatusCode::OK);
    let listed: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["uid"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [uids[2].as_str()],
        "the undone game has no move; the damaged one is left out"
    );
    let (status, stats) = p.get("/api/stats").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(fan(&stats)["played"], json!(1));
    let (status, rows) = p.get("/api/stats/games").await;
    assert_eq!(
        (status, rows.as_array().unwrap().len()),
        (StatusCode::OK, 1)
    );
    server.stop().await;
}

#[tokio::test]
async fn a_deal_started_over_is_one_game_played() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
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
    // The deal's link (a new game of the same deal) is starting over too.
    let third = p.new_game("fan", 21).await;
    let (status, _) = p.play(&uid(&third), &first_legal(&third), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(fan(&stats)["played"], json!(1));
    // Another deal: the first one was abandoned, a second game played.
    let other = p.new_game("fan", 22).await;
    let (status, _) = p.play(&uid(&other), &first_legal(&other), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, stats) = p.get("/api/stats").await;
    assert_eq!(fan(&stats)["played"], json!(2));
    server.stop().await;
}
