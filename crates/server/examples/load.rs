//! Load benchmark: many games played at once through the HTTP API on loopback.
//!
//! Starts the server in this process on 127.0.0.1 (a free port) over a fresh
//! SQLite file, unless `--url` names a running one. `--clients` players each
//! play their own games, one request at a time, choosing random legal moves
//! (and now and then an undo), until `--requests` requests in all have been
//! sent. Prints moves per second, latency percentiles and the largest size
//! the database's WAL reached (sampled every 20 ms while the clients play),
//! then (in-process mode) stops the server and checks that the database holds
//! exactly the moves every game was acknowledged to have.
//!
//! `bench/load/run.sh` runs it in release mode.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use patience_solver::stats::percentile;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

struct Args {
    clients: usize,
    requests: i64,
    url: Option<String>,
    db: Option<std::path::PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        clients: 32,
        requests: 30_000,
        url: None,
        db: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| die(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--clients" => a.clients = value().parse().unwrap_or_else(|_| die("bad --clients")),
            "--requests" => a.requests = value().parse().unwrap_or_else(|_| die("bad --requests")),
            "--url" => a.url = Some(value()),
            "--db" => a.db = Some(value().into()),
            _ => die(&format!(
                "unknown argument {flag}; use --clients N --requests N [--url URL | --db FILE]"
            )),
        }
    }
    a
}

fn die(msg: &str) -> ! {
    eprintln!("load: {msg}");
    std::process::exit(2)
}

/// The parts of a state the client reads; the rest (the piles) is skipped
/// without being built, so the client spends little of the machine.
#[derive(serde::Deserialize)]
struct Brief {
    uid: String,
    moves: u64,
    version: u64,
    won: bool,
    legal: Vec<LegalMove>,
}

#[derive(serde::Deserialize)]
struct LegalMove {
    #[serde(rename = "move")]
    mv: String,
}

/// What one client saw: per game, the moves the server acknowledged.
#[derive(Default)]
struct Seen {
    games: HashMap<String, Vec<String>>,
    move_latencies: Vec<Duration>,
    other_latencies: Vec<Duration>,
    moves: u64,
    errors: u64,
}

/// Sends a request; on success the answer's brief, else the status and body text.
async fn post(
    http: &reqwest::Client,
    url: &str,
    cookie: &Option<String>,
    body: Value,
) -> Result<(Brief, Option<String>), String> {
    let mut req = http
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    let res = req.send().await.map_err(|e| e.to_string())?;
    let set = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    let status = res.status();
    let bytes = res.bytes().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&bytes)));
    }
    let brief = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    Ok((brief, set))
}

async fn client(id: usize, base: String, http: reqwest::Client, budget: Arc<AtomicI64>) -> Seen {
    let mut rng = StdRng::seed_from_u64(id as u64 * 7919 + 1);
    let games: Vec<&str> = patience_engine::games().iter().map(|g| g.id).collect();
    let mut seen = Seen::default();
    let mut cookie: Option<String> = None;
    let mut state: Option<Brief> = None;
    while budget.fetch_sub(1, Ordering::Relaxed) > 0 {
        let started = Instant::now();
        // Games are played until won, stuck or long, then a new one starts.
        let Some(s) = state
            .as_ref()
            .filter(|s| !s.won && !s.legal.is_empty() && s.moves < 400)
        else {
            let game = games[rng.gen_range(0..games.len())];
            let deal = rng.gen_range(1..=1_000_000u64);
            let url = format!("{base}/api/games/{game}/new");
            match post(&http, &url, &cookie, json!({ "deal": deal })).await {
                Ok((s, set)) => {
                    if set.is_some() {
                        cookie = set;
                    }
                    seen.games.insert(s.uid.clone(), Vec::new());
                    state = Some(s);
                }
                Err(e) => {
                    seen.errors += 1;
                    eprintln!("new game failed: {e}");
                }
            }
            seen.other_latencies.push(started.elapsed());
            continue;
        };
        let uid = s.uid.clone();
        let (count, version) = (s.moves, s.version);
        let undo = count > 0 && rng.gen_bool(0.05);
        let (path, body, mv) = if undo {
            ("undo", json!({ "expect": version }), None)
        } else {
            let mv = s.legal[rng.gen_range(0..s.legal.len())].mv.clone();
            ("move", json!({ "move": mv, "expect": version }), Some(mv))
        };
        let url = format!("{base}/api/play/{uid}/{path}");
        match post(&http, &url, &cookie, body).await {
            Ok((next, _)) => {
                let acked = seen.games.entry(uid).or_default();
                match mv {
                    Some(m) => {
                        acked.push(m);
                        seen.moves += 1;
                        seen.move_latencies.push(started.elapsed());
                    }
                    None => {
                        acked.pop();
                        seen.other_latencies.push(started.elapsed());
                    }
                }
                state = Some(next);
            }
            Err(e) => {
                seen.errors += 1;
                eprintln!("{path} failed: {e}");
                state = None;
            }
        }
    }
    seen
}

