//! Several servers on one PostgreSQL database behave as one site: a game
//! moves between them, a change is applied exactly once however two servers
//! race on it, no server answers from a stale copy, a lost connection gets
//! 503 and comes back by itself, and a database that cannot be used is
//! refused at start with one line. Each server here is a whole site of its
//! own (its own pool and its own games in memory) on a loopback port.

mod common;

use common::{first_legal, postgres_or_skip, uid, version, Player, Server};
use patience_store::Location;
use reqwest::StatusCode;
use serde_json::Value;

fn config(url: &str) -> patience_server::Config {
    patience_server::Config {
        library: common::small_library(),
        ..patience_server::Config::local(Location::Postgres(url.to_string()))
    }
}

async fn start(url: &str) -> Server {
    Server::start_with(config(url)).await
}

/// Why a server refuses to start on `url`.
async fn refusal(url: &str) -> String {
    match patience_server::bind(&config(url)).await {
        Ok(_) => panic!("a server started on {url}"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn a_game_made_on_one_server_is_played_on_another_and_read_on_a_third() {
    let Some(url) = postgres_or_skip("game_moves_between_servers").await else {
        return;
    };
    let (a, b, c) = (start(&url).await, start(&url).await, start(&url).await);
    let mut p = Player::new(&a.url);
    let state = p.new_game("la-belle-lucie", 11).await;
    let id = uid(&state);
    p.url = b.url.clone();
    let (status, on_b) = p.play(&id, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK, "{on_b}");
    p.url = c.url.clone();
    let (status, on_c) = p.get(&format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((on_c["moves"].as_u64(), version(&on_c)), (Some(1), 1));
    assert_eq!(on_c["piles"], on_b["piles"]);
    // Back on the first server, whose copy in memory is now old: it must
    // answer the game as the database has it, and take the next move.
    p.url = a.url.clone();
    let (status, on_a) = p.get(&format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(on_a["piles"], on_b["piles"]);
    let (status, _) = p.play(&id, &first_legal(&on_a), 1).await;
    assert_eq!(status, StatusCode::OK);
    // A write through the other server made from the old version is stale.
    p.url = b.url.clone();
    let (status, body) = p.play(&id, &first_legal(&on_a), 1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(version(&body["state"]), 2);
    // The continue list and the statistics are the site's, not a server's.
    p.url = c.url.clone();
    let (_, list) = p.get("/api/continue").await;
    assert_eq!(list[0]["uid"], Value::from(id.clone()));
    for s in [a, b, c] {
        s.stop().await;
    }
}

#[tokio::test]
async fn the_same_move_sent_to_two_servers_at_once_is_applied_once() {
    let Some(url) = postgres_or_skip("same_move_on_two_servers").await else {
        return;
    };
    let (a, b) = (start(&url).await, start(&url).await);
    let mut p = Player::new(&a.url);
    let mut state = p.new_game("la-belle-lucie", 5).await;
    let id = uid(&state);
    // Both servers hold the game in memory before the races begin.
    let mut on_b = p.clone();
    on_b.url = b.url.clone();
    on_b.get(&format!("/api/play/{id}")).await;
    let pairs = 200;
    for n in 0..pairs {
        let mv = if state["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            first_legal(&state)
        } else {
            break;
        };
        let expect = version(&state);
        let (mut x, mut y) = (p.clone(), on_b.clone());
        let (i1, i2, m1, m2) = (id.clone(), id.clone(), mv.clone(), mv);
        let one = tokio::spawn(async move { x.play(&i1, &m1, expect).await });
        let two = tokio::spawn(async move { y.play(&i2, &m2, expect).await });
        let (r1, r2) = (one.await.unwrap(), two.await.unwrap());
        let mut statuses = [r1.0, r2.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "pair {n}: {} / {}",
            r1.1,
            r2.1
        );
        state = if r1.0 == StatusCode::OK { r1.1 } else { r2.1 };
        // The game may end, or run out of moves: undo keeps the pairs going.
        if state["legal"].as_array().is_none_or(|l| l.is_empty()) {
            let (status, back) = p
                .post(
                    &format!("/api/play/{id}/undo"),
                    serde_json::json!({ "expect": version(&state) }),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            state = back;
        }
    }
    // Exactly one version step a pair (and one an undo): nothing doubled.
    let row = patience_store::PgStore::open(&url, 1)
        .await
        .unwrap()
        .load_game(&id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.version, version(&state));
    assert_eq!(row.move_count, state["moves"].as_u64().unwrap());
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn a_hint_served_by_one_server_is_seen_by_another_that_holds_the_game() {
    let Some(url) = postgres_or_skip("hint_seen_by_other_server").await else {
        return;
    };
    let (a, b) = (start(&url).await, start(&url).await);
    let mut p = Player::new(&a.url);
    let state = p.new_game("krug", 5).await;
    let id = uid(&state);
    let mut on_b = p.clone();
    on_b.url = b.url.clone();
    let (_, before) = on_b.get(&format!("/api/play/{id}")).await;
    assert_eq!(before["hinted"], Value::Bool(false));
    let (status, hint) = p
        .post(&format!("/api/play/{id}/hint"), serde_json::json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    // The second server's copy in memory predates the hint: the database's
    // record of it decides.
    let (_, after) = on_b.get(&format!("/api/play/{id}")).await;
    assert_eq!(after["hinted"], Value::Bool(true), "{after}");
    // The hint is no change of the position: the page's `expect` still holds.
    assert_eq!(version(&after), version(&state));
    let (status, _) = on_b.play(&id, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn a_lost_connection_gets_503_and_the_site_comes_back_by_itself() {
    let Some(url) = postgres_or_skip("lost_connection").await else {
        return;
    };
    let server = start(&url).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("fan", 4).await;
    let id = uid(&state);
    let name = url.rsplit('/').next().unwrap().to_string();
    let admin = patience_store::PgStore::open(&common::test_postgres().unwrap(), 1)
        .await
        .unwrap();
    // The database refuses new connections and drops the server's.
    admin
        .execute_raw(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"))
        .await
        .unwrap();
    admin
        .execute_raw(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        ))
        .await
        .unwrap();
    let (status, body) = p.play(&id, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["code"], "storage_failed");
    let (status, _) = p.get("/api/continue").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    admin
        .execute_raw(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"))
        .await
        .unwrap();
    // Nothing of the refused move was kept; the same move now goes through.
    let (status, now) = p.get(&format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{now}");
    assert_eq!(version(&now), 0);
    let (status, _) = p.play(&id, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn a_database_that_cannot_be_used_is_refused_at_start_in_one_line() {
    let Some(url) = postgres_or_skip("refused_at_start").await else {
        return;
    };
    let (head, tail) = url.split_once('@').unwrap();
    // Nothing listens on port 1 of the loopback address.
    let nothing = "postgres://patience:patience@127.0.0.1:1/x";
    let err = refusal(nothing).await;
    assert!(
        err.contains("cannot reach PostgreSQL") && !err.contains('\n'),
        "{err}"
    );
    assert!(
        !err.contains("patience:patience"),
        "the password is shown: {err}"
    );
    let wrong = format!("{}:wrong@{tail}", head.rsplit_once(':').unwrap().0);
    let err = refusal(&wrong).await;
    assert!(
        err.contains("refused the login") && !err.contains('\n'),
        "{err}"
    );
    assert!(!err.contains("wrong"), "the password is shown: {err}");
    // A schema newer than this build's.
    drop(start(&url).await);
    patience_store::PgStore::open(&url, 1)
        .await
        .unwrap()
        .execute_raw("UPDATE patience_schema SET version = 99")
        .await
        .unwrap();
    let err = refusal(&url).await;
    assert!(
        err.contains("schema version 99") && !err.contains('\n'),
        "{err}"
    );
}
