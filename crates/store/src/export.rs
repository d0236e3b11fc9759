//! A SQLite store read whole, row by row as stored, for `patience store
//! copy` (see [`crate::postgres::copy`]): every game with its moves, its
//! first win's figures and whether its hints were recorded, every grade
//! with its detail, every ruled-out deal, the library files loaded, the
//! players' display names and the deals of the days. [`TABLES`] names
//! every table a copy writes; a table of the schema missing from it makes
//! the copy refuse to start (and this module's test fail).

use rusqlite::params;

use crate::error::StoreError;
use crate::games::StoredGame;
use crate::Store;

/// Every table of the schema both stores share, in the order a copy
/// writes them; each is copied whole.
pub const TABLES: &[&str] = &[
    "games",
    "game_moves",
    "grades",
    "ruled_out",
    "library_files",
    "player_names",
    "daily_deals",
];

/// The tables only a PostgreSQL database has, which a copy leaves as they
/// are: the schema's version and the grading work still to do.
pub const POSTGRES_ONLY: &[&str] = &["patience_schema", "grading_todo"];

/// The tables a store has that a copy does not know, given its table
/// names and the tables of its kind the copy leaves alone.
pub fn unknown_tables(found: &[String], left_alone: &[&str]) -> Vec<String> {
    found
        .iter()
        .filter(|t| !TABLES.contains(&t.as_str()) && !left_alone.contains(&t.as_str()))
        .cloned()
        .collect()
}

/// A game as a copy takes it: the stored game, its first win's figures
/// and whether its hints were recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub game: StoredGame,
    pub won_moves: Option<i64>,
    pub won_ms: Option<i64>,
    pub hints_known: bool,
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

/// A display name row as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRow {
    pub player: String,
    pub name: String,
    pub updated_ms: i64,
}

/// A deal-of-the-day row as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRow {
    pub game: String,
    pub day: String,
    pub deal: i64,
    pub level: String,
}

/// How many rows each of [`TABLES`] holds, in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub Vec<(&'static str, u64)>);

impl Counts {
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|(_, n)| *n == 0)
    }

    /// The rows of one table.
    pub fn of(&self, table: &str) -> u64 {
        self.0
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(t, n)| format!("{t} {n}")).collect();
        f.write_str(&parts.join(", "))
    }
}

impl Store {
    /// Up to `n` games stored after the one of `after` (a rowid; 0 first),
    /// in the order they were stored, with the rowid of the last.
    pub fn games_page(&self, after: i64, n: u32) -> Result<(Vec<GameRow>, i64), StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT rowid, uid, won_moves, won_ms, hints_known FROM games
             WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        )?;
        let keys = st
            .query_map(params![after, n], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut last = after;
        let mut out = Vec::with_capacity(keys.len());
        for (rowid, uid, won_moves, won_ms, hints_known) in keys {
            last = rowid;
            if let Some(game) = self.load_game(&uid)? {
                out.push(GameRow {
                    game,
                    won_moves,
                    won_ms,
                    hints_known,
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

    /// Every display name row, by player.
    pub fn name_rows(&self) -> Result<Vec<NameRow>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT player, name, updated_ms FROM player_names ORDER BY player")?;
        let rows = st.query_map([], |r| {
            Ok(NameRow {
                player: r.get(0)?,
                name: r.get(1)?,
                updated_ms: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every deal-of-the-day row, by game and day.
    pub fn daily_rows(&self) -> Result<Vec<DailyRow>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT game, day, deal, level FROM daily_deals ORDER BY game, day")?;
        let rows = st.query_map([], |r| {
            Ok(DailyRow {
                game: r.get(0)?,
                day: r.get(1)?,
                deal: r.get(2)?,
                level: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The names of the file's tables, sorted.
    pub fn tables(&self) -> Result<Vec<String>, StoreError> {
        let mut st = self.conn.prepare(
            "SELECT name FROM sqlite_master
             WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many rows each of [`TABLES`] holds.
    pub fn counts(&self) -> Result<Counts, StoreError> {
        let mut out = Vec::with_capacity(TABLES.len());
        for table in TABLES {
            let n: i64 =
                self.conn
                    .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))?;
            out.push((*table, n as u64));
        }
        Ok(Counts(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table added to the schema must be added to the copy too: this
    /// lists the tables a file of this build's schema has, by name.
    #[test]
    fn the_copy_knows_every_table_of_the_schema() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let tables = store.tables().unwrap();
        assert_eq!(
            tables,
            [
                "daily_deals",
                "game_moves",
                "games",
                "grades",
                "library_files",
                "player_names",
                "ruled_out"
            ]
        );
        assert_eq!(unknown_tables(&tables, &[]), Vec::<String>::new());
        let mut copied = TABLES.to_vec();
        copied.sort_unstable();
        assert_eq!(copied, tables, "every table of TABLES is in the schema");
    }
}
