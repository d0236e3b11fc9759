//! Hint benchmark: how long a player who asks now and then waits for a hint
//! while other players ask for hints in a loop.
//!
//! Starts the server in this process on 127.0.0.1 (a free port) over a fresh
//! SQLite file. `--loopers` players (default 16) each start a Krakowski game
//! on a deal where a hint's search spends its whole budget, and ask for a
//! hint again the moment the last one is answered (20 ms after a refusal),
//! until the run ends. After `--ramp` seconds (default 3) one more player
//! starts such a game and asks `--hints` hints (default 5), `--pause`
//! seconds apart (default 1.5), each on a new game so that no kept line
//! answers it. Prints that player's answers (status and time), their median
//! and slowest, and how the loops fared.
//!
//! `bench/hints/run.sh` runs it in release mode.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use patience_solver::stats::percentile;
use serde_json::{json, Value};

/// Krakowski deals whose opening position a hint's search does not decide
/// within its budget.
const HARD_DEALS: [u64; 8] = [1, 2, 3, 5, 8, 9, 10, 12];

struct Args {
    loopers: usize,
    hints: usize,
    ramp: Duration,
    pause: Duration,
}

fn args() -> Args {
    let mut a = Args {
        loopers: 16,
        hints: 5,
        ramp: Duration::from_secs(3),
        pause: Duration::from_millis(1500),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| die(&format!("{flag} needs a value")))
        };
        let secs = |v: String| {
            v.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(Duration::from_secs_f64)
                .unwrap_or_else(|| die(&format!("bad {flag}")))
        };
        match flag.as_str() {
            "--loopers" => a.loopers = value().parse().unwrap_or_else(|_| die("bad --loopers")),
            "--hints" => a.hints = value().parse().unwrap_or_else(|_| die("bad --hints")),
            "--ramp" => a.ramp = secs(value()),
            "--pause" => a.pause = secs(value()),
            _ => die(&format!(
                "unknown argument {flag}; use --loopers N --hints N --ramp SECONDS --pause SECONDS"
            )),
        }
    }
    a
}

fn die(msg: &str) -> ! {
    eprintln!("hint_flood: {msg}");
    std::process::exit(2)
}

/// One player: its cookie, once the server has given one.
struct Player {
    http: reqwest::Client,
    base: String,
    cookie: Option<String>,
}

impl Player {
    async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        let res = match req.send().await {
            Ok(res) => res,
            Err(e) => die(&format!("{path}: {e}")),
        };
        if let Some(set) = res
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
        {
            self.cookie = Some(set.to_string());
        }
        let status = res.status().as_u16();
        let body = res.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    /// A new Krakowski game of `deal`: the path of its hints.
    async fn new_game(&mut self, deal: u64) -> String {
        let (status, state) = self
            .post("/api/games/krakowski/new", json!({ "deal": deal }))
            .await;
        let Some(uid) = state["uid"].as_str().filter(|_| status == 201) else {
            die(&format!("a new game got {status}: {state}"))
        };
        format!("/api/play/{uid}/hint")
    }
}

fn main() {
    let a = args();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = patience_store::Location::Sqlite(dir.path().join("hints.db"));
    runtime.block_on(async move {
        let bound = patience_server::bind(&patience_server::Config {
            // Every player shares 127.0.0.1.
            games_per_address_minute: u32::MAX,
            ..patience_server::Config::local(db)
        })
        .await
        .unwrap_or_else(|e| die(&e.to_string()));
        let base = format!("http://{}", bound.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(bound.run(async {
            let _ = stopped.await;
        }));
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(a.loopers + 1)
            .build()
            .expect("client");
        let player = |http: &reqwest::Client| Player {
            http: http.clone(),
            base: base.clone(),
            cookie: None,
        };
        println!(
            "hint_flood: {} players asking hints in a loop, one more asking {} hints {:.1} s apart \
             from {:.1} s on, {} cores",
            a.loopers,
            a.hints,
            a.pause.as_secs_f64(),
            a.ramp.as_secs_f64(),
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        let running = Arc::new(AtomicBool::new(true));
        let mut loops = Vec::new();
        for i in 0..a.loopers {
            let mut p = player(&http);
            let path = p.new_game(HARD_DEALS[i % HARD_DEALS.len()]).await;
            let running = running.clone();
            loops.push(tokio::spawn(async move {
                let (mut answered, mut refused) = (0u64, 0u64);
                while running.load(Ordering::Relaxed) {
                    let (status, _) = p.post(&path, json!({})).await;
                    if status == 200 {
                        answered += 1;
                    } else {
                        refused += 1;
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
                (answered, refused)
            }));
        }
        tokio::time::sleep(a.ramp).await;
        let mut legit = player(&http);
        let mut answers = Vec::new();
        let mut kinds = Vec::new();
        for i in 0..a.hints {
            let path = legit.new_game(HARD_DEALS[i % HARD_DEALS.len()]).await;
            let from = Instant::now();
            let (status, body) = legit.post(&path, json!({})).await;
            let took = from.elapsed();
            kinds.push(body["kind"].as_str().unwrap_or("-").to_string());
            println!(
                "hint {}: {status} {} in {:.2} s",
                i + 1,
                kinds[i],
                took.as_secs_f64()
            );
            answers.push((status, took));
            tokio::time::sleep(a.pause).await;
        }
        running.store(false, Ordering::Relaxed);
        let (mut answered, mut refused) = (0, 0);
        for l in loops {
            let (yes, no) = l.await.expect("looping player");
            answered += yes;
            refused += no;
        }
        let mut times: Vec<Duration> = answers.iter().map(|a| a.1).collect();
        times.sort();
        let ok = answers.iter().filter(|a| a.0 == 200).count();
        println!(
            "a player's hints among {} looping players: {ok} of {} answered 200, \
             median {:.2} s, slowest {:.2} s",
            a.loopers,
            answers.len(),
            percentile(&times, 0.5).as_secs_f64(),
            times.last().map_or(0.0, Duration::as_secs_f64)
        );
        println!("looping players: {answered} hints answered, {refused} refused");
        let _ = stop.send(());
        let _ = server.await;
    });
}
