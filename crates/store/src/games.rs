//! Saved games. A game is stored as its record — game id, deal number and
//! its moves, one row a move in `game_moves` — so a stored game survives
//! upgrades: loading replays the moves through the engine. The plies past
//! the game's `move_count` are its redo list, first to redo first: undo and
//! redo only change the count, and a new move writes one row (and drops the
//! redo plies unless it was the first of them), so a move costs the same
//! whatever the game's length. The store never interprets the moves; it
//! only keeps them.
//!
//! Every game has a `version` that grows by one with each change: a change
//! is written only if the version is still the one it was made from, so a
//! change made from a position the game has left is never stored.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use rusqlite::{params, Connection, OptionalExtension};

use crate::error::StoreError;
use crate::{deal_to_sql, Level, Store};

/// Most moves a game may hold: far above any real game (a long House game
/// takes a few hundred), low enough that no record grows without bound.
pub const MAX_MOVES: u64 = 5_000;

/// Statistics are worked out from a player's newest games, this many at most:
/// years of daily play, and a bounded read however many games one client made.
pub const STATS_GAMES: i64 = 10_000;

/// The level a game's deal was asked for: one of the levels, or `any` (a
/// random deal, or a deal chosen by its number). Written as its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskedLevel {
    Any,
    Level(Level),
}

impl AskedLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            AskedLevel::Any => "any",
            AskedLevel::Level(l) => l.as_str(),
        }
    }

    /// `any` or a level's word.
    pub fn parse(word: &str) -> Option<AskedLevel> {
        match word.trim() {
            "any" => Some(AskedLevel::Any),
            other => Level::parse(other).map(AskedLevel::Level),
        }
    }
}

impl serde::Serialize for AskedLevel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl ToSql for AskedLevel {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

/// A stored word that is no level is an error, never read as some level.
impl FromSql for AskedLevel {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let word = value.as_str()?;
        AskedLevel::parse(word).ok_or_else(|| {
            FromSqlError::Other(format!("`{}` is not a level", crate::error::shorten(word)).into())
        })
    }
}

/// A game as the store keeps it: the record, the redo list and the bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub uid: String,
    pub player: String,
    pub game: String,
    pub deal: u64,
    /// The level the deal was picked from.
    pub level: AskedLevel,
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
    /// Every move played, automatic ones included: the plies stored.
    pub move_count: u64,
    /// The player's moves: clicks, each with the automatic moves it set off
    /// (the table's move counter, and a win's `won_moves`).
    pub clicks: u64,
    pub updated_ms: i64,
    pub elapsed_ms: i64,
    pub won: bool,
}

/// What tells a copy of a game in memory from the stored game: its
/// version, which grows with every change of the position, and whether a
/// hint was served, which is no change of the position (the page's
/// `expect` stays valid) but is part of the game all the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStamp {
    pub version: u64,
    pub hinted: bool,
}

/// A row of the "Continue" list.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InProgress {
    pub uid: String,
    pub game: String,
    pub deal: u64,
    /// The player's moves (clicks), as the table counts them.
    pub moves: u64,
    pub updated: i64,
}

/// One of a player's games, as statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub game: String,
    pub deal: u64,
    pub move_count: u64,
    /// The game's first win, if it has one: what it took then. Undo after a
    /// win and a second win change neither.
    pub first_win: Option<FirstWin>,
    /// A hint was served before the first win.
    pub hinted: bool,
    /// Hints were recorded for the game: false for games stored before the
    /// store kept hint records (schema 3), whose wins may have had hints.
    pub hints_known: bool,
    pub created_ms: i64,
    /// The level of the deal: the one asked for, else its grade in the
    /// library (`None` for a deal not graded).
    pub level: Option<Level>,
}

/// The moves and playing time of a game at its first win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstWin {
    pub moves: u64,
    pub elapsed_ms: i64,
}

impl Store {
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

