//! The Patience site: an HTTP API over the engine, the solver behind hints,
//! the SQLite store (`patience-store`), and the embedded web page.
//!
//! The server is authoritative: the page sends a move, the server plays it
//! through the engine, commits it, and answers with the new state and the legal
//! moves (docs/api.md is the contract). Modules, one concern each:
//! - `db`: the store from async code (group-committing writer, readers,
//!   the watch on the database file);
//! - `live`: games in memory, loaded by replaying their records;
//! - `api`: the JSON handlers; `analysis`: the background solver;
//!   `autoplay`: the automatic moves home and the line the table plays; `view`: the state the page draws; `body`, `error`:
//!   request bodies and error answers; `stats`: per-game statistics;
//!   `kept`: a player's reads kept until they change something;
//!   `daily`: the rule of the deal of the day and the site's date;
//! - `player`: the player token cookie; `access_log`: request logging;
//! - `connections`: the accept loop, its timeouts, cap and shutdown deadline;
//!   `protocol`: what RFC 9112 asks of a request, and JSON for the parser's refusals;
//! - `security`: same-origin checks, security headers, JSON for every refusal;
//!   `limits`: how many games a player or an address may start a minute, and
//!   how fast an address may read; `fair`: a fair queue for scarce slots (hints);
//! - `assets`, `embedded`: the page's files; `rules`: rules pages;
//!   `library`: the shipped graded deals, embedded.

pub mod access_log;
pub mod analysis;
pub mod api;
pub mod assets;
pub mod autoplay;
pub mod body;
pub mod connections;
pub mod daily;
pub mod db;
pub mod embedded;
pub mod error;
pub mod fair;
pub mod kept;
pub mod lang;
pub mod library;
pub mod limits;
pub mod live;
pub mod player;
pub mod protocol;
pub mod rules;
pub mod security;
pub mod stats;
pub mod view;

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use patience_store::{Location, Storage};
use tokio::net::TcpListener;

/// Games kept in memory at most (each a few KiB).
pub const LIVE_GAMES: usize = 20_000;

/// Where to listen, where the store lives, and how the site is reached.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// The store: a SQLite file (one server) or a PostgreSQL database
    /// (any number of servers).
    pub db: Location,
    /// The site is reached over HTTPS through a proxy that terminates TLS:
    /// the player cookie becomes `__Host-` and `Secure`.
    pub behind_tls_proxy: bool,
    /// New games one client address may start a minute.
    pub games_per_address_minute: u32,
    /// Connection timeouts, cap and shutdown deadline.
    pub connections: connections::Settings,
    /// A missing database may be created even though its lock file says
    /// it was used before (`patience serve --create`); otherwise only a
    /// first run creates one (see `patience_store::owner`).
    pub create: bool,
    /// The graded library loaded into the store at start, as `(file name,
    /// bytes)`: the embedded one, or a smaller one in tests.
    pub library: &'static [(&'static str, &'static [u8])],
    /// The site's today (Moscow): the system clock, or a fixed date in tests.
    pub clock: daily::Clock,
}

impl Config {
    /// 127.0.0.1 on a free port over the store at `db`, plain HTTP, with the
    /// embedded library.
    pub fn local(db: impl Into<Location>) -> Config {
        Config {
            addr: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            db: db.into(),
            behind_tls_proxy: false,
            games_per_address_minute: limits::GAMES_PER_ADDRESS_MINUTE,
            connections: connections::Settings::default(),
            create: false,
            library: embedded::LIBRARY,
            clock: daily::Clock::System,
        }
    }
}

/// What every handler shares.
pub struct AppState {
    /// The store, whichever it is (see [`patience_store::Storage`]).
    pub db: Arc<dyn Storage>,
    pub cache: live::Cache,
    /// Hint searches running at once and waiting.
    pub hints: api::hint::HintSlots,
    pub cookies: player::CookiePolicy,
    pub limits: limits::Limits,
    pub catalogue: api::catalogue::CatalogueCache,
    pub figures: api::figures::FiguresCache,
    pub daily: api::daily::DailyCache,
    pub kept: kept::Kept,
    pub clock: daily::Clock,
    /// The background solver of the status line, the kept lines and the lost-at search.
    pub analysis: analysis::Analysis,
}

