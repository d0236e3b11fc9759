//! `patience store copy` of a site filled through its real server (a
//! SQLite file): games with moves, an undo, a hint, a game won without
//! hints, a display name and a deal of the day, for two players. The copy
//! goes into a fresh PostgreSQL database (`PATIENCE_TEST_POSTGRES`), is
//! refused a second time into the same database unless given `--replace`,
//! and a server on the copy answers every player's statistics, games in
//! progress, records, name, deals of the day and games as the server on the
//! SQLite file does.

mod common;

use std::process::Child;

use patience_engine::Game;
use reqwest::StatusCode;
use serde_json::{json, Value};

use common::{fresh_postgres_database, patience, serve};

/// The site's date, fixed so that both servers offer the same days.
const TODAY: &str = "2026-03-15";

/// One browser: a player cookie, set by the first game it makes.
struct Player {
    http: reqwest::Client,
    cookie: Option<String>,
}

impl Player {
    fn new() -> Player {
        Player {
            http: reqwest::Client::new(),
            cookie: None,
        }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let req = match &self.cookie {
            Some(c) => req.header("cookie", c.clone()),
            None => req,
        };
        let res = req.send().await.expect("the request goes through");
        if let Some(set) = res.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            self.cookie = Some(pair.to_string());
        }
        let status = res.status();
        let text = res.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn get(&mut self, addr: &str, path: &str) -> Value {
        let req = self.http.get(format!("http://{addr}{path}"));
        let (status, body) = self.send(req).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        body
    }

    async fn post(&mut self, addr: &str, path: &str, body: Value) -> Value {
        let req = self
            .http
            .post(format!("http://{addr}{path}"))
            .header("content-type", "application/json")
            .body(body.to_string());
        let (status, answer) = self.send(req).await;
        assert!(status.is_success(), "POST {path}: {status} {answer}");
        answer
    }

    async fn new_game(&mut self, addr: &str, game: &str, deal: u64) -> Value {
        self.post(
            addr,
            &format!("/api/games/{game}/new"),
            json!({ "deal": deal }),
        )
        .await
    }

    /// Plays `mv` on the game of `state`: the state after it.
    async fn play(&mut self, addr: &str, state: &Value, mv: &str) -> Value {
        let path = format!("/api/play/{}/move", state["uid"].as_str().unwrap());
        self.post(
            addr,
            &path,
            json!({ "move": mv, "expect": state["version"] }),
        )
        .await
    }

    /// Plays the first legal move `n` times.
    async fn play_first(&mut self, addr: &str, mut state: Value, n: usize) -> Value {
        for _ in 0..n {
            let mv = state["legal"][0]["move"].as_str().unwrap().to_string();
            state = self.play(addr, &state, &mv).await;
        }
        state
    }

    async fn undo(&mut self, addr: &str, state: &Value) -> Value {
        let path = format!("/api/play/{}/undo", state["uid"].as_str().unwrap());
        self.post(addr, &path, json!({ "expect": state["version"] }))
            .await
    }
}

/// A deal of `game` among the first few that the solver wins, with its winning line.
fn won_deal(game: &str) -> (u64, Vec<String>) {
    let spec = patience_engine::game(game).unwrap();
    for deal in 1..30 {
        let g = Game::new(spec, deal).unwrap();
        let budget = patience_solver::Budget {
            time: Some(std::time::Duration::from_secs(2)),
            ..Default::default()
        };
        let report = patience_solver::solve(g.position(), &budget);
        if let patience_solver::Outcome::Win(line) = report.outcome {
            let layout = *g.position().layout();
            return (deal, line.iter().map(|m| m.text(&layout)).collect());
        }
    }
    panic!("no deal of {game} among the first 30 is won by the solver");
}