    /// The player's unfinished games with at least one move, most recently played first.
    /// A deal opened and left untouched is not "in progress", nor is a try
    /// the player started over (a newer game of theirs on the same deal).
    /// A row that cannot be read is left out and logged, so one damaged
    /// game does not hide the others.
    pub fn in_progress(&self, player: &str, limit: u32) -> Result<Vec<InProgress>, StoreError> {
        let mut st = self.conn.prepare_cached(
            // One pass over the player's games marks each deal's newest;
            // the clicks are counted for the listed games alone.
            concat!(
                "WITH tries AS (
                 SELECT uid, game, deal, move_count, updated_ms, finished, rowid AS r,
                        ROW_NUMBER() OVER (PARTITION BY game, deal
                                           ORDER BY created_ms DESC, rowid DESC) AS nth_newest
                 FROM games WHERE player = ?1),
             listed AS (
                 SELECT uid, game, deal, move_count, updated_ms, r FROM tries
                 WHERE nth_newest = 1 AND finished = 0 AND move_count > 0
                 ORDER BY updated_ms DESC, r DESC LIMIT ?2)
             SELECT uid, game, deal, move_count, updated_ms, (SELECT COUNT(*) FROM game_moves AS m
                     WHERE m.uid = l.uid AND m.ply <= l.move_count AND substr(m.word, 1, 1) <> '",
                crate::follows_mark!(),
                "')
             FROM listed AS l ORDER BY updated_ms DESC, r DESC"
            ),
        )?;
        let rows = st.query_map(params![player, limit], |r| {
            Ok(readable(r, |r| {
                Ok(InProgress {
                    uid: r.get(0)?,
                    game: r.get(1)?,
                    deal: r.get::<_, i64>(2)? as u64,
                    // The stored count is read too: a row whose count is
                    // damaged is left out, not listed with a wrong one.
                    moves: {
                        r.get::<_, i64>(3)?;
                        r.get::<_, i64>(5)? as u64
                    },
                    updated: r.get(4)?,
                })
            }))
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.extend(row?);
        }
        Ok(out)
    }

    /// The player's newest [`STATS_GAMES`] games, oldest first. A row that
    /// cannot be read is left out and logged (see [`Store::in_progress`]).
    pub fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT g.uid, g.game, g.move_count, g.finished, g.won_moves, g.won_ms, g.hinted,
                    g.hints_known, g.created_ms, g.level, d.level, g.deal FROM
               (SELECT uid, game, deal, move_count, finished, won_moves, won_ms, hinted,
                       hints_known, created_ms, level, rowid AS r
                FROM games WHERE player = ?1 ORDER BY created_ms DESC, rowid DESC LIMIT ?2) AS g
             LEFT JOIN grades AS d ON d.game = g.game AND d.deal = g.deal
             ORDER BY g.created_ms, g.r",
        )?;
        let rows = st.query_map(params![player, STATS_GAMES], |r| {
            Ok(readable(r, |r| {
                let finished: bool = r.get(3)?;
                let won_moves: Option<i64> = r.get(4)?;
                let won_ms: Option<i64> = r.get(5)?;
                let asked: AskedLevel = r.get(9)?;
                let graded: Option<String> = r.get(10)?;
                Ok(PlayedGame {
                    game: r.get(1)?,
                    deal: r.get::<_, i64>(11)? as u64,
                    move_count: r.get::<_, i64>(2)? as u64,
                    first_win: match (finished, won_moves, won_ms) {
                        (true, Some(moves), Some(elapsed_ms)) => Some(FirstWin {
                            moves: moves as u64,
                            elapsed_ms,
                        }),
                        _ => None,
                    },
                    hinted: r.get(6)?,
                    hints_known: r.get(7)?,
                    created_ms: r.get(8)?,
                    level: match asked {
                        AskedLevel::Level(l) => Some(l),
                        AskedLevel::Any => graded.as_deref().and_then(Level::parse),
                    },
                })
            }))
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.extend(row?);
        }
        Ok(out)
    }
}

