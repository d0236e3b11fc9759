//! The player's lists (`/api/continue`, `/api/stats`, `/api/stats/games`)
//! through a real server: kept until the player changes something, and
//! answered without a stored row that cannot be read.

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
