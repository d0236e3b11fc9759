//! Durability check: `patience serve` killed with SIGKILL under load loses
//! no acknowledged move and applies none twice; two tabs sending the same
//! change at once apply it once.
//!
//! Runs the `patience` binary given by `--bin` on 127.0.0.1 (a free port)
//! over a fresh database. `--clients` players play random legal moves, each
//! recording every move the server acknowledged. The server is killed with
//! SIGKILL at a random moment `--rounds` times and started again on the same
//! file; after each start every player reads its game back (a move in flight
//! at the kill may or may not have been committed: the game says which).
//! Then the two-tab race: `--pairs` pairs of identical requests sent at once
//! with the same `expect` on one game (a move, then an undo, in turn),
//! each pair needing exactly one 200 and one 409. Finally the server is
//! stopped and the database opened: every game must hold exactly the moves
//! its player was acknowledged. Prints acknowledged, lost and doubled; exit
//! code 1 if anything was lost, doubled or raced twice.
//!
//! `bench/durability/run.sh` builds both in release mode and runs it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

struct Args {
    bin: PathBuf,
    clients: usize,
    rounds: usize,
    pairs: usize,
    /// A PostgreSQL database to run on instead of a fresh SQLite file.
    db: Option<String>,
    /// Servers on the one database (PostgreSQL only); one of them is killed a round.
    instances: usize,
}

fn args() -> Args {
    let mut a = Args {
        bin: PathBuf::from("target/release/patience"),
        clients: 16,
        rounds: 5,
        pairs: 500,
        db: None,
        instances: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| die(&format!("{flag} needs a value")))
        };
        let number = |v: String| v.parse().unwrap_or_else(|_| die(&format!("bad {flag}")));
        match flag.as_str() {
            "--bin" => a.bin = value().into(),
            "--clients" => a.clients = number(value()),
            "--rounds" => a.rounds = number(value()),
            "--pairs" => a.pairs = number(value()),
            "--db" => a.db = Some(value()),
            "--instances" => a.instances = number(value()).max(1),
            _ => die(&format!(
                "unknown argument {flag}; use --bin FILE --clients N --rounds N --pairs N \
                 [--db postgres://… --instances N]"
            )),
        }
    }
    a
}

fn die(msg: &str) -> ! {
    eprintln!("durability: {msg}");
    std::process::exit(2)
}

/// A running `patience serve`.
struct Served {
    child: Child,
    url: String,
}

fn start(bin: &Path, db: &std::ffi::OsStr) -> Served {
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| die(&format!("cannot run {}: {e}", bin.display())));
    let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).expect("the server's first line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| die(&format!("the server said {line:?}")))
        .to_string();
    Served { child, url }
}

/// One player's game and what the server acknowledged of it.
struct Client {
    http: reqwest::Client,
    cookie: Option<String>,
    rng: StdRng,
    /// Per game, the moves acknowledged, in order.
    games: HashMap<String, Vec<String>>,
    current: Option<(String, u64, Vec<String>)>,
    /// A move sent and not answered when the server died.
    in_flight: Option<String>,
}

enum Sent {
    Answer(reqwest::StatusCode, Value),
    /// The connection failed: the server is gone.
    Gone,
}

impl Client {
    async fn send(&mut self, req: reqwest::RequestBuilder) -> Sent {
        let req = match &self.cookie {
            Some(c) => req.header("cookie", c.clone()),
            None => req,
        };
        let Ok(res) = req.send().await else {
            return Sent::Gone;
        };
        if let Some(set) = res
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
        {
            self.cookie = set.split(';').next().map(str::to_string);
        }
        let status = res.status();
        match res.bytes().await {
            Ok(b) => Sent::Answer(status, serde_json::from_slice(&b).unwrap_or(Value::Null)),
            Err(_) => Sent::Gone,
        }
    }