/// The WAL file SQLite keeps beside the database.
fn wal_path(db: &std::path::Path) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    name.into()
}

fn main() {
    let a = args();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = a.db.clone().unwrap_or_else(|| dir.path().join("load.db"));
    runtime.block_on(async move {
        let (base, server) = match &a.url {
            Some(u) => (u.trim_end_matches('/').to_string(), None),
            None => {
                let bound = patience_server::bind(&patience_server::Config {
                    // Every client shares 127.0.0.1: the per-address limit would
                    // measure itself; each client is still held to the per-player one.
                    games_per_address_minute: u32::MAX,
                    ..patience_server::Config::local(db.clone())
                })
                    .await
                    .unwrap_or_else(|e| die(&e.to_string()));
                let url = format!("http://{}", bound.local_addr().unwrap());
                let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
                let task = tokio::spawn(bound.run(async {
                    let _ = stopped.await;
                }));
                (url, Some((stop, task)))
            }
        };
        println!("load: {} clients, {} requests, against {base}", a.clients, a.requests);
        let http = reqwest::Client::builder().pool_max_idle_per_host(a.clients).build().expect("client");
        let budget = Arc::new(AtomicI64::new(a.requests));
        let wal_sampler = (a.url.is_none() || a.db.is_some()).then(|| {
            let (wal, budget) = (wal_path(&db), budget.clone());
            tokio::spawn(async move {
                let mut largest = 0u64;
                while budget.load(Ordering::Relaxed) > 0 {
                    largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                largest
            })
        });
        let started = Instant::now();
        let tasks: Vec<_> = (0..a.clients).map(|i| tokio::spawn(client(i, base.clone(), http.clone(), budget.clone()))).collect();
        let all = Arc::new(Mutex::new(Seen::default()));
        for t in tasks {
            let s = t.await.expect("client task");
            let mut all = all.lock().unwrap();
            all.games.extend(s.games);
            all.move_latencies.extend(s.move_latencies);
            all.other_latencies.extend(s.other_latencies);
            all.moves += s.moves;
            all.errors += s.errors;
        }
        let wall = started.elapsed();
        let mut all = Arc::try_unwrap(all).ok().unwrap().into_inner().unwrap();
        all.move_latencies.sort();
        let l = &all.move_latencies;
        println!(
            "moves: {} acknowledged in {:.2} s = {:.0} moves/s ({} games, {} other requests, {} errors)",
            all.moves,
            wall.as_secs_f64(),
            all.moves as f64 / wall.as_secs_f64(),
            all.games.len(),
            all.other_latencies.len(),
            all.errors
        );
        println!(
            "move latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            percentile(l, 0.50).as_secs_f64() * 1e3,
            percentile(l, 0.99).as_secs_f64() * 1e3,
            percentile(l, 1.0).as_secs_f64() * 1e3
        );
        if let Some(sampler) = wal_sampler {
            let largest = sampler.await.expect("WAL sampler");
            println!("largest WAL: {:.1} MB", largest as f64 / 1e6);
        }
        let Some((stop, task)) = server else {
            println!("durability: not checked against an external server");
            return;
        };
        let _ = stop.send(());
        task.await.expect("server task").expect("server ran");
        let store = patience_store::Store::open(&db).expect("store opens");
        let mut bad = 0;
        for (uid, moves) in &all.games {
            let row = store.load_game(uid).expect("store reads");
            let stored: Vec<&str> = row.as_ref().map_or(Vec::new(), |r| r.moves.split_whitespace().collect());
            if row.is_none() || stored != moves.iter().map(String::as_str).collect::<Vec<_>>() {
                bad += 1;
                if bad <= 5 {
                    eprintln!("game {uid}: acknowledged {} moves, stored {}", moves.len(), stored.len());
                }
            }
        }
        if bad == 0 && all.errors == 0 {
            println!("durability: all {} games hold exactly their acknowledged moves", all.games.len());
        } else {
            println!("durability: {bad} games differ from what was acknowledged; {} request errors", all.errors);
            std::process::exit(1);
        }
    });
}