impl AppState {
    /// Opens the store of `config` (a SQLite file is created on a first
    /// run or with `create`; a PostgreSQL database gets its tables), loads
    /// the library's grades it does not hold yet, and sets up the
    /// in-memory games.
    pub async fn open(config: &Config) -> Result<AppState, patience_store::StoreError> {
        let files = config.library;
        let db: Arc<dyn Storage> = match &config.db {
            Location::Sqlite(path) => {
                let creation = if config.create {
                    patience_store::owner::Creation::Allowed
                } else {
                    patience_store::owner::Creation::FirstRun
                };
                let path = path.clone();
                let open = move || {
                    db::Db::open(&path, creation, |s| patience_store::library::load(s, files))
                };
                Arc::new(tokio::task::spawn_blocking(open).await.map_err(|e| {
                    patience_store::StoreError::Failed(format!("opening the store: {e}"))
                })??)
            }
            Location::Postgres(url) => {
                let store =
                    patience_store::PgStore::open(url, patience_store::postgres::CONNECTIONS)
                        .await?;
                store.load_library(files).await?;
                Arc::new(store)
            }
        };
        // Searches take whole cores for a second: one core is always left to moves.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(AppState {
            db,
            cache: live::Cache::new(LIVE_GAMES),
            hints: api::hint::HintSlots::new(cores.saturating_sub(1)),
            cookies: player::CookiePolicy {
                secure: config.behind_tls_proxy,
            },
            limits: limits::Limits::new(
                limits::GAMES_PER_PLAYER_MINUTE,
                config.games_per_address_minute,
                config.behind_tls_proxy,
            ),
            catalogue: Default::default(),
            figures: Default::default(),
            daily: Default::default(),
            kept: Default::default(),
            clock: config.clock,
            analysis: analysis::Analysis::new(analysis_threads(cores)),
        })
    }
}

/// The background solver's threads: half the cores, at least one. Each
/// player has one search at a time at most.
fn analysis_threads(cores: usize) -> usize {
    (cores / 2).max(1)
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot open the store: {0}")]
    Store(#[from] patience_store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The whole site as one router.
pub fn router(state: Arc<AppState>) -> Router {
    let with_player = Router::new()
        .route(
            "/api/games/{game}/new",
            post(api::play::new_game).layer(axum::middleware::from_fn_with_state(
                state.clone(),
                limits::new_games,
            )),
        )
        .route("/api/play/{uid}", get(api::play::get_game))
        .route("/api/play/{uid}/move", post(api::play::play))
        .route("/api/play/{uid}/undo", post(api::play::undo))
        .route("/api/play/{uid}/redo", post(api::play::redo))
        .route("/api/play/{uid}/finish", post(api::play::finish))
        .route("/api/play/{uid}/restart", post(api::play::restart))
        .route("/api/play/{uid}/hint", post(api::hint::hint))
        .route("/api/play/{uid}/analysis", get(api::analysis::analysis))
        .route("/api/continue", get(api::history::in_progress))
        .route("/api/stats", get(api::history::stats))
        .route("/api/stats/games", get(api::history::games))
        .route("/api/daily", get(api::daily::today))
        .route("/api/daily/{game}", get(api::daily::month))
        .route("/api/records/{game}/{deal}", get(api::records::records))
        .route(
            "/api/me",
            get(api::records::me).post(api::records::set_name),
        )
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            api::history::mark_changes,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            state.cookies,
            player::identify,
        ));
    let catalogue = Router::new()
        .route("/api/games", get(api::catalogue::games))
        .route("/api/games/{game}/rules", get(api::catalogue::rules))
        .route("/api/figures", get(api::figures::figures));
    Router::new()
        .merge(catalogue)
        .merge(with_player)
        .route("/api", get(api::no_such_endpoint))
        .route(
            "/api/{*rest}",
            get(api::no_such_endpoint).post(api::no_such_endpoint),
        )
        .route("/", get(assets::index))
        .route("/play/{*rest}", get(assets::index))
        .route("/game/{*rest}", get(assets::index))
        .route("/rules/{*rest}", get(assets::index))
        .route("/daily", get(assets::index))
        .route("/daily/{*rest}", get(assets::index))
        .route("/deal/{*rest}", get(assets::index))
        .route("/stats", get(assets::index))
        .route("/winnability", get(assets::index))
        .route("/static/{*path}", get(assets::static_file))
        // By request class, so that every read endpoint is rationed.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::reads,
        ))
        .layer(DefaultBodyLimit::max(body::MAX_BODY))
        .layer(axum::middleware::from_fn(security::same_origin_json))
        .layer(axum::middleware::from_fn(security::json_errors))
        .layer(axum::middleware::from_fn(security::headers))
        .layer(assets::compression())
        .layer(axum::middleware::from_fn(access_log::log))
        .with_state(state)
}

/// A bound listener with the site ready to run.
pub struct Bound {
    listener: TcpListener,
    router: Router,
    connections: connections::Settings,
}

impl Bound {
    /// The address actually bound (the real port when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then finishes the requests in
    /// flight, giving them the shutdown deadline at most.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        connections::serve(self.listener, self.router, self.connections, shutdown).await
    }
}

/// Opens the store and binds the address.
pub async fn bind(config: &Config) -> Result<Bound, ServeError> {
    let state = AppState::open(config).await?;
    let addr = SocketAddr::new(config.addr, config.port);
    let listener = connections::listen(addr).map_err(|source| ServeError::Bind { addr, source })?;
    Ok(Bound {
        listener,
        router: router(Arc::new(state)),
        connections: config.connections.clone(),
    })
}

/// `patience serve`: binds, prints `listening on http://ADDR:PORT` on stdout,
/// and serves until SIGINT or SIGTERM.
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let bound = bind(&config).await?;
    let addr = bound.local_addr()?;
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}")?;
        out.flush()?;
    }
    tracing::info!(%addr, db = %config.db.describe(), "serving");
    bound.run(shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(())
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
