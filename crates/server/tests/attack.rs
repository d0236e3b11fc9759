//! Hostile traffic, each case a failure a public site meets: a real server on
//! 127.0.0.1 over the store the run selects ([`common::temp_store`]), every
//! loop bounded in count and time.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{first_legal, moves, reversible_pair, sqlite_only, temp_store, uid, Player, Server};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// An action, the headers sent with it, and the status and code it must get.
type Attempt = (
    &'static str,
    Vec<(&'static str, &'static str)>,
    StatusCode,
    &'static str,
);

/// A cross-site form cannot act for a player, and a refused request never
/// replaces anyone's cookie.
#[tokio::test]
async fn another_sites_form_changes_nothing_and_sets_no_cookie() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut victim = Player::new(&server.url);
    let state = victim.new_game("fan", 3).await;
    let uid = uid(&state);
    let cookie = victim.cookie.clone().unwrap();
    let (status, _) = victim.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);

    let http = reqwest::Client::new();
    let body = format!(r#"{{"move": "{}", "expect": 1}}"#, first_legal(&state));
    let attempts: Vec<Attempt> = vec![
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
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
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
    let db = temp_store().await;
    let server = Server::start_with(patience_server::Config {
        behind_tls_proxy: true,
        ..db.config()
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
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
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

/// One client cannot fill the disk with games: past a minute's allowance
/// new games get 429 with `Retry-After`, per player and per address.
#[tokio::test]
async fn new_games_are_limited_per_player_and_per_address() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let allowance = u64::from(patience_server::limits::GAMES_PER_PLAYER_MINUTE);
    let started = std::time::Instant::now();
    let mut created = 0;
    let refused = loop {
        let res = p.post("/api/games/fan/new", json!({"deal": 1})).await;
        if res.0 != StatusCode::CREATED {
            break res;
        }
        created += 1;
        assert!(created <= 2 * allowance, "no limit in sight");
    };
    // The minute's allowance, plus what the bucket refilled meanwhile (one a
    // second) on a slow machine.
    let refilled = started.elapsed().as_secs() * allowance / 60;
    assert!(
        (allowance..=allowance + refilled).contains(&created),
        "{created} games in {:?}",
        started.elapsed()
    );
    assert_eq!(refused.0, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.1["code"], json!("rate_limited"));
    server.stop().await;

    let db = temp_store().await;
    let server = Server::start_with(patience_server::Config {
        games_per_address_minute: 5,
        ..db.config()
    })
    .await;
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for _ in 0..7 {
        // A new player each time (no cookie): only the address limit applies.
        let res = http
            .post(format!("{}/api/games/fan/new", server.url))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            let wait: u64 = res.headers()["retry-after"]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((1..=60).contains(&wait), "{wait}");
        }
        statuses.push(res.status().as_u16());
    }
    assert_eq!(statuses, [201, 201, 201, 201, 201, 429, 429]);
    server.stop().await;
}

/// A game's record cannot grow without bound: the ping-pong record is
/// refused at the cap with 422 `move_limit`, and what was played is kept.
#[tokio::test]
async fn a_ping_pong_record_is_refused_at_the_move_cap() {
    let (game, deal, there, back) = reversible_pair();
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game(game, deal).await;
    let uid = uid(&state);
    let cap = patience_store::MAX_MOVES;
    for n in 0..cap {
        let mv = if n % 2 == 0 { &there } else { &back };
        let (status, s) = p.play(&uid, mv, n).await;
        assert_eq!(status, StatusCode::OK, "move {n}: {s}");
    }
    let (status, body) = p.play(&uid, &there, cap).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], json!("move_limit"));
    let (_, now) = p.get(&format!("/api/play/{uid}")).await;
    assert_eq!(moves(&now), cap);
    server.stop().await;
    let row = db.load_game(&uid).await;
    assert_eq!(row.moves.split(' ').count() as u64, cap);
}

