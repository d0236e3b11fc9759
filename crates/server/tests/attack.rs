//! Hostile traffic, each case a failure a public site meets: a real server on
//! 127.0.0.1, every loop bounded in count and time.

mod common;

use common::{first_legal, moves, temp_db, uid, Player, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A cross-site form cannot act for a player, and a refused request never
/// replaces anyone's cookie.
#[tokio::test]
async fn another_sites_form_changes_nothing_and_sets_no_cookie() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let mut victim = Player::new(&server.url);
    let state = victim.new_game("fan", 3).await;
    let uid = uid(&state);
    let cookie = victim.cookie.clone().unwrap();
    let (status, _) = victim.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);

    let http = reqwest::Client::new();
    let body = format!(r#"{{"move": "{}", "expect": 1}}"#, first_legal(&state));
    let attempts: Vec<(&str, Vec<(&str, &str)>, StatusCode, &str)> = vec![
        // `<form enctype="text/plain">`: the browser's own content type.
        (
            "move",
            vec![("content-type", "text/plain")],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
        (
            "move",
            vec![("content-type", "application/x-www-form-urlencoded")],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
        (
            "undo",
            vec![],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
        (
            "undo",
            vec![
                ("content-type", "application/json"),
                ("sec-fetch-site", "cross-site"),
            ],
            StatusCode::FORBIDDEN,
            "cross_site",
        ),
        (
            "undo",
            vec![
                ("content-type", "application/json"),
                ("origin", "http://evil.example"),
            ],
            StatusCode::FORBIDDEN,
            "cross_site",
        ),
        (
            "undo",
            vec![("content-type", "text/plain"), ("origin", "null")],
            StatusCode::FORBIDDEN,
            "cross_site",
        ),
    ];
    for (action, headers, want, code) in attempts {
        // With the victim's cookie (a browser that sends it) and without (SameSite=Lax).
        for with_cookie in [true, false] {
            let mut req = http
                .post(format!("{}/api/play/{uid}/{action}", server.url))
                .body(if action == "move" {
                    body.clone()
                } else {
                    r#"{"expect": 1}"#.into()
                });
            if with_cookie {
                req = req.header("cookie", &cookie);
            }
            for (k, v) in &headers {
                req = req.header(*k, *v);
            }
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), want, "{action} {headers:?}");
            assert!(
                res.headers().get("set-cookie").is_none(),
                "{action} {headers:?}"
            );
            let answer: Value = res.json().await.unwrap();
            assert_eq!(answer["code"], json!(code));
        }
    }
    let (_, now) = victim.get(&format!("/api/play/{uid}")).await;
    assert_eq!(moves(&now), 1, "the game is as the victim left it");
    let (_, cont) = victim.get("/api/continue").await;
    assert_eq!(cont[0]["uid"], json!(uid));
    // The site's own page passes (same origin), as does curl (no browser headers).
    let host = server.url.trim_start_matches("http://").to_string();
    let origin = server.url.clone();
    let (status, _) = victim
        .post_with(
            &format!("/api/play/{uid}/undo"),
            &[
                ("content-type", "application/json"),
                ("origin", &origin),
                ("host", &host),
                ("sec-fetch-site", "same-origin"),
            ],
            r#"{"expect": 1}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

/// Only a created game makes a new player: an error answer sets no cookie.
#[tokio::test]
async fn a_new_player_cookie_comes_only_with_a_created_game() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let zero = "/api/play/00000000000000000000000000000000";
    let mut p = Player::new(&server.url);
    for (status, _) in [
        p.post(&format!("{zero}/hint"), json!({})).await,
        p.post(
            &format!("{zero}/move"),
            json!({"move": "deal", "expect": 0}),
        )
        .await,
        p.get(zero).await,
        p.get("/api/continue").await,
        p.get("/api/stats").await,
        p.post("/api/games/fan/new", json!({"deal": 0})).await,
        p.post("/api/games/nope/new", json!({})).await,
    ] {
        assert!(
            status.is_client_error() || status == StatusCode::OK,
            "{status}"
        );
        assert_eq!(p.cookie, None, "no cookie after {status}");
    }
    p.new_game("fan", 5).await;
    let cookie = p.cookie.clone().expect("a created game names its player");
    assert!(cookie.starts_with("patience_player="), "{cookie}");
    // The known player is never given another.
    p.new_game("fan", 6).await;
    assert_eq!(p.cookie.as_deref(), Some(cookie.as_str()));
    server.stop().await;
}

#[tokio::test]
async fn behind_a_tls_proxy_the_cookie_is_secure_and_host_only() {
    let db = temp_db();
    let server = Server::start_with(patience_server::Config {
        behind_tls_proxy: true,
        ..patience_server::Config::local(db.path.clone())
    })
    .await;
    let http = reqwest::Client::new();
    let res = http
        .post(format!("{}/api/games/fan/new", server.url))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let set = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        set.starts_with("__Host-patience_player=") && set.contains("; Secure"),
        "{set}"
    );
    let state: Value = res.json().await.unwrap();
    // A player from before the proxy keeps their games and moves to the secure name.
    let token = set
        .split(';')
        .next()
        .unwrap()
        .split('=')
        .nth(1)
        .unwrap()
        .to_string();
    let res = http
        .get(format!("{}/api/play/{}", server.url, uid(&state)))
        .header("cookie", format!("patience_player={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let moved = res.headers()["set-cookie"].to_str().unwrap();
    assert!(
        moved.starts_with(&format!("__Host-patience_player={token};")),
        "{moved}"
    );
    server.stop().await;
}

#[tokio::test]
async fn every_answer_forbids_framing_and_foreign_scripts() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let http = reqwest::Client::new();
    for path in ["/", "/api/games", "/static/app.js", "/api/nothing"] {
        let res = http
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .unwrap();
        let h = res.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
    }
    server.stop().await;
}
