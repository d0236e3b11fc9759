//! Saved games in PostgreSQL: the same rows and the same rules as
//! [`crate::games`] (one row a move, a version that only grows, a change
//! written only from the version it was made from).

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::PgStore;
use crate::error::{shorten, StoreError};
use crate::games::{
    AskedLevel, FirstWin, GameStamp, GameUpdate, InProgress, MovesChange, PlayedGame, StoredGame,
};
use crate::{deal_to_sql, Level, STATS_GAMES};

/// A stored count or version as the unsigned number the store hands out.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn asked_level(word: &str) -> Result<AskedLevel, StoreError> {
    AskedLevel::parse(word)
        .ok_or_else(|| StoreError::Failed(format!("`{}` is not a level", shorten(word))))
}

impl PgStore {
    /// Stores a new game with its moves and redo list, in one statement
    /// (so one transaction and one round trip).
    pub async fn insert_game(&self, g: &StoredGame) -> Result<(), StoreError> {
        let client = self.client().await?;
        write_game(&client, g, None, true).await
    }

    /// The stored game with this uid, whoever owns it.
    pub async fn load_game(&self, uid: &str) -> Result<Option<StoredGame>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT uid, player, game, deal, level, move_count, created_ms, updated_ms,
                        finished, elapsed_ms, version, hinted,
                        ARRAY(SELECT word FROM game_moves m WHERE m.uid = games.uid ORDER BY ply)
                 FROM games WHERE uid = $1",
            )
            .await?;
        let Some(r) = client.query_opt(&st, &[&uid]).await? else {
            return Ok(None);
        };
        game_of(&r).map(Some)
    }

    /// The stored version and hint mark of a game.
    pub async fn game_stamp(&self, uid: &str) -> Result<Option<GameStamp>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("SELECT version, hinted FROM games WHERE uid = $1")
            .await?;
        Ok(client.query_opt(&st, &[&uid]).await?.map(|r| GameStamp {
            version: count(r.get(0)),
            hinted: r.get(1),
        }))
    }

    /// Marks that a hint was served to the game, unless it is already won.
    pub async fn mark_hinted(&self, uid: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("UPDATE games SET hinted = TRUE WHERE uid = $1 AND NOT finished")
            .await?;
        client.execute(&st, &[&uid]).await?;
        Ok(())
    }

    /// Writes one change only if the stored game is still at the version
    /// the change was made from: one statement (so one transaction, one
    /// round trip and one commit a change) whose row update decides whether
    /// the moves are written. The first update that wins keeps that
    /// moment's figures (PostgreSQL, like SQLite, evaluates every
    /// expression of an UPDATE against the old row). The plies replaced are
    /// upserted and only those past the new moves deleted, so no row is
    /// touched twice by the one statement.
    pub async fn update_game(&self, u: &GameUpdate) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "WITH g AS (
                     UPDATE games SET move_count = $3, updated_ms = $4, elapsed_ms = $5,
                            version = version + 1,
                            finished = finished OR $6,
                            won_moves = CASE WHEN NOT finished AND $6 THEN $10 ELSE won_moves END,
                            won_ms = CASE WHEN NOT finished AND $6 THEN $5 ELSE won_ms END
                     WHERE uid = $1 AND version = $2
                     RETURNING uid),
                 cut AS (
                     DELETE FROM game_moves m USING g WHERE m.uid = g.uid AND m.ply >= $7),
                 put AS (
                     INSERT INTO game_moves (uid, ply, word)
                     SELECT g.uid, t.p, t.w FROM g, unnest($8::bigint[], $9::text[]) AS t(p, w)
                     ON CONFLICT (uid, ply) DO UPDATE SET word = excluded.word)
                 SELECT COUNT(*) FROM g",
            )
            .await?;
        let (cut_from, plies, words): (i64, Vec<i64>, &[String]) = match &u.moves {
            MovesChange::Play { words, keep_redo } => {
                let first = u.move_count as i64 + 1 - words.len() as i64;
                let past = first + words.len() as i64;
                let cut_from = if *keep_redo { i64::MAX } else { past };
                (cut_from, (first..past).collect(), words)
            }
            MovesChange::Step => (i64::MAX, Vec::new(), &[]),
        };
        let n: i64 = client
            .query_one(
                &st,
                &[
                    &u.uid,
                    &(u.version as i64),
                    &(u.move_count as i64),
                    &u.updated_ms,
                    &u.elapsed_ms,
                    &u.won,
                    &cut_from,
                    &plies,
                    &words,
                    &(u.clicks as i64),
                ],
            )
            .await?
            .get(0);
        Ok(n == 1)
    }

    /// The player's unfinished games with at least one move, newest first,
    /// without a try the player started over (as SQLite's).
    pub async fn in_progress(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<InProgress>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(concat!(
                "WITH tries AS (
                     SELECT uid, game, deal, move_count, updated_ms, finished, seq,
                            ROW_NUMBER() OVER (PARTITION BY game, deal
                                               ORDER BY created_ms DESC, seq DESC) AS nth_newest
                     FROM games WHERE player = $1),
                 listed AS (
                     SELECT uid, game, deal, move_count, updated_ms, seq FROM tries
                     WHERE nth_newest = 1 AND NOT finished AND move_count > 0
                     ORDER BY updated_ms DESC, seq DESC LIMIT $2)
                 SELECT uid, game, deal, (SELECT COUNT(*) FROM game_moves m
                         WHERE m.uid = l.uid AND m.ply <= l.move_count AND substr(m.word, 1, 1) <> '",
                crate::follows_mark!(),
                "'),
                        updated_ms
                 FROM listed l ORDER BY updated_ms DESC, seq DESC"
            ))
            .await?;
        let rows = client.query(&st, &[&player, &(limit as i64)]).await?;
        Ok(rows
            .iter()
            .map(|r| InProgress {
                uid: r.get(0),
                game: r.get(1),
                deal: count(r.get(2)),
                moves: count(r.get(3)),
                updated: r.get(4),
            })
            .collect())
    }

    /// The player's newest [`STATS_GAMES`] games, oldest first, each with
    /// its deal's level (asked for, else graded). A row that cannot be read
    /// is left out and logged, as SQLite's.
    pub async fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT g.uid, g.game, g.move_count, g.finished, g.won_moves, g.won_ms, g.hinted,
                        g.hints_known, g.created_ms, g.level, d.level, g.deal FROM
                   (SELECT uid, game, deal, move_count, finished, won_moves, won_ms, hinted,
                           hints_known, created_ms, level, seq
                    FROM games WHERE player = $1 ORDER BY created_ms DESC, seq DESC LIMIT $2) g
                 LEFT JOIN grades d ON d.game = g.game AND d.deal = g.deal
                 ORDER BY g.created_ms, g.seq",
            )
            .await?;
        let rows = client.query(&st, &[&player, &STATS_GAMES]).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let asked = match asked_level(r.get(9)) {
                Ok(a) => a,
                Err(e) => {
                    let uid: &str = r.get(0);
                    tracing::error!(uid = shorten(uid), error = %e, "a stored game cannot be read; left out");
                    continue;
                }
            };
            let finished: bool = r.get(3);
            let won_moves: Option<i64> = r.get(4);
            let won_ms: Option<i64> = r.get(5);
            let graded: Option<&str> = r.get(10);
            out.push(PlayedGame {
                game: r.get(1),
                deal: count(r.get(11)),
                move_count: count(r.get(2)),
                first_win: match (finished, won_moves, won_ms) {
                    (true, Some(moves), Some(elapsed_ms)) => Some(FirstWin {
                        moves: count(moves),
                        elapsed_ms,
                    }),
                    _ => None,
                },
                hinted: r.get(6),
                hints_known: r.get(7),
                created_ms: r.get(8),
                level: match asked {
                    AskedLevel::Level(l) => Some(l),
                    AskedLevel::Any => graded.and_then(Level::parse),
                },
            });
        }
        Ok(out)
    }
}

