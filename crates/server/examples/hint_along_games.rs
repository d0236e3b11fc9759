//! Hint latency along played games, with the background solver of the
//! status line, as the page plays: after every move the page asks for the
//! analysis and the player thinks until it has answered; then the hint is
//! asked and timed.
//!
//! `cargo run -p patience-server --example hint_along_games [DEALS] [EVERY] [GAME ...]`
//!
//! A real server on 127.0.0.1 with a temporary database. For each game
//! (or each GAME named),
//! deals 1..=DEALS (default 3) are played with Auto-move on by the
//! person-like player of the levels (a random legal move where it sees
//! none), up to 300 moves; every EVERY-th position (default 2) is hinted.
//! Prints per game the hint's p50, p95, p99 and largest wall time, the share
//! under 100 ms, and how long the analysis took to answer (p50, p95) with its
//! verdicts (win, no win, unknown).

use std::time::{Duration, Instant};

use patience_engine::prng::SplitMix64;
use patience_engine::{games, Move, Position};
use patience_solver::levels::PersonPlayer;
use patience_solver::stats::percentile;
use serde_json::{json, Value};

#[path = "../../solver/examples/common/walk.rs"]
mod walk;
use walk::pick;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

async fn post(http: &reqwest::Client, url: String, body: Value) -> Value {
    let res = http.post(url).json(&body).send().await.expect("request");
    res.json().await.expect("json")
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let deals = args.first().copied().unwrap_or(3);
    let every = args.get(1).copied().unwrap_or(2).max(1);
    // Game ids among the arguments keep the run to those games.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<u64>().is_err())
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("hints.db");
    runtime.block_on(async move {
        let bound = patience_server::bind(&patience_server::Config::local(db))
            .await
            .expect("server binds");
        let base = format!("http://{}", bound.local_addr().expect("address"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(bound.run(async {
            let _ = stopped.await;
        }));
        // One player throughout: the cookie of a first new game, sent with every request.
        let first = reqwest::Client::new()
            .post(format!("{base}/api/games/fan/new"))
            .json(&json!({}))
            .send()
            .await
            .expect("a new game");
        let cookie = first
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .expect("a player cookie")
            .to_string();
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(reqwest::header::COOKIE, cookie.parse().expect("cookie"));
        let http = reqwest::Client::builder().default_headers(headers).build().expect("client");
        println!(
            "{:<24} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7}  {:>9} {:>9}  win/lost/unknown",
            "game", "hints", "p50 ms", "p95 ms", "p99 ms", "max ms", "<100ms", "solve p50", "solve p95"
        );
        let mut all = Vec::new();
        for g in games().iter().filter(|g| only.is_empty() || only.iter().any(|o| o == g.id)) {
            let mut hints = Vec::new();
            let mut solved = Vec::new();
            let (mut win, mut lost, mut unknown) = (0, 0, 0);
            for deal in 1..=deals {
                let s = post(&http, format!("{base}/api/games/{}/new", g.id), json!({"deal": deal})).await;
                let uid = s["uid"].as_str().expect("uid").to_string();
                let mut version = s["version"].as_u64().unwrap_or(0);
                let mut pos = Position::deal(g, deal).expect("deal");
                let mut player = PersonPlayer::new(deal);
                let mut rng = SplitMix64::new(deal);
                for ply in 0..300u64 {
                    if pos.is_won() {
                        break;
                    }
                    // The status line: ask, then wait for news until the answer is final.
                    let t0 = Instant::now();
                    let mut seen: Option<u64> = None;
                    let verdict = loop {
                        let q = seen.map_or(String::new(), |s| format!("&seen={s}"));
                        let a: Value = http
                            .get(format!("{base}/api/play/{uid}/analysis?auto=true{q}"))
                            .send()
                            .await
                            .expect("analysis")
                            .json()
                            .await
                            .expect("json");
                        let status = a["status"].as_str().unwrap_or("").to_string();
                        if status != "thinking" || a["done"] == true {
                            break status;
                        }
                        seen = a["seq"].as_u64();
                    };
                    solved.push(t0.elapsed());
                    match verdict.as_str() {
                        "win" => win += 1,
                        "no-win" => lost += 1,
                        _ => unknown += 1,
                    }
                    if ply % every == 0 {
                        let t = Instant::now();
                        post(&http, format!("{base}/api/play/{uid}/hint"), json!({"auto": true})).await;
                        hints.push(t.elapsed());
                    }
                    let Some(mv) = pick(&pos, &mut player, &mut rng) else {
                        break;
                    };
                    let text = mv.text(pos.layout());
                    let next = post(
                        &http,
                        format!("{base}/api/play/{uid}/move"),
                        json!({"move": text, "expect": version, "auto": true}),
                    )
                    .await;
                    let Some(played) = next["played"].as_array() else {
                        break;
                    };
                    for p in played {
                        let m = Move::parse(p["move"].as_str().unwrap_or(""), pos.layout()).expect("a move");
                        pos.apply(m).expect("the server's move is legal");
                    }
                    version = next["version"].as_u64().unwrap_or(version);
                }
            }
            hints.sort();
            solved.sort();
            let under = hints.iter().filter(|d| ms(**d) < 100.0).count();
            println!(
                "{:<24} {:>5} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>6.1}%  {:>7.0}ms {:>7.0}ms  {win}/{lost}/{unknown}",
                g.id,
                hints.len(),
                ms(percentile(&hints, 0.5)),
                ms(percentile(&hints, 0.95)),
                ms(percentile(&hints, 0.99)),
                ms(hints.last().copied().unwrap_or_default()),
                100.0 * under as f64 / hints.len().max(1) as f64,
                ms(percentile(&solved, 0.5)),
                ms(percentile(&solved, 0.95)),
            );
            all.extend(hints);
        }
        all.sort();
        let under = all.iter().filter(|d| ms(**d) < 100.0).count();
        println!(
            "{:<24} {:>5} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>6.1}%",
            "all",
            all.len(),
            ms(percentile(&all, 0.5)),
            ms(percentile(&all, 0.95)),
            ms(percentile(&all, 0.99)),
            ms(all.last().copied().unwrap_or_default()),
            100.0 * under as f64 / all.len().max(1) as f64,
        );
        let _ = stop.send(());
        let _ = task.await;
    });
}
