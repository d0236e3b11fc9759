//! The PostgreSQL store: the same tables as the SQLite file (one list of
//! migrations, [`crate::schema::STEPS`]), shared by any number of servers
//! and grading workers. A pool of connections (deadpool-postgres over
//! tokio-postgres) is opened at start and kept: a connection lost while
//! serving makes the calls that needed it fail with
//! [`StoreError::Unavailable`], and the next calls open new ones once the
//! database answers again. Every change is one transaction, so a game is
//! never half-written; a change to a game is written only if the stored
//! version is still the one it was made from (`UPDATE … WHERE version = $n`),
//! so two servers racing on one game write it exactly once.
//!
//! Modules: [`games`] (saved games), [`grades`] (graded deals, ruled-out
//! deals, the library load), [`site`] (records, display names, the deal
//! of each day), [`work`] (grading shared by several workers),
//! [`copy`] (a SQLite site copied in).

pub mod copy;
pub mod games;
pub mod grades;
pub mod site;
pub mod work;

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::error::SqlState;
use tokio_postgres::NoTls;

use crate::error::StoreError;
use crate::games::{GameStamp, GameUpdate, InProgress, PlayedGame, StoredGame};
use crate::location::without_password;
use crate::schema::{SCHEMA_VERSION, STEPS};
use crate::storage::{LibraryFiles, Storage};
use crate::{DailyDeal, DealGrade, DealResult, DealWin, DisplayName, Level};

/// How long a call waits for a connection (a new one included) before
/// answering that the database cannot be reached.
const WAIT: Duration = Duration::from_secs(5);

/// Connections a process keeps open by default.
pub const CONNECTIONS: usize = 16;

/// The advisory lock that serialises schema upgrades and library loads of
/// servers starting at once.
const SETUP_LOCK: i64 = 0x5041_5449_454e_4345; // "PATIENCE"

/// A pool of connections to one PostgreSQL database.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    describe: String,
}

impl PgStore {
    /// Connects to the database at `url` with up to `connections`
    /// connections, checks that it can be used (reachable, the login
    /// accepted, a schema this build knows) and brings its schema up to
    /// date. Each refusal is one line that says what is wrong.
    pub async fn open(url: &str, connections: usize) -> Result<PgStore, StoreError> {
        let shown = without_password(url);
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Refused(format!("{shown} is not a PostgreSQL URL: {}", one_line(&e)))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(WAIT);
        }
        config.keepalives_idle(Duration::from_secs(30));
        if config.get_application_name().is_none() {
            config.application_name("patience");
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .recycle_timeout(Some(WAIT))
            .build()
            .map_err(|e| StoreError::Refused(format!("{shown}: {e}")))?;
        let store = PgStore {
            pool,
            describe: shown,
        };
        let client = store.pool.get().await.map_err(|e| store.start_error(e))?;
        drop(client);
        store.migrate().await?;
        Ok(store)
    }

    /// A connection from the pool.
    pub(crate) async fn client(&self) -> Result<Object, StoreError> {
        // Whatever stops a connection being made or handed out (the server
        // down, refusing connections, the pool's wait spent) is the
        // database being out of reach for now.
        self.pool.get().await.map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(e) => StoreError::Unavailable(one_line(&e)),
            other => StoreError::Unavailable(other.to_string()),
        })
    }

    /// Why the first connection failed, in one line.
    fn start_error(&self, e: deadpool_postgres::PoolError) -> StoreError {
        let at = &self.describe;
        let deadpool_postgres::PoolError::Backend(e) = e else {
            return StoreError::Refused(format!("cannot reach PostgreSQL at {at}: {e}"));
        };
        let line = one_line(&e);
        StoreError::Refused(match e.code() {
            Some(c)
                if *c == SqlState::INVALID_PASSWORD
                    || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                format!("PostgreSQL at {at} refused the login: {line}")
            }
            Some(c) if *c == SqlState::INVALID_CATALOG_NAME => {
                format!("PostgreSQL at {at} has no such database: {line}")
            }
            Some(_) => format!("PostgreSQL at {at} refused the connection: {line}"),
            None => format!("cannot reach PostgreSQL at {at}: {line}"),
        })
    }

    /// Brings the schema up to [`SCHEMA_VERSION`] in one transaction, under
    /// a lock so that servers starting at once upgrade it once; a database
    /// of a newer schema is refused.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SETUP_LOCK])
            .await?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS patience_schema (version BIGINT NOT NULL)")
            .await?;
        let found: Option<i64> = tx
            .query_opt("SELECT version FROM patience_schema", &[])
            .await?
            .map(|r| r.get(0));
        let version = found.unwrap_or(0);
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { found: version });
        }
        if found.is_none() {
            tx.execute("INSERT INTO patience_schema (version) VALUES (0)", &[])
                .await?;
        }
        for step in STEPS.iter().filter(|s| s.version > version) {
            tx.batch_execute(step.postgres).await?;
            tx.execute("UPDATE patience_schema SET version = $1", &[&step.version])
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The schema version of the database.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_one("SELECT version FROM patience_schema", &[])
            .await?
            .get(0))
    }

    /// Loads the library files the database has not loaded yet, one
    /// transaction a file, under the setup lock (see [`crate::library::load_with`]).
    pub async fn load_library(&self, files: LibraryFiles) -> Result<(), StoreError> {
        for file in crate::library::files(files) {
            let n = self
                .load_library_grades(file.game, &file.digest, &file.grades)
                .await?;
            crate::library::loaded(&file, n);
        }
        Ok(())
    }

    /// Runs raw SQL; for tests that need to damage a row on purpose.
    #[doc(hidden)]
    pub async fn execute_raw(&self, sql: &str) -> Result<u64, StoreError> {
        Ok(self.client().await?.execute(sql, &[]).await?)
    }
}