/// Undo then another move brings the move count back to what a stale tab
/// believes; the version does not come back, so that tab's move gets 409.
#[tokio::test]
async fn a_stale_tab_after_undo_then_move_gets_409() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("la-belle-lucie", 5).await;
    let uid = uid(&state);
    let (_, s1) = p.play(&uid, &first_legal(&state), 0).await;
    // Tab B last saw s1 (one move, version 1).
    let b_version = common::version(&s1);
    let (_, s2) = p
        .post(
            &format!("/api/play/{uid}/undo"),
            json!({"expect": b_version}),
        )
        .await;
    let legal: Vec<String> = s2["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let other = legal.iter().find(|m| **m != first_legal(&state)).unwrap();
    let (status, s3) = p.play(&uid, other, common::version(&s2)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        moves(&s3),
        moves(&s1),
        "the count is back where tab B saw it"
    );
    let b_move = first_legal(&s1);
    let (status, body) = p.play(&uid, &b_move, b_version).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], json!("stale"));
    assert_eq!(body["state"]["piles"], s3["piles"]);
    server.stop().await;
}

/// Writes that never stop do not grow the WAL without bound: players
/// playing and undoing as fast as they can for a few seconds leave it
/// under 64 MB (the writer empties it past a few MB).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_stays_bounded_under_nonstop_writes() {
    // SQLite only: PostgreSQL keeps its own write-ahead log.
    if sqlite_only("the_wal_stays_bounded_under_nonstop_writes") {
        return;
    }
    let (game, deal, there, back) = reversible_pair();
    let db = common::temp_db();
    let server = Server::start(&db.path).await;
    let wal = {
        let mut w = db.path.as_os_str().to_owned();
        w.push("-wal");
        std::path::PathBuf::from(w)
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(8);
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let url = server.url.clone();
        let (there, back) = (there.clone(), back.clone());
        tasks.push(tokio::spawn(async move {
            let mut p = Player::new(&url);
            let mut writes = 0u64;
            while std::time::Instant::now() < until {
                let state = p.new_game(game, deal).await;
                let uid = uid(&state);
                for n in 0..patience_store::MAX_MOVES {
                    if std::time::Instant::now() >= until {
                        break;
                    }
                    let mv = if n % 2 == 0 { &there } else { &back };
                    let (status, _) = p.play(&uid, mv, n).await;
                    assert_eq!(status, StatusCode::OK);
                    writes += 1;
                }
            }
            writes
        }));
    }
    let mut largest = 0;
    while std::time::Instant::now() < until {
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let mut writes = 0;
    for t in tasks {
        writes += t.await.unwrap();
    }
    println!(
        "{writes} writes; largest WAL {:.1} MB",
        largest as f64 / 1e6
    );
    assert!(
        writes > 1000,
        "{writes} writes: the test did not write much"
    );
    assert!(largest < 64 * 1024 * 1024, "WAL reached {largest} bytes");
    server.stop().await;
}

/// Two servers on one file would each trust their own copy of a game: the
/// second is refused at start, with the reason.
#[tokio::test]
async fn a_second_server_on_the_same_database_refuses_to_start() {
    // SQLite only: servers share a PostgreSQL database by design.
    if sqlite_only("a_second_server_on_the_same_database_refuses_to_start") {
        return;
    }
    let db = common::temp_db();
    let server = Server::start(&db.path).await;
    let second = patience_server::bind(&patience_server::Config::local(db.path.clone())).await;
    let err = second
        .err()
        .expect("the second server must not start")
        .to_string();
    assert!(err.contains("another server is already using"), "{err}");
    server.stop().await;
}

