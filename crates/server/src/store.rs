//! The SQLite store: saved games, graded deals, and the schema that holds them.
//!
//! One [`Store`] is one connection to a real file in WAL mode with
//! `synchronous=NORMAL`: a committed transaction survives a crash of the
//! server process, and readers never wait for the writer. The schema carries its
//! version in `PRAGMA user_version`; a file made by a newer server is refused
//! rather than guessed at.
//!
//! A game is stored as its record — game id, deal number and its moves, one
//! row a move in `game_moves` — so a stored game survives upgrades of the
//! server: loading replays the moves through the engine. The plies past the
//! game's `move_count` are its redo list, first to redo first: undo and redo
//! only change the count, and a new move writes one row (and drops the redo
//! plies unless it was the first of them), so a move costs the same whatever
//! the game's length. The store itself never interprets the moves; it only
//! keeps them.
//!
//! Every game has a `version` that grows by one with each change: a change
//! is written only if the version is still the one it was made from, so a
//! change made from a position the game has left is never stored.
//!
//! Everything here is synchronous; the server runs it on a writer thread and on
//! blocking tasks, and `patience grade` calls it directly.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: i64 = 3;

/// Most moves a game may hold: far above any real game (a long House game
/// takes a few hundred), low enough that no record grows without bound.
pub const MAX_MOVES: u64 = 5_000;

/// Statistics are worked out from a player's newest games, this many at most:
/// years of daily play, and a bounded read however many games one client made.
pub const STATS_GAMES: i64 = 10_000;

/// The write-ahead log is cut back to this size after a checkpoint.
pub const WAL_LIMIT: i64 = 4 * 1024 * 1024;

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the database has schema version {found}; this server knows versions up to {SCHEMA_VERSION}")]
    NewerSchema { found: i64 },
    #[error("unknown level `{0}` (expected easy, medium, hard, unwinnable or unknown)")]
    BadLevel(String),
    #[error("deal number {0} is out of range")]
    BadDeal(u64),
    #[error("the grade detail is not JSON: {0}")]
    BadDetail(String),
    /// A stored grade row that this build cannot read (edited by hand, or
    /// written by something else): named, so it can be found and fixed.
    #[error("corrupt grade row of {game}: deal {deal}, level `{level}`")]
    CorruptGrade {
        game: String,
        deal: i64,
        level: String,
    },
    /// A failure outside SQLite's own errors (the writer thread, a failed batch).
    #[error("{0}")]
    Failed(String),
}

/// The levels a graded deal may have: the grader's own type, so the store
/// and the grader cannot disagree on the words.
pub use patience_solver::levels::Level;

/// Reads a level word, refusing anything else with a store error.
pub fn parse_level(text: &str) -> Result<Level, StoreError> {
    Level::parse(text).ok_or_else(|| StoreError::BadLevel(shorten(text)))
}

/// A game as the store keeps it: the record, the redo list and the bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub uid: String,
    pub player: String,
    pub game: String,
    pub deal: u64,
    /// `any` or the level the deal was picked from.
    pub level: String,
    /// Move words separated by single spaces, first move first.
    pub moves: String,
    /// Moves that redo would play, first to redo first.
    pub redo: String,
    pub move_count: u64,
    /// Grows by one with every change; the page's `expect`.
    pub version: u64,
    /// A hint was served before the game's first win.
    pub hinted: bool,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Set at the game's first win and never cleared, even when the player
    /// undoes moves after it: a deal's win is counted once (see `won_moves`).
    pub finished: bool,
    pub elapsed_ms: i64,
}

/// How a change to a game's moves is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesChange {
    /// New moves ending at the game's `move_count`-th (one, or a move and the
    /// automatic moves home after it). `keep_redo`: they were the first moves
    /// to redo, so the rest of the redo list stays.
    Play { words: Vec<String>, keep_redo: bool },
    /// Undo or redo: only the count changes (the plies past it are the redo list).
    Step,
}

/// One acknowledged change to a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameUpdate {
    pub uid: String,
    pub moves: MovesChange,
    /// The version the change was made from; the stored game becomes `version + 1`.
    pub version: u64,
    pub move_count: u64,
    pub updated_ms: i64,
    pub elapsed_ms: i64,
    pub won: bool,
}

/// A row of the "Continue" list.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InProgress {
    pub uid: String,
    pub game: String,
    pub deal: u64,
    pub moves: u64,
    pub updated: i64,
}

