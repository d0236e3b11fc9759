//! A SQLite store read whole, row by row as stored, for `patience store
//! copy` (see [`crate::postgres::copy`]): every game with its moves and its
//! first win's figures, every grade with its detail, every ruled-out deal
//! and the library files loaded.

use rusqlite::params;

use crate::error::StoreError;
use crate::games::StoredGame;
use crate::Store;

/// A game as a copy takes it: the stored game and its first win's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub game: StoredGame,
    pub won_moves: Option<i64>,
    pub won_ms: Option<i64>,
}

/// A grade row as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeRow {
    pub game: String,
    pub deal: i64,
    pub level: String,
    pub detail: String,
    pub person_wins: Option<i64>,
    pub runs: Option<i64>,
}

/// A ruled-out row as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuledOutRow {
    pub game: String,
    pub level: String,
    pub deal: i64,
    pub detail: String,
}

/// How many rows each table holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub moves: u64,
    pub grades: u64,
    pub ruled_out: u64,
    pub library_files: u64,
}

impl Counts {
    pub fn is_empty(&self) -> bool {
        self.games + self.moves + self.grades + self.ruled_out + self.library_files == 0
    }
}

impl Store {
    /// Up to `n` games stored after the one of `after` (a rowid; 0 first),
    /// in the order they were stored, with the rowid of the last.
    pub fn games_page(&self, after: i64, n: u32) -> Result<(Vec<GameRow>, i64), StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT rowid, uid, won_moves, won_ms FROM games WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        )?;
        let keys = st
            .query_map(params![after, n], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut last = after;
        let mut out = Vec::with_capacity(keys.len());
        for (rowid, uid, won_moves, won_ms) in keys {
            last = rowid;
            if let Some(game) = self.load_game(&uid)? {
                out.push(GameRow {
                    game,
                    won_moves,
                    won_ms,
                });
            }
        }
        Ok((out, last))
    }

    /// Every grade row, by game and deal.
    pub fn grade_rows(&self) -> Result<Vec<GradeRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT game, deal, level, detail, person_wins, runs FROM grades ORDER BY game, deal",
        )?;
        let rows = st.query_map([], |r| {
            Ok(GradeRow {
                game: r.get(0)?,
                deal: r.get(1)?,
                level: r.get(2)?,
                detail: r.get(3)?,
                person_wins: r.get(4)?,
                runs: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every ruled-out row.
    pub fn ruled_out_rows(&self) -> Result<Vec<RuledOutRow>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT game, level, deal, detail FROM ruled_out ORDER BY game, level, deal",
        )?;
        let rows = st.query_map([], |r| {
            Ok(RuledOutRow {
                game: r.get(0)?,
                level: r.get(1)?,
                deal: r.get(2)?,
                detail: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The library files loaded, as `(game, digest)`.
    pub fn library_file_rows(&self) -> Result<Vec<(String, String)>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT game, digest FROM library_files ORDER BY game")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many rows each table holds.
    pub fn counts(&self) -> Result<Counts, StoreError> {
        let n = |table: &str| -> Result<u64, StoreError> {
            let n: i64 =
                self.conn
                    .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
            Ok(n as u64)
        };
        Ok(Counts {
            games: n("games")?,
            moves: n("game_moves")?,
            grades: n("grades")?,
            ruled_out: n("ruled_out")?,
            library_files: n("library_files")?,
        })
    }
}
