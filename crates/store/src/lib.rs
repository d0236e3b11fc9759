//! The Patience store: saved games and graded deals in one SQLite file or
//! one PostgreSQL database, and the graded library's TSV files
//! (`data/library/<game>.tsv`). [`Storage`] is the one interface the server
//! uses, whichever of the two holds the site; [`Location`] says which one
//! `--db` names.
//!
//! One [`Store`] is one connection to a real file in WAL mode with
//! `synchronous=NORMAL`: a committed transaction survives a crash of the
//! process, and readers never wait for the writer. Everything here is
//! synchronous; the server runs it on a writer thread and on blocking
//! tasks, and `patience grade` calls it directly. Modules, one concept each:
//! - [`schema`]: the tables, their version and the migrations between
//!   versions, a SQLite and a PostgreSQL text a step;
//! - [`storage`]: the interface both stores answer; [`location`]: which one `--db` names;
//! - [`postgres`]: the PostgreSQL store (a pool over tokio-postgres), its
//!   grading work shared by several workers, and a SQLite site copied into it;
//! - [`games`]: saved games (a record of moves, its redo list, its version);
//! - [`grades`]: graded deals (a level and the person-like player's wins);
//! - [`ruled_out`]: deals a hunt for some levels showed are of none of them;
//! - [`records`]: a deal's wins without hints, by every player;
//! - [`names`]: players' display names;
//! - [`daily`]: the deal of each day, kept once chosen;
//! - [`export`]: a SQLite store read whole, for a copy into PostgreSQL;
//! - [`library`]: the library files, read and written, and their load into a store;
//! - [`owner`]: the one server that owns a database file, and how it opens it;
//! - [`backup`]: a consistent copy of a database, and putting one back in place;
//! - [`error`]: what can go wrong.

/// The mark in front of a stored move word that follows the move before it
/// within one click (a card going home by itself after the player's move):
/// what the SQL that counts a game's clicks leaves out. A macro, so that the
/// statements can carry it with `concat!`.
macro_rules! follows_mark {
    () => {
        "+"
    };
}
pub(crate) use follows_mark;

/// [`follows_mark`] for the code that writes and reads the words.
pub const FOLLOWS: &str = follows_mark!();

pub mod backup;
pub mod daily;
pub mod error;
pub mod export;
pub mod games;
pub mod grades;
pub mod library;
pub mod location;
pub mod names;
pub mod owner;
pub mod postgres;
pub mod records;
pub mod ruled_out;
pub mod schema;
pub mod storage;

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use daily::{DailyDeal, DealResult};
pub use error::StoreError;
pub use games::{
    AskedLevel, FirstWin, GameStamp, GameUpdate, InProgress, MovesChange, PlayedGame, StoredGame,
    MAX_MOVES, STATS_GAMES,
};
pub use location::Location;
pub use names::{DisplayName, NameError};
/// The levels and what is kept of a grade: the grading's own words, named
/// below both the grading and the store so the two cannot disagree.
pub use patience_levels::{DealGrade, Level, PersonWins};
pub use postgres::PgStore;
pub use records::DealWin;
pub use schema::SCHEMA_VERSION;
pub use storage::{LibraryFiles, Storage};

/// The write-ahead log is cut back to this size after a checkpoint.
pub const WAL_LIMIT: i64 = 4 * 1024 * 1024;

/// One connection to the store's file.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating on first use) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::with_connection(Connection::open(path)?)
    }

    /// Opens the store at `path`, which must exist: a connection opened
    /// after the file was deleted must not make an empty one in its place.
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        let flags = OpenFlags::default() - OpenFlags::SQLITE_OPEN_CREATE;
        Store::with_connection(Connection::open_with_flags(path, flags)?)
    }

    fn with_connection(mut conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "journal_size_limit", WAL_LIMIT)?;
        schema::migrate(&mut conn)?;
        Ok(Store { conn })
    }

    /// Runs `work` inside one write transaction and commits it: with it the
    /// server commits a batch of changes at once (group commit). Each change's
    /// own result is whatever `work` returns; a failed commit fails them all.
    pub fn in_transaction<T>(&mut self, work: impl FnOnce(&Store) -> T) -> Result<T, StoreError> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let out = work(self);
        if let Err(e) = self.conn.execute_batch("COMMIT") {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
        Ok(out)
    }

    /// Leaves checkpoints (copying the WAL into the main file, with an fsync)
    /// to [`Store::checkpoint`], so the connection that commits moves never waits for one.
    pub fn disable_auto_checkpoint(&self) -> Result<(), StoreError> {
        self.conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        Ok(())
    }

    /// Copies what it can of the WAL into the main file without blocking writers.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        schema::version(&self.conn)
    }

    /// Runs raw SQL; for tests that need to damage a row on purpose.
    #[doc(hidden)]
    pub fn execute_raw(&self, sql: &str) -> Result<usize, StoreError> {
        Ok(self.conn.execute(sql, [])?)
    }
}

/// Checks a deal number and turns it into SQLite's integer.
pub(crate) fn deal_to_sql(deal: u64) -> Result<i64, StoreError> {
    if (1..=patience_engine::MAX_DEAL).contains(&deal) {
        Ok(deal as i64)
    } else {
        Err(StoreError::BadDeal(deal))
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::Store;

    /// A store in a fresh temporary directory (kept alive by the first value).
    pub fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        (dir, store)
    }
}
