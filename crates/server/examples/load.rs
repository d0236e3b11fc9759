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
    db: Option<patience_store::Location>,
    /// Servers started on the one database (PostgreSQL only), clients spread over them.
    instances: usize,
}

fn args() -> Args {
    let mut a = Args {
        clients: 32,
        requests: 30_000,
        url: None,
        db: None,
        instances: 1,
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
            "--db" => a.db = Some(patience_store::Location::parse(&value())),
            "--instances" => {
                a.instances = value()
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| die("bad --instances"))
            }
            _ => die(&format!(
                "unknown argument {flag}; use --clients N --requests N [--instances N] \
                 [--url URL | --db FILE-OR-POSTGRES-URL]"
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

/// The games as the database holds them, read after the servers stopped.
async fn stored_games(
    location: &patience_store::Location,
    uids: Vec<String>,
) -> HashMap<String, patience_store::StoredGame> {
    let mut out = HashMap::new();
    match location {
        patience_store::Location::Sqlite(path) => {
            let store = patience_store::Store::open(path).expect("store opens");
            for uid in uids {
                if let Some(g) = store.load_game(&uid).expect("store reads") {
                    out.insert(uid, g);
                }
            }
        }
        patience_store::Location::Postgres(url) => {
            let store = patience_store::PgStore::open(url, 2)
                .await
                .expect("store opens");
            for uid in uids {
                if let Some(g) = store.load_game(&uid).await.expect("store reads") {
                    out.insert(uid, g);
                }
            }
        }
    }
    out
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
    let location =
        a.db.clone()
            .unwrap_or_else(|| patience_store::Location::Sqlite(dir.path().join("load.db")));
    if a.instances > 1 && !matches!(location, patience_store::Location::Postgres(_)) {
        die("--instances above 1 needs --db postgres://…: a SQLite file has one server");
    }
    let sqlite = match &location {
        patience_store::Location::Sqlite(p) => Some(p.clone()),
        patience_store::Location::Postgres(_) => None,
    };
    runtime.block_on(async move {
        let mut servers = Vec::new();
        let bases: Vec<String> = match &a.url {
            Some(u) => vec![u.trim_end_matches('/').to_string()],
            None => {
                let mut bases = Vec::new();
                for _ in 0..a.instances {
                    let bound = patience_server::bind(&patience_server::Config {
                        // Every client shares 127.0.0.1: the per-address limit would
                        // measure itself; each client is still held to the per-player one.
                        games_per_address_minute: u32::MAX,
                        ..patience_server::Config::local(location.clone())
                    })
                    .await
                    .unwrap_or_else(|e| die(&e.to_string()));
                    bases.push(format!("http://{}", bound.local_addr().unwrap()));
                    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
                    let task = tokio::spawn(bound.run(async {
                        let _ = stopped.await;
                    }));
                    servers.push((stop, task));
                }
                bases
            }
        };
        println!(
            "load: {} clients, {} requests, against {} ({} server{} on {})",
            a.clients,
            a.requests,
            bases.join(" "),
            bases.len(),
            if bases.len() == 1 { "" } else { "s" },
            location.describe()
        );
        let http = reqwest::Client::builder().pool_max_idle_per_host(a.clients).build().expect("client");
        let budget = Arc::new(AtomicI64::new(a.requests));
        let wal_sampler = sqlite.clone().filter(|_| a.url.is_none() || a.db.is_some()).map(|db| {
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
        // Each client keeps to one server (a load balancer with sticky
        // sessions); the clients are spread over the servers evenly.
        let tasks: Vec<_> = (0..a.clients)
            .map(|i| tokio::spawn(client(i, bases[i % bases.len()].clone(), http.clone(), budget.clone())))
            .collect();
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
        if servers.is_empty() {
            println!("durability: not checked against an external server");
            return;
        }
        for (stop, task) in servers {
            let _ = stop.send(());
            task.await.expect("server task").expect("server ran");
        }
        let stored_of = stored_games(&location, all.games.keys().cloned().collect()).await;
        let mut bad = 0;
        for (uid, moves) in &all.games {
            let row = stored_of.get(uid);
            let stored: Vec<&str> = row.map_or(Vec::new(), |r| r.moves.split_whitespace().collect());
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