fn stop(mut child: Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

/// What a player reads of the site, path by path. A game's clock, which
/// counts the time since the server loaded it, is set apart.
async fn read_all(
    p: &mut Player,
    addr: &str,
    paths: &[String],
) -> Vec<(String, Value, Option<i64>)> {
    let mut out = Vec::new();
    for path in paths {
        let mut body = p.get(addr, path).await;
        let clock = body
            .as_object_mut()
            .and_then(|o| o.remove("elapsed_ms"))
            .and_then(|v| v.as_i64());
        out.push((path.clone(), body, clock));
    }
    out
}

#[test]
fn a_site_copied_into_postgresql_reads_the_same_there() {
    let Some(url) = fresh_postgres_database("store_copy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("site.db");
    let db_arg = db.to_str().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let won_game = "la-belle-lucie";
    let (deal_won, line) = won_deal(won_game);

    let (server, addr) = serve(db_arg, &["--today", TODAY]).unwrap();
    let (mut anna, mut boris) = (Player::new(), Player::new());
    let (uids, daily) = runtime.block_on(async {
        let mut uids = Vec::new();
        // Anna: moves, an undo and a hint in one game; a win without hints
        // in another; a name; the deal of the day, begun.
        let state = anna.new_game(&addr, "krug", 5).await;
        let hint = anna
            .post(
                &addr,
                &format!("/api/play/{}/hint", state["uid"].as_str().unwrap()),
                json!({}),
            )
            .await;
        let state = anna
            .play(&addr, &state, hint["move"].as_str().expect("a hinted move"))
            .await;
        let state = anna.play_first(&addr, state, 2).await;
        let state = anna.undo(&addr, &state).await;
        uids.push(state["uid"].as_str().unwrap().to_string());
        let mut state = anna.new_game(&addr, won_game, deal_won).await;
        for mv in &line {
            state = anna.play(&addr, &state, mv).await;
        }
        assert_eq!(state["won"], Value::Bool(true), "{state}");
        uids.push(state["uid"].as_str().unwrap().to_string());
        let me = anna.post(&addr, "/api/me", json!({ "name": "Анна" })).await;
        assert_eq!(me["name"], "Анна");
        let today = anna.get(&addr, "/api/daily").await;
        let daily = today["games"][0].clone();
        let game = daily["game"].as_str().unwrap().to_string();
        let state = anna
            .new_game(&addr, &game, daily["deal"].as_u64().unwrap())
            .await;
        let state = anna.play_first(&addr, state, 2).await;
        uids.push(state["uid"].as_str().unwrap().to_string());
        // Boris: two games, one with its last move undone (a redo list).
        let state = boris.new_game(&addr, "fan", 4).await;
        let state = boris.play_first(&addr, state, 2).await;
        uids.push(state["uid"].as_str().unwrap().to_string());
        let state = boris.new_game(&addr, "krug", 5).await;
        let state = boris.play_first(&addr, state, 4).await;
        let state = boris.undo(&addr, &state).await;
        uids.push(state["uid"].as_str().unwrap().to_string());
        (uids, daily)
    });
    stop(server);

    let copy = |extra: &[&str]| {
        let mut args = vec!["store", "copy", "--from", db_arg, "--to", url.as_str()];
        args.extend_from_slice(extra);
        patience(&args, None)
    };
    let o = copy(&[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("the counts match"), "{out}");
    assert!(
        out.contains("games 5,") && out.contains("player_names 1,"),
        "{out}"
    );
    let o = copy(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "a second copy into the same database went through"
    );
    assert!(
        err.contains("not empty") && err.contains("--replace"),
        "{err}"
    );
    let o = copy(&["--replace"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let (source, from) = serve(db_arg, &["--today", TODAY]).unwrap();
    let (target, to) = serve(&url, &["--today", TODAY]).unwrap();
    let mut paths: Vec<String> = [
        "/api/stats",
        "/api/stats/games",
        "/api/continue",
        "/api/me",
        "/api/daily",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    paths.push(format!("/api/records/{won_game}/{deal_won}"));
    paths.push(format!("/api/daily/{}", daily["game"].as_str().unwrap()));
    // Each player reads the site's pages and their own games (Anna's three
    // come first); another's game is "no such game" on both stores.
    let games = |own: &[String]| -> Vec<String> {
        let mut all = paths.clone();
        all.extend(own.iter().map(|u| format!("/api/play/{u}")));
        all
    };
    let (anna_paths, boris_paths) = (games(&uids[..3]), games(&uids[3..]));
    runtime.block_on(async {
        for (who, p, paths) in [
            ("anna", &mut anna, &anna_paths),
            ("boris", &mut boris, &boris_paths),
        ] {
            let on_sqlite = read_all(p, &from, paths).await;
            let on_postgres = read_all(p, &to, paths).await;
            for ((path, a, a_ms), (_, b, b_ms)) in on_sqlite.iter().zip(&on_postgres) {
                assert_eq!(a, b, "{who}: {path} reads differently on the copy");
                if let (Some(a_ms), Some(b_ms)) = (a_ms, b_ms) {
                    assert!(
                        (a_ms - b_ms).abs() < 5_000,
                        "{who}: {path}: {a_ms} vs {b_ms} ms"
                    );
                }
            }
        }
        // What the copy holds is what was played: a sample of it, by hand.
        let stats = anna.get(&to, "/api/stats").await.to_string();
        assert!(stats.contains(won_game), "{stats}");
        let records = anna
            .get(&to, &format!("/api/records/{won_game}/{deal_won}"))
            .await
            .to_string();
        assert!(records.contains("Анна"), "{records}");
        let hinted = anna.get(&to, &format!("/api/play/{}", uids[0])).await;
        assert_eq!(
            (hinted["hinted"].clone(), hinted["plies"].clone()),
            (json!(true), json!(2))
        );
        let redo = boris.get(&to, &format!("/api/play/{}", uids[4])).await;
        assert_eq!(redo["can_redo"], Value::Bool(true), "{redo}");
    });
    stop(source);
    stop(target);
}