/// A row read by `read`, or `None` (logged with the row's uid, its first
/// column) when one of its values cannot be read.
pub(crate) fn readable<T>(
    r: &rusqlite::Row<'_>,
    read: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Option<T> {
    match read(r) {
        Ok(v) => Some(v),
        Err(e) => {
            let uid = r
                .get_ref(0)
                .ok()
                .and_then(|v| v.as_str().ok())
                .map(crate::error::shorten)
                .unwrap_or_default();
            tracing::error!(uid, error = %e, "a stored game cannot be read; left out");
            None
        }
    }
}

/// One game update on a connection, written only if the stored game is
/// still at the version the change was made from.
/// The first update that wins sets `finished` and keeps that moment's
/// player's moves (clicks) and time in `won_moves`/`won_ms`; later ones
/// leave all three alone
/// (SQLite evaluates every expression of an UPDATE against the old row).
fn update_game_on(conn: &Connection, u: &GameUpdate) -> Result<bool, StoreError> {
    let n = conn
        .prepare_cached(
            "UPDATE games SET move_count = ?3, updated_ms = ?4, elapsed_ms = ?5,
                    version = version + 1,
                    finished = finished OR ?6,
                    won_moves = CASE WHEN finished = 0 AND ?6 THEN ?7 ELSE won_moves END,
                    won_ms = CASE WHEN finished = 0 AND ?6 THEN ?5 ELSE won_ms END
                 WHERE uid = ?1 AND version = ?2",
        )?
        .execute(params![
            u.uid,
            u.version as i64,
            u.move_count as i64,
            u.updated_ms,
            u.elapsed_ms,
            u.won,
            u.clicks as i64
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::test_util::temp_store;

    pub(crate) fn new_row(uid: &str) -> StoredGame {
        StoredGame {
            uid: uid.into(),
            player: "p".into(),
            game: "fan".into(),
            deal: 3,
            level: AskedLevel::Any,
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
    fn the_asked_level_is_kept_as_its_word_and_a_foreign_word_is_an_error() {
        let (_dir, store) = temp_store();
        let easy = StoredGame {
            level: AskedLevel::Level(Level::Easy),
            ..new_row("u1")
        };
        store.insert_game(&easy).unwrap();
        store.insert_game(&new_row("u2")).unwrap();
        assert_eq!(store.load_game("u1").unwrap(), Some(easy));
        assert_eq!(
            store.load_game("u2").unwrap().map(|g| g.level),
            Some(AskedLevel::Any)
        );
        store
            .execute_raw("UPDATE games SET level = 'trivial' WHERE uid = 'u2'")
            .unwrap();
        let err = store.load_game("u2").unwrap_err().to_string();
        assert!(err.contains("trivial"), "{err}");
        assert_eq!(
            AskedLevel::parse("hard"),
            Some(AskedLevel::Level(Level::Hard))
        );
        assert_eq!(AskedLevel::parse("some"), None);
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
            // Every click of this game set off one automatic move.
            clicks: n / 2,
            updated_ms: 2,
            elapsed_ms: ms,
            won,
        };
        let first_win = || store.played_games("p").unwrap()[0].first_win;
        store.update_game(&up(10, 100, false)).unwrap();
        assert_eq!(first_win(), None);
        store.update_game(&up(11, 200, true)).unwrap();
        // The win's moves are the player's: clicks, not plies.
        let win = Some(FirstWin {
            moves: 5,
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
    fn moves_are_rows_and_the_plies_past_the_count_are_the_redo_list() {
        let (_dir, mut store) = temp_store();
        store.insert_game(&new_row("u1")).unwrap();
        let up = |moves, version, n| GameUpdate {
            uid: "u1".into(),
            moves,
            version,
            move_count: n,
            clicks: n,
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
    fn an_unreadable_row_is_left_out_of_the_lists_not_an_error() {
        let (_dir, store) = temp_store();
        for (deal, uid) in (1..).zip(["a", "b", "c"]) {
            // Three deals: a newer game of the same deal would hide the older.
            store
                .insert_game(&StoredGame {
                    deal,
                    ..new_row(uid)
                })
                .unwrap();
        }
        store
            .execute_raw("UPDATE games SET move_count = 3")
            .unwrap();
        store
            .execute_raw("UPDATE games SET move_count = 'many', level = 'trivial' WHERE uid = 'b'")
            .unwrap();
        let uids: Vec<String> = store
            .in_progress("p", 20)
            .unwrap()
            .into_iter()
            .map(|g| g.uid)
            .collect();
        assert_eq!(uids.len(), 2);
        assert!(!uids.contains(&"b".to_string()));
        assert_eq!(store.played_games("p").unwrap().len(), 2);
    }
}