    fn take_state(&mut self, state: &Value) {
        let uid = state["uid"].as_str().expect("uid").to_string();
        let legal: Vec<String> = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m["move"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let playable = !state["won"].as_bool().unwrap_or(true)
            && state["moves"].as_u64().unwrap_or(0) < 400
            && !legal.is_empty();
        let version = state["version"].as_u64().unwrap_or(0);
        self.current = playable.then_some((uid, version, legal));
    }

    /// Plays until the server is gone or `stop` is set.
    async fn play(&mut self, url: &str, stop: &AtomicBool) -> u64 {
        let games: Vec<&str> = patience_engine::games().iter().map(|g| g.id).collect();
        let mut acked = 0;
        while !stop.load(Ordering::Relaxed) {
            let Some((uid, version, legal)) = self.current.clone() else {
                let game = games[self.rng.gen_range(0..games.len())];
                let deal = self.rng.gen_range(1..=1_000_000u64);
                let req = self
                    .http
                    .post(format!("{url}/api/games/{game}/new"))
                    .header("content-type", "application/json")
                    .body(json!({ "deal": deal }).to_string());
                match self.send(req).await {
                    Sent::Answer(s, state) if s.is_success() => {
                        self.games
                            .insert(state["uid"].as_str().unwrap().to_string(), Vec::new());
                        self.take_state(&state);
                        acked += 1;
                    }
                    Sent::Answer(s, body) => {
                        eprintln!("durability: a new game got {s}: {body}");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Sent::Gone => return acked,
                }
                continue;
            };
            let mv = legal[self.rng.gen_range(0..legal.len())].clone();
            let req = self
                .http
                .post(format!("{url}/api/play/{uid}/move"))
                .header("content-type", "application/json")
                .body(json!({ "move": mv, "expect": version }).to_string());
            self.in_flight = Some(mv.clone());
            match self.send(req).await {
                Sent::Answer(s, state) if s.is_success() => {
                    self.in_flight = None;
                    self.games.get_mut(&uid).expect("a known game").push(mv);
                    self.take_state(&state);
                    acked += 1;
                }
                Sent::Answer(s, body) => {
                    self.in_flight = None;
                    eprintln!("durability: a move got {s}: {body}");
                    self.current = None;
                }
                Sent::Gone => return acked,
            }
        }
        acked
    }

    /// After a restart: reads the game back; a move in flight at the kill
    /// that the game holds was committed, and counts as acknowledged now.
    /// (The final check against the file counts what was lost or doubled.)
    async fn reconcile(&mut self, url: &str) -> u64 {
        let in_flight = self.in_flight.take();
        let Some((uid, _, _)) = self.current.clone() else {
            return 0;
        };
        let req = self.http.get(format!("{url}/api/play/{uid}"));
        let Sent::Answer(status, state) = self.send(req).await else {
            die("the restarted server does not answer");
        };
        if !status.is_success() {
            eprintln!("durability: game {uid} after the restart: {status} {state}");
            self.current = None;
            return 0;
        }
        let acked = self.games.get_mut(&uid).expect("a known game");
        let stored = state["moves"].as_u64().unwrap_or(0);
        let mut now = 0;
        match in_flight {
            Some(mv) if stored == acked.len() as u64 + 1 => {
                acked.push(mv);
                now = 1;
            }
            _ if stored != acked.len() as u64 => eprintln!(
                "durability: game {uid} holds {stored} moves after the restart, {} acknowledged",
                acked.len()
            ),
            _ => {}
        }
        self.take_state(&state);
        now
    }
}

/// The two-tab race: `pairs` pairs of the same change sent at once with the
/// same `expect`. Returns the game, its version before the race, and the
/// pairs that applied exactly once.
async fn race(url: &str, other: &str, pairs: usize) -> (String, u64, usize) {
    let http = reqwest::Client::new();
    let new = http
        .post(format!("{url}/api/games/la-belle-lucie/new"))
        .header("content-type", "application/json")
        .body(r#"{"deal": 7}"#)
        .send()
        .await
        .expect("a new game");
    let cookie = new.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let mut state: Value = new.json().await.expect("a state");
    let uid = state["uid"].as_str().unwrap().to_string();
    let start = state["version"].as_u64().unwrap();
    let mut once = 0;
    for n in 0..pairs {
        let version = state["version"].as_u64().unwrap();
        let (path, body) = if n % 2 == 0 {
            let mv = state["legal"][0]["move"].as_str().expect("a legal move");
            ("move", json!({ "move": mv, "expect": version }))
        } else {
            ("undo", json!({ "expect": version }))
        };
        let send = |to: &str| {
            http.post(format!("{to}/api/play/{uid}/{path}"))
                .header("content-type", "application/json")
                .header("cookie", &cookie)
                .body(body.to_string())
                .send()
        };
        // The two tabs reach two servers when there are several.
        let (a, b) = tokio::join!(send(url), send(other));
        let (a, b) = (a.expect("tab A"), b.expect("tab B"));
        let statuses = (a.status().as_u16(), b.status().as_u16());
        let winner = match statuses {
            (200, 409) => Some(a),
            (409, 200) => Some(b),
            _ => None,
        };
        match winner {
            Some(w) => {
                once += 1;
                state = w.json().await.expect("a state");
            }
            None => {
                eprintln!("durability: race pair {n} got {statuses:?}");
                let now = http
                    .get(format!("{url}/api/play/{uid}"))
                    .header("cookie", &cookie)
                    .send()
                    .await
                    .expect("the game");
                state = now.json().await.expect("a state");
            }
        }
    }
    (uid, start, once)
}

fn main() {
    let a = args();
    if !a.bin.is_file() {
        die(&format!(
            "no {} (build it: cargo build --release -p patience-cli)",
            a.bin.display()
        ));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = dir.path().join("durability.db");
    let db: std::ffi::OsString = match &a.db {
        Some(url) => url.into(),
        None => sqlite.clone().into(),
    };
    if a.instances > 1 && a.db.is_none() {
        die("--instances above 1 needs --db postgres://…: a SQLite file has one server");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(12);
    let mut clients: Vec<Client> = (0..a.clients)
        .map(|i| Client {
            http: reqwest::Client::new(),
            cookie: None,
            rng: StdRng::seed_from_u64(i as u64 * 104_729 + 3),
            games: HashMap::new(),
            current: None,
            in_flight: None,
        })
        .collect();
    let mut acked = 0u64;
    let mut servers: Vec<Option<Served>> = (0..a.instances).map(|_| None).collect();
    for round in 1..=a.rounds {
        // The killed server is started again on the same database.
        for s in servers.iter_mut().filter(|s| s.is_none()) {
            *s = Some(start(&a.bin, &db));
        }
        let urls: Vec<String> = servers.iter().flatten().map(|s| s.url.clone()).collect();
        for (i, c) in clients.iter_mut().enumerate() {
            acked += runtime.block_on(c.reconcile(&urls[i % urls.len()]));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let kill_after = Duration::from_millis(rng.gen_range(1000..4000));
        let victim = round % a.instances;
        let (back, n) = runtime.block_on(async {
            let tasks: Vec<_> = clients
                .drain(..)
                .enumerate()
                .map(|(i, mut c)| {
                    let (url, stop) = (urls[i % urls.len()].clone(), stop.clone());
                    tokio::spawn(async move {
                        let n = c.play(&url, &stop).await;
                        (c, n)
                    })
                })
                .collect();
            tokio::time::sleep(kill_after).await;
            // SIGKILL of one server: no shutdown, no last checkpoint; the
            // others keep serving until the round ends.
            if let Some(mut served) = servers[victim].take() {
                served.child.kill().expect("kill -9");
                let _ = served.child.wait();
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
            stop.store(true, Ordering::Relaxed);
            let mut back = Vec::new();
            let mut n = 0;
            for t in tasks {
                let (c, k) = t.await.expect("a client");
                back.push(c);
                n += k;
            }
            (back, n)
        });
        clients = back;
        acked += n;
        println!(
            "round {round}: server {} of {} killed after {:.1} s, {n} operations acknowledged",
            victim + 1,
            a.instances,
            kill_after.as_secs_f64()
        );
    }
    for s in servers.iter_mut().filter(|s| s.is_none()) {
        *s = Some(start(&a.bin, &db));
    }
    let urls: Vec<String> = servers.iter().flatten().map(|s| s.url.clone()).collect();
    for (i, c) in clients.iter_mut().enumerate() {
        acked += runtime.block_on(c.reconcile(&urls[i % urls.len()]));
    }
    let (raced, start_version, once) =
        runtime.block_on(race(&urls[0], &urls[urls.len() - 1], a.pairs));
    // A graceful stop this time (SIGTERM), then the database is read directly.
    for mut served in servers.into_iter().flatten() {
        let _ = Command::new("kill")
            .args(["-TERM", &served.child.id().to_string()])
            .status();
        let _ = served.child.wait();
    }
    let stored_of = |uid: &str| -> Option<patience_store::StoredGame> {
        match &a.db {
            Some(url) => runtime.block_on(async {
                patience_store::PgStore::open(url, 1)
                    .await
                    .expect("the store opens")
                    .load_game(uid)
                    .await
                    .expect("the store reads")
            }),
            None => patience_store::Store::open(&sqlite)
                .expect("the store opens")
                .load_game(uid)
                .expect("the store reads"),
        }
    };
    let (mut games, mut lost, mut doubled) = (0, 0u64, 0u64);
    for c in &clients {
        for (uid, moves) in &c.games {
            games += 1;
            let stored: Vec<String> = stored_of(uid).map_or(Vec::new(), |r| {
                r.moves.split_whitespace().map(str::to_string).collect()
            });
            let common = stored.iter().zip(moves).take_while(|(s, m)| s == m).count();
            lost += (moves.len() - common) as u64;
            doubled += (stored.len() - common) as u64;
        }
    }
    // Each pair's one change is one version; a change applied twice is two.
    let applied = stored_of(&raced).map_or(0, |r| r.version - start_version);
    acked += once as u64;
    println!(
        "kill -9: {} rounds, {} server(s), {games} games: {acked} acknowledged, {lost} lost, {doubled} doubled",
        a.rounds, a.instances
    );
    println!(
        "two tabs: {once} of {} pairs applied exactly once ({applied} changes applied)",
        a.pairs
    );
    println!("in {:.0} s", started.elapsed().as_secs_f64());
    if lost > 0 || doubled > 0 || once != a.pairs || applied != a.pairs as u64 {
        std::process::exit(1);
    }
}