/// A burst of statistics and "continue" reads from a player with many games
/// waits for the server's few database connections instead of opening one
/// each: every one is answered, the statistics read the newest
/// [`STATS_GAMES`](patience_store::STATS_GAMES) games only, and the
/// database is never open more than a fixed pool needs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_statistics_reads_is_answered_in_full() {
    let db = temp_store().await;
    let token = "5eed".repeat(8);
    let many = patience_store::STATS_GAMES as u64 + 500;
    db.store_games(&token, many).await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    p.cookie = Some(format!("patience_player={token}"));
    let watching = Arc::new(AtomicBool::new(true));
    let watcher = {
        let watching = watching.clone();
        let (path, postgres) = (db.sqlite.path.clone(), db.postgres.clone());
        tokio::spawn(async move {
            let sessions = match postgres {
                Some(url) => Some(Sessions::connect(&url).await),
                None => None,
            };
            let mut most = 0;
            while watching.load(Ordering::Relaxed) {
                let now = match &sessions {
                    Some(s) => s.count().await,
                    None => open_files(&path),
                };
                most = most.max(now);
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            most
        })
    };
    let reads = (0..120).map(|i| {
        let mut p = p.clone();
        tokio::spawn(async move {
            let path = if i % 2 == 0 {
                "/api/stats"
            } else {
                "/api/continue"
            };
            let (status, body) = p.get(path).await;
            (status, path, body)
        })
    });
    let mut answered = 0;
    for r in reads.collect::<Vec<_>>() {
        let (status, path, body) = r.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        let list = body.as_array().unwrap();
        match path {
            "/api/continue" => assert_eq!(list.len(), 20),
            _ => {
                let fan = list.iter().find(|g| g["game"] == json!("fan")).unwrap();
                assert_eq!(fan["played"], json!(patience_store::STATS_GAMES));
            }
        }
        answered += 1;
    }
    assert_eq!(answered, 120);
    watching.store(false, Ordering::Relaxed);
    let most = watcher.await.unwrap();
    assert!(most >= 1, "the watcher never saw the database open");
    println!("the database was open {most} times at once at most");
    // SQLite: a few readers, the writer and the checkpointer; PostgreSQL:
    // the server's pool. A fixed pool, not a connection per read.
    let pool = if common::on_postgres() {
        patience_store::postgres::CONNECTIONS
    } else {
        8
    };
    assert!(most <= pool, "the database was open {most} times at once");
    server.stop().await;
}

/// A connection of the test's own to a PostgreSQL database, which counts
/// the database's other sessions.
struct Sessions(tokio_postgres::Client);

impl Sessions {
    async fn connect(url: &str) -> Sessions {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("the test PostgreSQL server answers");
        tokio::spawn(conn);
        Sessions(client)
    }

    /// The client sessions open on the database, this one left out. The
    /// server's own background workers (an autovacuum worker cleaning the
    /// seeded tables, say) are sessions on the database too, but no
    /// client's: they are left out as well.
    async fn count(&self) -> usize {
        let row = self
            .0
            .query_one(
                "SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND backend_type = 'client backend'",
                &[],
            )
            .await
            .unwrap();
        row.get::<_, i64>(0) as usize
    }
}

/// How many times this process has `path` open.
fn open_files(path: &std::path::Path) -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |fds| {
        fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .filter(|target| target == path)
            .count()
    })
}

/// Two tabs sending the same change at the same moment, pair after pair (a
/// move, then an undo): each pair applies exactly once, the other tab gets
/// 409, and the game's version grows by one a pair.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tabs_racing_pair_after_pair_apply_each_change_once() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut state = p.new_game("la-belle-lucie", 7).await;
    let uid = uid(&state);
    let start = common::version(&state);
    let pairs = 60;
    for n in 0..pairs {
        let expect = common::version(&state);
        let (path, body) = if n % 2 == 0 {
            (
                "move",
                json!({"move": first_legal(&state), "expect": expect}),
            )
        } else {
            ("undo", json!({"expect": expect}))
        };
        let path = format!("/api/play/{uid}/{path}");
        let (mut a, mut b) = (p.clone(), p.clone());
        let ((sa, va), (sb, vb)) =
            tokio::join!(a.post(&path, body.clone()), b.post(&path, body.clone()));
        state = match (sa, sb) {
            (StatusCode::OK, StatusCode::CONFLICT) => va,
            (StatusCode::CONFLICT, StatusCode::OK) => vb,
            other => panic!("pair {n}: {other:?} {va} {vb}"),
        };
    }
    assert_eq!(common::version(&state), start + pairs);
    server.stop().await;
    let row = db.load_game(&uid).await;
    assert_eq!((row.version, row.move_count), (start + pairs, 0));
}