/// Whether an error without a SQLSTATE is the connection failing (rather
/// than, say, a value that did not convert).
pub(crate) fn is_connection_error(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if s.is::<std::io::Error>() {
            return true;
        }
        source = s.source();
    }
    let text = e.to_string();
    [
        "error connecting",
        "error communicating",
        "timeout",
        "connection closed",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// An error and its causes on one line.
pub(crate) fn one_line(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text.replace('\n', " ")
}

#[async_trait]
impl Storage for PgStore {
    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn shared(&self) -> bool {
        true
    }

    async fn insert_game(&self, game: StoredGame) -> Result<(), StoreError> {
        PgStore::insert_game(self, &game).await
    }

    async fn update_game(&self, update: GameUpdate) -> Result<bool, StoreError> {
        PgStore::update_game(self, &update).await
    }

    async fn mark_hinted(&self, uid: &str) -> Result<(), StoreError> {
        PgStore::mark_hinted(self, uid).await
    }

    async fn load_game(&self, uid: &str) -> Result<Option<StoredGame>, StoreError> {
        PgStore::load_game(self, uid).await
    }

    async fn game_stamp(&self, uid: &str) -> Result<Option<GameStamp>, StoreError> {
        PgStore::game_stamp(self, uid).await
    }

    async fn in_progress(&self, player: &str, limit: u32) -> Result<Vec<InProgress>, StoreError> {
        PgStore::in_progress(self, player, limit).await
    }

    async fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        PgStore::played_games(self, player).await
    }

    async fn grade(&self, game: &str, deal: u64) -> Result<Option<DealGrade>, StoreError> {
        PgStore::grade(self, game, deal).await
    }

    async fn level_counts(&self, game: &str) -> Result<Vec<(Level, u64)>, StoreError> {
        PgStore::level_counts(self, game).await
    }

    async fn random_graded_deal(
        &self,
        game: &str,
        level: Level,
    ) -> Result<Option<u64>, StoreError> {
        PgStore::random_graded_deal(self, game, level).await
    }

    async fn grades(&self, game: &str) -> Result<Vec<DealGrade>, StoreError> {
        PgStore::grades(self, game).await
    }

    async fn deals_of_level(&self, game: &str, level: Level) -> Result<Vec<u64>, StoreError> {
        PgStore::deals_of_level(self, game, level).await
    }

    async fn hint_free_wins(&self, game: &str, deal: u64) -> Result<Vec<DealWin>, StoreError> {
        PgStore::hint_free_wins(self, game, deal).await
    }

    async fn name_of(&self, player: &str) -> Result<Option<DisplayName>, StoreError> {
        PgStore::name_of(self, player).await
    }

    async fn set_name(
        &self,
        player: &str,
        name: Option<DisplayName>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        PgStore::set_name(self, player, name.as_ref(), now_ms).await
    }

    async fn has_games(&self, player: &str) -> Result<bool, StoreError> {
        PgStore::has_games(self, player).await
    }

    async fn daily_deals(
        &self,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<DailyDeal>, StoreError> {
        PgStore::daily_deals(self, game, from, to).await
    }

    async fn keep_daily(&self, deals: Vec<DailyDeal>) -> Result<(), StoreError> {
        PgStore::keep_daily(self, &deals).await
    }

    async fn won_deals(
        &self,
        player: &str,
        game: Option<&str>,
    ) -> Result<Vec<(String, DealResult)>, StoreError> {
        PgStore::won_deals(self, player, game).await
    }
}