/// Writes a game's row and its words in one statement: a new game (no
/// win yet, its hints recorded), or a game copied in with its first win's
/// figures (`won`: moves and time) and whether its hints were recorded.
pub(crate) async fn write_game(
    client: &impl GenericClient,
    g: &StoredGame,
    won: Option<(Option<i64>, Option<i64>)>,
    hints_known: bool,
) -> Result<(), StoreError> {
    let (won_moves, won_ms) = won.unwrap_or((None, None));
    let words: Vec<&str> = g
        .moves
        .split_whitespace()
        .chain(g.redo.split_whitespace())
        .collect();
    let plies: Vec<i64> = (1..=words.len() as i64).collect();
    let st = client
        .prepare_cached(
            "WITH g AS (
                 INSERT INTO games (uid, player, game, deal, level, move_count, created_ms,
                                    updated_ms, finished, elapsed_ms, version, hinted,
                                    won_moves, won_ms, hints_known)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                 RETURNING uid)
             INSERT INTO game_moves (uid, ply, word)
             SELECT g.uid, t.p, t.w FROM g, unnest($16::bigint[], $17::text[]) AS t(p, w)",
        )
        .await?;
    client
        .execute(
            &st,
            &[
                &g.uid,
                &g.player,
                &g.game,
                &deal_to_sql(g.deal)?,
                &g.level.as_str(),
                &(g.move_count as i64),
                &g.created_ms,
                &g.updated_ms,
                &g.finished,
                &g.elapsed_ms,
                &(g.version as i64),
                &g.hinted,
                &won_moves,
                &won_ms,
                &hints_known,
                &plies,
                &words,
            ],
        )
        .await?;
    Ok(())
}

/// A game row with its words (the last column) split at its move count.
pub(crate) fn game_of(r: &Row) -> Result<StoredGame, StoreError> {
    let move_count = count(r.get(5));
    let words: Vec<String> = r.get(12);
    let (done, redo) = words.split_at((move_count as usize).min(words.len()));
    Ok(StoredGame {
        uid: r.get(0),
        player: r.get(1),
        game: r.get(2),
        deal: count(r.get(3)),
        level: asked_level(r.get(4))?,
        moves: done.join(" "),
        redo: redo.join(" "),
        move_count,
        created_ms: r.get(6),
        updated_ms: r.get(7),
        finished: r.get(8),
        elapsed_ms: r.get(9),
        version: count(r.get(10)),
        hinted: r.get(11),
    })
}