/// One of a player's games, as statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub game: String,
    pub move_count: u64,
    /// The game's first win, if it has one: what it took then. Undo after a
    /// win and a second win change neither.
    pub first_win: Option<FirstWin>,
    /// A hint was served before the first win.
    pub hinted: bool,
}

/// The moves and playing time of a game at its first win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstWin {
    pub moves: u64,
    pub elapsed_ms: i64,
}

/// One connection to the store's file.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating on first use) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "journal_size_limit", WAL_LIMIT)?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        // An up-to-date file (the usual case) needs no write lock at all.
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { found: version });
        }
        if (1..SCHEMA_VERSION).contains(&version) {
            self.backup(version)?;
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema { found: version });
        }
        if version < 1 {
            tx.execute_batch(
                "CREATE TABLE games (
                    uid TEXT PRIMARY KEY,
                    player TEXT NOT NULL,
                    game TEXT NOT NULL,
                    deal INTEGER NOT NULL,
                    level TEXT NOT NULL,
                    moves TEXT NOT NULL DEFAULT '',
                    redo TEXT NOT NULL DEFAULT '',
                    move_count INTEGER NOT NULL DEFAULT 0,
                    created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL,
                    finished INTEGER NOT NULL DEFAULT 0,
                    elapsed_ms INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX games_by_player ON games (player, created_ms);
                CREATE TABLE grades (
                    game TEXT NOT NULL,
                    deal INTEGER NOT NULL,
                    level TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    PRIMARY KEY (game, deal)
                ) WITHOUT ROWID;
                CREATE INDEX grades_by_level ON grades (game, level);
                PRAGMA user_version = 1;",
            )?;
        }
        if version < 2 {
            // Version 2: a won game can be undone, so the figures of its first
            // win are kept apart from its current move count and time. Games
            // won under version 1 could not be undone: their current figures
            // are those of their win.
            tx.execute_batch(
                "ALTER TABLE games ADD COLUMN won_moves INTEGER;
                ALTER TABLE games ADD COLUMN won_ms INTEGER;
                UPDATE games SET won_moves = move_count, won_ms = elapsed_ms WHERE finished = 1;
                PRAGMA user_version = 2;",
            )?;
        }
        if version < 3 {
            // Version 3: one row a move (appended, not rewritten) and a
            // version that only grows. Old games start at their move count,
            // which is what pages open during the upgrade send as `expect`.
            tx.execute_batch(
                "CREATE TABLE game_moves (
                    uid TEXT NOT NULL,
                    ply INTEGER NOT NULL,
                    word TEXT NOT NULL,
                    PRIMARY KEY (uid, ply)
                ) WITHOUT ROWID;
                ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
                UPDATE games SET version = move_count;",
            )?;
            {
                let mut read = tx.prepare("SELECT uid, moves, redo FROM games")?;
                let mut write =
                    tx.prepare("INSERT INTO game_moves (uid, ply, word) VALUES (?1, ?2, ?3)")?;
                let rows = read.query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                })?;
                for row in rows {
                    let (uid, moves, redo) = row?;
                    let words = moves.split_whitespace().chain(redo.split_whitespace());
                    for (i, word) in words.enumerate() {
                        write.execute(params![uid, i as i64 + 1, word])?;
                    }
                }
            }
            tx.execute_batch(
                "ALTER TABLE games DROP COLUMN moves;
                ALTER TABLE games DROP COLUMN redo;
                PRAGMA user_version = 3;",
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Copies the file, as it is, to `<file>.v<version>.bak` before its schema
    /// is upgraded: a failed or regretted upgrade loses nothing.
    fn backup(&self, version: i64) -> Result<(), StoreError> {
        let Some(path) = self.conn.path().filter(|p| !p.is_empty()) else {
            return Ok(());
        };
        let target = format!("{path}.v{version}.bak");
        if Path::new(&target).exists() {
            return Ok(());
        }
        self.conn.execute("VACUUM INTO ?1", [&target])?;
        tracing::info!(
            backup = target,
            "copied the database before upgrading its schema"
        );
        Ok(())
    }

    // ---- graded deals (the levels issue; `patience grade` writes these) ----

    /// Records (or replaces) the grade of one deal. `detail_json` is kept as given
    /// after checking that it is JSON.
    pub fn put_grade(
        &self,
        game: &str,
        deal: u64,
        level: &str,
        detail_json: &str,
    ) -> Result<(), StoreError> {
        let level = parse_level(level)?;
        let deal_sql = deal_to_sql(deal)?;
        serde_json::from_str::<serde_json::Value>(detail_json)
            .map_err(|e| StoreError::BadDetail(e.to_string()))?;
        self.conn
            .prepare_cached(
                "INSERT INTO grades (game, deal, level, detail) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level, detail = excluded.detail",
            )?
            .execute(params![game, deal_sql, level.as_str(), detail_json])?;
        Ok(())
    }

    /// Loads many grades in one transaction (the shipped library on first start).
    /// Returns how many were written.
    pub fn put_grades(&mut self, game: &str, grades: &[(u64, Level)]) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO grades (game, deal, level, detail) VALUES (?1, ?2, ?3, '{}')
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level",
            )?;
            for &(deal, level) in grades {
                st.execute(params![game, deal_to_sql(deal)?, level.as_str()])?;
            }
        }
        tx.commit()?;
        Ok(grades.len())
    }

    /// Every graded deal of a game, whatever its level: the deals a resumed
    /// grading skips. Read through [`Store::grades`], so a corrupt row is an
    /// error naming it rather than a deal number made up from it.
    pub fn graded_deals(&self, game: &str) -> Result<HashSet<u64>, StoreError> {
        Ok(self
            .grades(game)?
            .into_iter()
            .map(|(deal, _)| deal)
            .collect())
    }

    /// Every graded deal of a game with its level, by deal number: what
    /// `patience grade --export` writes into the library, so grades made on
    /// several machines over several ranges can be merged into one file.
    /// A row whose deal or level this build cannot read is an error naming
    /// it, never skipped: an export must not lose deals silently.
    pub fn grades(&self, game: &str) -> Result<Vec<(u64, Level)>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT deal, level FROM grades WHERE game = ?1 ORDER BY deal")?;
        let rows = st.query_map([game], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (deal, level) = row?;
            let known = u64::try_from(deal)
                .ok()
                .filter(|d| (1..=patience_engine::MAX_DEAL).contains(d))
                .zip(Level::parse(&level));
            match known {
                Some(pair) => out.push(pair),
                None => {
                    return Err(StoreError::CorruptGrade {
                        game: game.to_string(),
                        deal,
                        level: shorten(&level),
                    })
                }
            }
        }
        Ok(out)
    }

    /// How many deals of a game each level holds, in level order; levels with none are left out.
    pub fn level_counts(&self, game: &str) -> Result<Vec<(String, u64)>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT level, COUNT(*) FROM grades WHERE game = ?1 GROUP BY level")?;
        let rows = st.query_map([game], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        let mut out: Vec<(Option<Level>, String, u64)> = Vec::new();
        for row in rows {
            let (name, n) = row?;
            out.push((Level::parse(&name), name, n as u64));
        }
        // Known levels in their order; anything foreign (written by hand) after them.
        out.sort_by(|a, b| match (a.0, b.0) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.1.cmp(&b.1),
        });
        Ok(out.into_iter().map(|(_, name, n)| (name, n)).collect())
    }

    /// A deal of this level picked at random, or `None` when the level has none.
    pub fn random_graded_deal(&self, game: &str, level: &str) -> Result<Option<u64>, StoreError> {
        let level = parse_level(level)?;
        let deal = self
            .conn
            .prepare_cached(
                "SELECT deal FROM grades WHERE game = ?1 AND level = ?2 ORDER BY random() LIMIT 1",
            )?
            .query_row(params![game, level.as_str()], |r| r.get::<_, i64>(0))
            .optional()?;
        Ok(deal.map(|d| d as u64))
    }

    /// Adds grades for deals the store has not graded, leaving every grade
    /// it holds as it is (a deal graded locally keeps its local grade);
    /// returns how many were added.
    pub fn add_missing_grades(
        &mut self,
        game: &str,
        grades: &[(u64, Level)],
    ) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        let mut added = 0;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO grades (game, deal, level, detail) VALUES (?1, ?2, ?3, '{}')
                 ON CONFLICT (game, deal) DO NOTHING",
            )?;
            for &(deal, level) in grades {
                added += st.execute(params![game, deal_to_sql(deal)?, level.as_str()])?;
            }
        }
        tx.commit()?;
        Ok(added)
    }

    /// How many deals of this game are graded.
    pub fn grade_count(&self, game: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM grades WHERE game = ?1")?
            .query_row([game], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Whether any deal of this game is graded.
    pub fn has_grades(&self, game: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM grades WHERE game = ?1 LIMIT 1")?
            .query_row([game], |_| Ok(()))
            .optional()?
            .is_some())
    }

    // ---- saved games ----

    /// Stores a new game (no moves yet).
    pub fn insert_game(&self, g: &StoredGame) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO games (uid, player, game, deal, level, move_count,
                                    created_ms, updated_ms, finished, elapsed_ms, version, hinted)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?
            .execute(params![
                g.uid,
                g.player,
                g.game,
                deal_to_sql(g.deal)?,
                g.level,
                g.move_count as i64,
                g.created_ms,
                g.updated_ms,
                g.finished,
                g.elapsed_ms,
                g.version as i64,
                g.hinted
            ])?;
        let mut st = self
            .conn
            .prepare_cached("INSERT INTO game_moves (uid, ply, word) VALUES (?1, ?2, ?3)")?;
        let words = g.moves.split_whitespace().chain(g.redo.split_whitespace());
        for (i, word) in words.enumerate() {
            st.execute(params![g.uid, i as i64 + 1, word])?;
        }
        Ok(())
    }

    /// The stored game with this uid, whoever owns it.
    pub fn load_game(&self, uid: &str) -> Result<Option<StoredGame>, StoreError> {
        self.conn
            .prepare_cached(
                "SELECT uid, player, game, deal, level, move_count,
                        created_ms, updated_ms, finished, elapsed_ms, version, hinted
                 FROM games WHERE uid = ?1",
            )?
            .query_row([uid], |r| {
                Ok(StoredGame {
                    uid: r.get(0)?,
                    player: r.get(1)?,
                    game: r.get(2)?,
                    deal: r.get::<_, i64>(3)? as u64,
                    level: r.get(4)?,
                    moves: String::new(),
                    redo: String::new(),
                    move_count: r.get::<_, i64>(5)? as u64,
                    created_ms: r.get(6)?,
                    updated_ms: r.get(7)?,
                    finished: r.get(8)?,
                    elapsed_ms: r.get(9)?,
                    version: r.get::<_, i64>(10)? as u64,
                    hinted: r.get(11)?,
                })
            })
            .optional()?
            .map(|g| self.with_moves(g))
            .transpose()
    }

    /// Fills in a loaded game's moves and redo list from its plies.
    fn with_moves(&self, mut g: StoredGame) -> Result<StoredGame, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT word FROM game_moves WHERE uid = ?1 ORDER BY ply")?;
        let words = st.query_map([&g.uid], |r| r.get::<_, String>(0))?;
        for (i, word) in words.enumerate() {
            let text = if (i as u64) < g.move_count {
                &mut g.moves
            } else {
                &mut g.redo
            };
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&word?);
        }
        Ok(g)
    }

    /// Marks that a hint was served to the game, unless it is already won
    /// (a hint after the win does not change how it was won).
    pub fn mark_hinted(&self, uid: &str) -> Result<(), StoreError> {
        self.conn
            .prepare_cached("UPDATE games SET hinted = 1 WHERE uid = ?1 AND finished = 0")?
            .execute([uid])?;
        Ok(())
    }

    /// Writes one change to a game; false when no such game is stored.
    pub fn update_game(&self, u: &GameUpdate) -> Result<bool, StoreError> {
        update_game_on(&self.conn, u)
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

    /// The player's unfinished games with at least one move, most recently played first.
    /// A deal opened and left untouched is not "in progress".
    pub fn in_progress(&self, player: &str, limit: u32) -> Result<Vec<InProgress>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT uid, game, deal, move_count, updated_ms FROM games
             WHERE player = ?1 AND finished = 0 AND move_count > 0 ORDER BY updated_ms DESC, rowid DESC LIMIT ?2",
        )?;
        let rows = st.query_map(params![player, limit], |r| {
            Ok(InProgress {
                uid: r.get(0)?,
                game: r.get(1)?,
                deal: r.get::<_, i64>(2)? as u64,
                moves: r.get::<_, i64>(3)? as u64,
                updated: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The player's newest [`STATS_GAMES`] games, oldest first.
    pub fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, move_count, finished, won_moves, won_ms, hinted FROM
               (SELECT game, move_count, finished, won_moves, won_ms, hinted, created_ms, rowid
                FROM games WHERE player = ?1 ORDER BY created_ms DESC, rowid DESC LIMIT ?2)
             ORDER BY created_ms, rowid",
        )?;
        let rows = st.query_map(params![player, STATS_GAMES], |r| {
            let finished: bool = r.get(2)?;
            let won_moves: Option<i64> = r.get(3)?;
            let won_ms: Option<i64> = r.get(4)?;
            Ok(PlayedGame {
                game: r.get(0)?,
                move_count: r.get::<_, i64>(1)? as u64,
                first_win: match (finished, won_moves, won_ms) {
                    (true, Some(moves), Some(elapsed_ms)) => Some(FirstWin {
                        moves: moves as u64,
                        elapsed_ms,
                    }),
                    _ => None,
                },
                hinted: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
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

    /// Copies the whole WAL into the main file and empties it (waiting for
    /// readers to move on): what keeps the WAL from growing while writes never stop.
    pub fn checkpoint_truncate(&self) -> Result<(), StoreError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Runs raw SQL; for tests that need to damage a row on purpose.
    #[doc(hidden)]
    pub fn execute_raw(&self, sql: &str) -> Result<usize, StoreError> {
        Ok(self.conn.execute(sql, [])?)
    }
}

/// One game update on a connection, written only if the stored game is
/// still at the version the change was made from.
/// The first update that wins sets `finished` and keeps that moment's move
/// count and time in `won_moves`/`won_ms`; later ones leave all three alone
/// (SQLite evaluates every expression of an UPDATE against the old row).
fn update_game_on(conn: &Connection, u: &GameUpdate) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE games SET move_count = ?3, updated_ms = ?4, elapsed_ms = ?5,
                    version = version + 1,
                    finished = finished OR ?6,
                    won_moves = CASE WHEN finished = 0 AND ?6 THEN ?3 ELSE won_moves END,
                    won_ms = CASE WHEN finished = 0 AND ?6 THEN ?5 ELSE won_ms END
                 WHERE uid = ?1 AND version = ?2",
        )?
        .execute(params![
            u.uid,
            u.version as i64,
            u.move_count as i64,
            u.updated_ms,
            u.elapsed_ms,
            u.won
        ])?;
    if n != 1 {
        return Ok(false);
    }
    if let MovesChange::Play { words, keep_redo } = &u.moves {
        let first = u.move_count as i64 + 1 - words.len() as i64;
        if !keep_redo {
            conn.prepare_cached("DELETE FROM game_moves WHERE uid = ?1 AND ply >= ?2")?
                .execute(params![u.uid, first])?;
        }
        let mut insert = conn.prepare_cached(
            "INSERT INTO game_moves (uid, ply, word) VALUES (?1, ?2, ?3)
             ON CONFLICT (uid, ply) DO UPDATE SET word = excluded.word",
        )?;
        for (i, word) in words.iter().enumerate() {
            insert.execute(params![u.uid, first + i as i64, word])?;
        }
    }
    Ok(true)
}

fn deal_to_sql(deal: u64) -> Result<i64, StoreError> {
    if (1..=patience_engine::MAX_DEAL).contains(&deal) {
        Ok(deal as i64)
    } else {
        Err(StoreError::BadDeal(deal))
    }
}

/// Quotes user text in an error without letting it grow without bound.
fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        (dir, store)
    }

    #[test]
    fn grades_upsert_count_and_pick() {
        let (_dir, store) = temp_store();
        store.put_grade("fan", 5, "easy", "{}").unwrap();
        store
            .put_grade("fan", 6, "hard", r#"{"nodes":12}"#)
            .unwrap();
        store.put_grade("fan", 7, "hard", "{}").unwrap();
        // An upsert moves deal 7 from hard to easy rather than adding a row.
        store.put_grade("fan", 7, "easy", "{}").unwrap();
        assert_eq!(
            store.level_counts("fan").unwrap(),
            vec![("easy".to_string(), 2), ("hard".to_string(), 1)]
        );
        assert_eq!(store.graded_deals("fan").unwrap(), HashSet::from([5, 6, 7]));
        assert!(store.graded_deals("krug").unwrap().is_empty());
        assert_eq!(store.random_graded_deal("fan", "hard").unwrap(), Some(6));
        assert_eq!(store.random_graded_deal("fan", "medium").unwrap(), None);
        let easy = store.random_graded_deal("fan", "easy").unwrap().unwrap();
        assert!(easy == 5 || easy == 7);
    }

    #[test]
    fn grades_list_a_game_by_deal_and_name_a_corrupt_row() {
        let (_d, store) = temp_store();
        assert!(store.grades("fan").unwrap().is_empty());
        store.put_grade("fan", 9, "hard", "{}").unwrap();
        store.put_grade("fan", 2, "easy", "{}").unwrap();
        store.put_grade("fan", 9, "medium", "{}").unwrap();
        store.put_grade("krug", 1, "easy", "{}").unwrap();
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![(2, Level::Easy), (9, Level::Medium)]
        );
        // A row the store's own calls refuse to write, put there by hand.
        store
            .execute_raw("INSERT INTO grades VALUES ('fan', 5, 'trivial', '{}')")
            .unwrap();
        let err = store.grades("fan").unwrap_err().to_string();
        assert!(
            err.contains("fan") && err.contains("deal 5") && err.contains("trivial"),
            "{err}"
        );
        store
            .execute_raw("UPDATE grades SET level = 'easy', deal = -1 WHERE deal = 5")
            .unwrap();
        let err = store.grades("fan").unwrap_err().to_string();
        assert!(err.contains("deal -1"), "{err}");
        // A resumed grading stops on it too, rather than skip a made-up deal.
        assert!(store.graded_deals("fan").is_err());
        assert_eq!(store.grades("krug").unwrap(), vec![(1, Level::Easy)]);
    }

    #[test]
    fn bad_grades_are_refused_and_change_nothing() {
        let (_dir, store) = temp_store();
        assert!(matches!(
            store.put_grade("fan", 5, "trivial", "{}"),
            Err(StoreError::BadLevel(_))
        ));
        assert!(matches!(
            store.put_grade("fan", 0, "easy", "{}"),
            Err(StoreError::BadDeal(0))
        ));
        assert!(matches!(
            store.put_grade("fan", 5, "easy", "{not json"),
            Err(StoreError::BadDetail(_))
        ));
        assert!(store.random_graded_deal("fan", "trivial").is_err());
        assert!(!store.has_grades("fan").unwrap());
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        Store::open(&path)
            .unwrap()
            .execute_raw("PRAGMA user_version = 99")
            .unwrap();
        assert!(matches!(
            Store::open(&path),
            Err(StoreError::NewerSchema { found: 99 })
        ));
    }

    fn new_row(uid: &str) -> StoredGame {
        StoredGame {
            uid: uid.into(),
            player: "p".into(),
            game: "fan".into(),
            deal: 3,
            level: "any".into(),
            moves: String::new(),
            redo: String::new(),
            move_count: 0,
            created_ms: 1,
            updated_ms: 1,
            finished: false,
            elapsed_ms: 0,
            version: 0,
            hinted: false,
        }
    }

    #[test]
    fn the_first_win_is_kept_through_undo_and_a_second_win() {
        let (_dir, store) = temp_store();
        store.insert_game(&new_row("u1")).unwrap();
        let version = std::cell::Cell::new(0);
        let up = |n: u64, ms: i64, won: bool| GameUpdate {
            uid: "u1".into(),
            moves: MovesChange::Step,
            version: version.replace(version.get() + 1),
            move_count: n,
            updated_ms: 2,
            elapsed_ms: ms,
            won,
        };
        let first_win = || store.played_games("p").unwrap()[0].first_win;
        store.update_game(&up(10, 100, false)).unwrap();
        assert_eq!(first_win(), None);
        store.update_game(&up(11, 200, true)).unwrap();
        let win = Some(FirstWin {
            moves: 11,
            elapsed_ms: 200,
        });
        assert_eq!(first_win(), win);
        // Undone, then won again faster in fewer moves: the first win stands.
        store.update_game(&up(5, 300, false)).unwrap();
        assert_eq!(first_win(), win);
        store.update_game(&up(8, 400, true)).unwrap();
        assert_eq!(first_win(), win);
        let row = store.load_game("u1").unwrap().unwrap();
        assert!(row.finished);
        assert_eq!((row.move_count, row.elapsed_ms), (8, 400));
        assert!(store.in_progress("p", 10).unwrap().is_empty());
    }

    #[test]
    fn a_version_1_file_is_upgraded_keeping_its_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (
                    uid TEXT PRIMARY KEY, player TEXT NOT NULL, game TEXT NOT NULL,
                    deal INTEGER NOT NULL, level TEXT NOT NULL,
                    moves TEXT NOT NULL DEFAULT '', redo TEXT NOT NULL DEFAULT '',
                    move_count INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
                    elapsed_ms INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX games_by_player ON games (player, created_ms);
                CREATE TABLE grades (game TEXT NOT NULL, deal INTEGER NOT NULL,
                    level TEXT NOT NULL, detail TEXT NOT NULL,
                    PRIMARY KEY (game, deal)) WITHOUT ROWID;
                INSERT INTO games VALUES ('w', 'p', 'fan', 3, 'any', 'x', '', 52, 1, 2, 1, 7000);
                INSERT INTO games VALUES ('o', 'p', 'fan', 4, 'any', 'x', '', 9, 3, 4, 0, 500);
                PRAGMA user_version = 1;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let games = store.played_games("p").unwrap();
        assert_eq!(
            games[0].first_win,
            Some(FirstWin {
                moves: 52,
                elapsed_ms: 7000
            })
        );
        assert_eq!(games[1].first_win, None);
        let version: i64 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn moves_are_rows_and_the_plies_past_the_count_are_the_redo_list() {
        let (_dir, mut store) = temp_store();
        store.insert_game(&new_row("u1")).unwrap();
        let up = |moves, version, n| GameUpdate {
            uid: "u1".into(),
            moves,
            version,
            move_count: n,
            updated_ms: 2,
            elapsed_ms: 5,
            won: false,
        };
        let play = |w: &str, keep_redo| MovesChange::Play {
            words: vec![w.into()],
            keep_redo,
        };
        let r = store
            .in_transaction(|s| {
                [
                    s.update_game(&up(play("a", false), 0, 1)),
                    s.update_game(&up(play("b", false), 1, 2)),
                    s.update_game(&up(play("c", false), 2, 3)),
                ]
            })
            .unwrap();
        assert!(r.iter().all(|x| matches!(x, Ok(true))));
        let load = || store.load_game("u1").unwrap().unwrap();
        assert_eq!((load().moves.as_str(), load().version), ("a b c", 3));
        // Two undos: the count falls, the words stay as the redo list.
        store.update_game(&up(MovesChange::Step, 3, 2)).unwrap();
        store.update_game(&up(MovesChange::Step, 4, 1)).unwrap();
        let g = load();
        assert_eq!(
            (g.moves.as_str(), g.redo.as_str(), g.version),
            ("a", "b c", 5)
        );
        // Playing the first move to redo keeps the rest of the list.
        store.update_game(&up(play("b", true), 5, 2)).unwrap();
        assert_eq!((load().moves, load().redo), ("a b".into(), "c".into()));
        // Another move drops it.
        store.update_game(&up(play("x", false), 6, 3)).unwrap();
        assert_eq!((load().moves, load().redo), ("a b x".into(), String::new()));
        // A change made from an old version is not written.
        assert!(!store.update_game(&up(play("y", false), 3, 4)).unwrap());
        assert_eq!((load().moves.as_str(), load().version), ("a b x", 7));
        assert!(!store
            .update_game(&GameUpdate {
                uid: "nope".into(),
                ..up(MovesChange::Step, 0, 0)
            })
            .unwrap());
    }

    #[test]
    fn a_version_2_file_is_copied_then_upgraded_to_one_row_a_move() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let store = Store::open(&path).unwrap();
            store.insert_game(&new_row("g")).unwrap();
        }
        {
            // Turn the file back into version 2 with a game in the old shape.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP TABLE game_moves;
                ALTER TABLE games DROP COLUMN version;
                ALTER TABLE games DROP COLUMN hinted;
                ALTER TABLE games ADD COLUMN moves TEXT NOT NULL DEFAULT '';
                ALTER TABLE games ADD COLUMN redo TEXT NOT NULL DEFAULT '';
                UPDATE games SET moves = 't1>f1 t2>t3', redo = 't4>t5', move_count = 2;
                PRAGMA user_version = 2;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let g = store.load_game("g").unwrap().unwrap();
        assert_eq!(
            (g.moves.as_str(), g.redo.as_str()),
            ("t1>f1 t2>t3", "t4>t5")
        );
        assert_eq!(
            g.version, 2,
            "an old game's version starts at its move count"
        );
        let backup = Connection::open(dir.path().join("t.db.v2.bak")).unwrap();
        let (version, moves): (i64, String) = backup
            .query_row(
                "SELECT (SELECT user_version FROM pragma_user_version), moves FROM games",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((version, moves.as_str()), (2, "t1>f1 t2>t3"));
    }
}
