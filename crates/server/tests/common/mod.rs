//! A real server on 127.0.0.1 (a free port) over a temporary SQLite file or
//! a fresh PostgreSQL database ([`temp_store`]), and a client that keeps its
//! player cookie like a browser would.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::sync::oneshot;

pub struct Server {
    pub url: String,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    pub async fn start(db: &Path) -> Server {
        Server::start_with(config(db)).await
    }

    pub async fn start_with(config: patience_server::Config) -> Server {
        let bound = patience_server::bind(&config).await.expect("server binds");
        let url = format!("http://{}", bound.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            bound
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .expect("server runs");
        });
        Server {
            url,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops the server and waits until it has finished.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            t.await.unwrap();
        }
    }
}

pub struct TempDb {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

pub fn temp_db() -> TempDb {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("patience.db");
    TempDb { _dir: dir, path }
}

/// The PostgreSQL server the tests may use: `PATIENCE_TEST_POSTGRES`, the
/// URL of a database on it whose user may create databases (the throwaway
/// cluster `scripts/test` starts). `None` outside `scripts/test`.
pub fn test_postgres() -> Option<String> {
    std::env::var("PATIENCE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
}

/// Whether this run of the tests is against PostgreSQL
/// (`PATIENCE_TEST_STORE=postgres`, set by `scripts/test` for its second
/// run of the suites that take their store from [`temp_store`]) rather
/// than a SQLite file.
pub fn on_postgres() -> bool {
    std::env::var("PATIENCE_TEST_STORE").is_ok_and(|s| s == "postgres")
}

/// A fresh, empty PostgreSQL database on the test server; its URL.
pub async fn fresh_postgres_database() -> String {
    let admin = test_postgres().expect(
        "PATIENCE_TEST_POSTGRES is not set: run the PostgreSQL tests through ./scripts/test, \
         which starts a throwaway PostgreSQL server",
    );
    let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL server answers");
    tokio::spawn(conn);
    let name = format!("t_{}", patience_server::player::random_hex128());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("a test database is made");
    // The admin URL with its database name replaced.
    let base = admin
        .rsplit_once('/')
        .map_or(admin.as_str(), |(base, _)| base);
    let query = admin.split_once('?').map_or("", |(_, q)| q);
    if query.is_empty() {
        format!("{base}/{name}")
    } else {
        format!("{}/{name}?{query}", base.split('?').next().unwrap_or(base))
    }
}

/// Whether a test about the SQLite file alone is to be skipped: true (with
/// a note on stderr) when the run is against PostgreSQL ([`on_postgres`]).
pub fn sqlite_only(test: &str) -> bool {
    if on_postgres() {
        eprintln!("SKIPPED {test}: it is about the SQLite file");
    }
    on_postgres()
}

/// A fresh PostgreSQL database for a test that needs one, or `None` (with
/// a loud note on stderr) when the test runs outside `scripts/test` and no
/// PostgreSQL server was given. `scripts/test` always gives one, and sets
/// `PATIENCE_REQUIRE_POSTGRES`, under which a missing server fails the test.
pub async fn postgres_or_skip(test: &str) -> Option<String> {
    if test_postgres().is_none() {
        assert!(
            std::env::var_os("PATIENCE_REQUIRE_POSTGRES").is_none(),
            "{test}: PATIENCE_TEST_POSTGRES is not set"
        );
        eprintln!(
            "SKIPPED {test}: it needs PostgreSQL; run it through ./scripts/test, \
             or set PATIENCE_TEST_POSTGRES to a URL whose user may create databases"
        );
        return None;
    }
    Some(fresh_postgres_database().await)
}

/// The store of an API test: a fresh SQLite file, or a fresh PostgreSQL
/// database when the suite runs against PostgreSQL ([`on_postgres`]).
pub struct TestStore {
    pub sqlite: TempDb,
    pub postgres: Option<String>,
}

pub async fn temp_store() -> TestStore {
    TestStore {
        sqlite: temp_db(),
        postgres: if on_postgres() {
            Some(fresh_postgres_database().await)
        } else {
            None
        },
    }
}

impl TestStore {
    pub fn location(&self) -> patience_store::Location {
        match &self.postgres {
            Some(url) => patience_store::Location::Postgres(url.clone()),
            None => patience_store::Location::Sqlite(self.sqlite.path.clone()),
        }
    }

    /// A server with the small test library over this store.
    pub fn config(&self) -> patience_server::Config {
        patience_server::Config {
            library: small_library(),
            ..patience_server::Config::local(self.location())
        }
    }

    /// A server with the shipped library over this store.
    pub fn shipped(&self) -> patience_server::Config {
        patience_server::Config::local(self.location())
    }

    async fn pg(&self) -> Option<patience_store::PgStore> {
        match &self.postgres {
            Some(url) => Some(patience_store::PgStore::open(url, 2).await.unwrap()),
            None => None,
        }
    }

    /// The game as the database holds it, read on a connection of its own.
    pub async fn load_game(&self, uid: &str) -> patience_store::StoredGame {
        let row = match self.pg().await {
            Some(pg) => pg.load_game(uid).await.unwrap(),
            None => patience_store::Store::open(&self.sqlite.path)
                .unwrap()
                .load_game(uid)
                .unwrap(),
        };
        row.expect("the game is stored")
    }

    /// Runs raw SQL on the database (to damage a row on purpose).
    pub async fn execute_raw(&self, sql: &str) {
        match self.pg().await {
            Some(pg) => {
                pg.execute_raw(sql).await.unwrap();
            }
            None => {
                patience_store::Store::open(&self.sqlite.path)
                    .unwrap()
                    .execute_raw(sql)
                    .unwrap();
            }
        }
    }

    /// Stores `n` games of Fan for the player `token`, as [`store_games`].
    pub async fn store_games(&self, token: &str, n: u64) {
        match self.pg().await {
            Some(pg) => {
                let rows: Vec<_> = games_of(token, n)
                    .into_iter()
                    .map(|game| patience_store::export::GameRow {
                        game,
                        won_moves: None,
                        won_ms: None,
                        hints_known: true,
                    })
                    .collect();
                pg.import_games(&rows).await.unwrap();
            }
            None => store_games(&self.sqlite.path, token, n),
        }
    }

    /// Grades a deal in the database.
    pub async fn put_grade(&self, game: &str, grade: &patience_store::DealGrade, detail: &str) {
        match self.pg().await {
            Some(pg) => pg.put_grade(game, grade, detail).await.unwrap(),
            None => patience_store::Store::open(&self.sqlite.path)
                .unwrap()
                .put_grade(game, grade, detail)
                .unwrap(),
        }
    }
}

/// One browser: a player cookie, set by the first answer that makes one.
#[derive(Clone)]
pub struct Player {
    pub http: reqwest::Client,
    pub url: String,
    pub cookie: Option<String>,
}

impl Player {
    pub fn new(url: &str) -> Player {
        Player {
            http: reqwest::Client::new(),
            url: url.to_string(),
            cookie: None,
        }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let req = match &self.cookie {
            Some(c) => req.header("cookie", c.clone()),
            None => req,
        };
        let res = req.send().await.expect("request goes through");
        if let Some(set) = res.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            self.cookie = Some(pair);
        }
        let status = res.status();
        let text = res.text().await.unwrap();
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub async fn get(&mut self, path: &str) -> (StatusCode, Value) {
        let req = self.http.get(format!("{}{path}", self.url));
        self.send(req).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (StatusCode, Value) {
        let req = self
            .http
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .body(body.to_string());
        self.send(req).await
    }

    /// Posts bytes declared as JSON, whatever they are.
    pub async fn post_raw(&mut self, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
        let req = self
            .http
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .body(body);
        self.send(req).await
    }

    /// Posts with the given extra headers (and no others but the cookie).
    pub async fn post_with(
        &mut self,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (StatusCode, Value) {
        let mut req = self
            .http
            .post(format!("{}{path}", self.url))
            .body(body.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.send(req).await
    }

    /// A new game of `game` at `deal`; returns its state.
    pub async fn new_game(&mut self, game: &str, deal: u64) -> Value {
        let (status, state) = self
            .post(&format!("/api/games/{game}/new"), json!({ "deal": deal }))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{state}");
        state
    }

    pub async fn play(&mut self, uid: &str, mv: &str, expect: u64) -> (StatusCode, Value) {
        self.post(
            &format!("/api/play/{uid}/move"),
            json!({ "move": mv, "expect": expect }),
        )
        .await
    }
}

/// The state's uid and move count.
pub fn uid(state: &Value) -> String {
    state["uid"].as_str().unwrap().to_string()
}

/// The state's version: the `expect` of the next change.
pub fn version(state: &Value) -> u64 {
    state["version"].as_u64().unwrap()
}

pub fn moves(state: &Value) -> u64 {
    state["moves"].as_u64().unwrap()
}

/// The first legal move's text.
pub fn first_legal(state: &Value) -> String {
    state["legal"][0]["move"].as_str().unwrap().to_string()
}

/// The configuration `Server::start` uses for `db`: a server on loopback
/// with the small test library.
pub fn config(db: &Path) -> patience_server::Config {
    patience_server::Config {
        library: small_library(),
        ..patience_server::Config::local(db.to_path_buf())
    }
}

/// The configuration of a server with the shipped library, for the tests
/// about the shipped grades themselves.
pub fn shipped(db: &Path) -> patience_server::Config {
    patience_server::Config::local(db.to_path_buf())
}

/// The grades every game has in [`small_library`]: Easy and Hard deals, an
/// unwinnable one, and no Medium deal (a test grades one into the store).
/// They say nothing true about the deals; they are what the store is given.
pub const SMALL_GRADES: &str = "deal\tlevel\tperson_wins\truns\n\
    1\teasy\t14\t20\n2\thard\t0\t20\n3\teasy\t20\t20\n4\tunwinnable\t\t\n";

/// A few graded deals for every game, instead of the whole shipped library
/// that would be loaded into every fresh database.
pub fn small_library() -> &'static [(&'static str, &'static [u8])] {
    static FILES: std::sync::OnceLock<Vec<(&'static str, &'static [u8])>> =
        std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        patience_engine::games()
            .iter()
            .map(|g| {
                let name: &'static str = Box::leak(format!("{}.tsv", g.id).into_boxed_str());
                (name, SMALL_GRADES.as_bytes())
            })
            .collect()
    })
}

/// A move and a move that takes it back, of some deal: the ping-pong pair.
pub fn reversible_pair() -> (&'static str, u64, String, String) {
    for spec in patience_engine::games() {
        for deal in 1..40 {
            let game = patience_engine::Game::new(spec, deal).unwrap();
            let start = game.position().hash();
            let layout = *game.position().layout();
            for m in game.position().legal_moves() {
                let mut there = game.clone();
                there.play(m).unwrap();
                for back in there.position().legal_moves() {
                    let mut again = there.clone();
                    again.play(back).unwrap();
                    if again.position().hash() == start {
                        return (spec.id, deal, m.text(&layout), back.text(&layout));
                    }
                }
            }
        }
    }
    panic!("no reversible pair of moves in the first deals of any game");
}

/// Stores `n` games of Fan for the player `token` (each one move in, none
/// finished, newest last) straight into the database at `db`.
pub fn store_games(db: &Path, token: &str, n: u64) {
    let mut store = patience_store::Store::open(db).unwrap();
    store
        .in_transaction(|s| {
            for g in games_of(token, n) {
                s.insert_game(&g).unwrap();
            }
        })
        .unwrap();
}

/// The games [`store_games`] stores.
fn games_of(token: &str, n: u64) -> Vec<patience_store::StoredGame> {
    let first = |deal| {
        let game = patience_engine::Game::new(patience_engine::game("fan").unwrap(), deal).unwrap();
        let layout = *game.position().layout();
        game.position().legal_moves()[0].text(&layout)
    };
    (0..n)
        .map(|n| {
            let deal = n % 50 + 1;
            patience_store::StoredGame {
                uid: format!("{n:032x}"),
                player: token.to_string(),
                game: "fan".into(),
                deal,
                level: patience_store::AskedLevel::Any,
                moves: first(deal),
                redo: String::new(),
                move_count: 1,
                version: 1,
                hinted: false,
                created_ms: n as i64,
                updated_ms: n as i64,
                finished: false,
                elapsed_ms: 1000,
            }
        })
        .collect()
}
