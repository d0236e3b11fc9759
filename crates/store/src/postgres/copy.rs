//! A site copied into PostgreSQL: the rows [`crate::export`] reads from a
//! SQLite store written as they are, a page of games a transaction, in the
//! order they were stored (so ties in time sort as they did).

use super::PgStore;
use crate::error::StoreError;
use crate::export::{Counts, GameRow, GradeRow, RuledOutRow};

impl PgStore {
    /// How many rows each table holds.
    pub async fn counts(&self) -> Result<Counts, StoreError> {
        let client = self.client().await?;
        let r = client
            .query_one(
                "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM game_moves),
                        (SELECT COUNT(*) FROM grades), (SELECT COUNT(*) FROM ruled_out),
                        (SELECT COUNT(*) FROM library_files)",
                &[],
            )
            .await?;
        let n = |i: usize| r.get::<_, i64>(i) as u64;
        Ok(Counts {
            games: n(0),
            moves: n(1),
            grades: n(2),
            ruled_out: n(3),
            library_files: n(4),
        })
    }

    /// Writes games as they are, in one transaction.
    pub async fn import_games(&self, rows: &[GameRow]) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let game = tx
            .prepare_cached(
                "INSERT INTO games (uid, player, game, deal, level, move_count, created_ms,
                                    updated_ms, finished, elapsed_ms, version, hinted,
                                    won_moves, won_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            )
            .await?;
        let moves = tx
            .prepare_cached(
                "INSERT INTO game_moves (uid, ply, word)
                 SELECT $1, p, w FROM unnest($2::bigint[], $3::text[]) AS t(p, w)",
            )
            .await?;
        for row in rows {
            let g = &row.game;
            tx.execute(
                &game,
                &[
                    &g.uid,
                    &g.player,
                    &g.game,
                    &(g.deal as i64),
                    &g.level.as_str(),
                    &(g.move_count as i64),
                    &g.created_ms,
                    &g.updated_ms,
                    &g.finished,
                    &g.elapsed_ms,
                    &(g.version as i64),
                    &g.hinted,
                    &row.won_moves,
                    &row.won_ms,
                ],
            )
            .await?;
            let words: Vec<&str> = g
                .moves
                .split_whitespace()
                .chain(g.redo.split_whitespace())
                .collect();
            let plies: Vec<i64> = (1..=words.len() as i64).collect();
            tx.execute(&moves, &[&g.uid, &plies, &words]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Writes grades, ruled-out deals and the library files loaded, as
    /// they are, in one transaction.
    pub async fn import_grades(
        &self,
        grades: &[GradeRow],
        ruled_out: &[RuledOutRow],
        library_files: &[(String, String)],
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let st = tx
            .prepare_cached(
                "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .await?;
        for g in grades {
            tx.execute(
                &st,
                &[
                    &g.game,
                    &g.deal,
                    &g.level,
                    &g.detail,
                    &g.person_wins,
                    &g.runs,
                ],
            )
            .await?;
        }
        let st = tx
            .prepare_cached(
                "INSERT INTO ruled_out (game, level, deal, detail) VALUES ($1, $2, $3, $4)",
            )
            .await?;
        for r in ruled_out {
            tx.execute(&st, &[&r.game, &r.level, &r.deal, &r.detail])
                .await?;
        }
        for (game, digest) in library_files {
            tx.execute(
                "INSERT INTO library_files (game, digest) VALUES ($1, $2)",
                &[game, digest],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Empties every table of the site (`store copy --replace`), in one transaction.
    pub async fn clear(&self) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .batch_execute(
                "BEGIN;
                 TRUNCATE games, game_moves, grades, ruled_out, library_files, grading_todo;
                 COMMIT;",
            )
            .await?;
        Ok(())
    }

    /// Up to `n` games in the order they were stored after `after` (a
    /// position in that order; 0 first), with the position of the last.
    pub async fn games_page(&self, after: i64, n: u32) -> Result<(Vec<GameRow>, i64), StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT uid, player, game, deal, level, move_count, created_ms, updated_ms,
                        finished, elapsed_ms, version, hinted,
                        ARRAY(SELECT word FROM game_moves m WHERE m.uid = games.uid ORDER BY ply),
                        won_moves, won_ms, seq
                 FROM games WHERE seq > $1 ORDER BY seq LIMIT $2",
            )
            .await?;
        let rows = client.query(&st, &[&after, &(n as i64)]).await?;
        let mut last = after;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            last = r.get(15);
            out.push(GameRow {
                game: super::games::game_of(r)?,
                won_moves: r.get(13),
                won_ms: r.get(14),
            });
        }
        Ok((out, last))
    }
}
