//! A site copied into PostgreSQL: the rows [`crate::export`] reads from a
//! SQLite store written as they are (every table of [`TABLES`]), a page of
//! games a transaction, in the order they were stored (so ties in time
//! sort as they did).

use super::games::write_game;
use super::PgStore;
use crate::error::StoreError;
use crate::export::{Counts, DailyRow, GameRow, GradeRow, NameRow, RuledOutRow, TABLES};

impl PgStore {
    /// How many rows each of [`TABLES`] holds.
    pub async fn counts(&self) -> Result<Counts, StoreError> {
        let client = self.client().await?;
        let mut out = Vec::with_capacity(TABLES.len());
        for table in TABLES {
            let r = client
                .query_one(&format!("SELECT COUNT(*) FROM {table}"), &[])
                .await?;
            out.push((*table, r.get::<_, i64>(0) as u64));
        }
        Ok(Counts(out))
    }

    /// The names of the database's tables (in its current schema), sorted.
    pub async fn tables(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT table_name::text FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                 ORDER BY table_name",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Writes games as they are, in one transaction.
    pub async fn import_games(&self, rows: &[GameRow]) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        for row in rows {
            write_game(
                &tx,
                &row.game,
                Some((row.won_moves, row.won_ms)),
                row.hints_known,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Writes display names and the deals of the days, as they are, in
    /// one transaction.
    pub async fn import_site(
        &self,
        names: &[NameRow],
        daily: &[DailyRow],
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let st = tx
            .prepare_cached(
                "INSERT INTO player_names (player, name, updated_ms) VALUES ($1, $2, $3)",
            )
            .await?;
        for n in names {
            tx.execute(&st, &[&n.player, &n.name, &n.updated_ms])
                .await?;
        }
        let st = tx
            .prepare_cached(
                "INSERT INTO daily_deals (game, day, deal, level) VALUES ($1, $2, $3, $4)",
            )
            .await?;
        for d in daily {
            tx.execute(&st, &[&d.game, &d.day, &d.deal, &d.level])
                .await?;
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
        let tables: Vec<&str> = TABLES
            .iter()
            .chain(["grading_todo"].iter())
            .copied()
            .collect();
        client
            .batch_execute(&format!("TRUNCATE {}", tables.join(", ")))
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
                        won_moves, won_ms, seq, hints_known
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
                hints_known: r.get(16),
            });
        }
        Ok((out, last))
    }
}
