//! The site's own rows in PostgreSQL, as SQLite's ([`crate::records`],
//! [`crate::names`], [`crate::daily`]): a deal's hint-free wins, display
//! names, the deal of each day and the deals a player has won.

use super::PgStore;
use crate::error::{shorten, StoreError};
use crate::records::RECORD_WINS;
use crate::{deal_to_sql, DailyDeal, DealResult, DealWin, DisplayName, Level};

/// A stored deal number as the unsigned number the store hands out.
fn deal_of(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl PgStore {
    /// See [`crate::Store::hint_free_wins`].
    pub async fn hint_free_wins(&self, game: &str, deal: u64) -> Result<Vec<DealWin>, StoreError> {
        let deal = deal_to_sql(deal)?;
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT uid, player, won_moves, won_ms FROM games
                 WHERE game = $1 AND deal = $2 AND finished AND NOT hinted AND hints_known
                   AND won_moves IS NOT NULL AND won_ms IS NOT NULL
                 ORDER BY won_moves, won_ms, seq LIMIT $3",
            )
            .await?;
        let rows = client.query(&st, &[&game, &deal, &RECORD_WINS]).await?;
        Ok(rows
            .iter()
            .map(|r| DealWin {
                uid: r.get(0),
                player: r.get(1),
                moves: deal_of(r.get(2)),
                elapsed_ms: r.get(3),
            })
            .collect())
    }

    /// See [`crate::Store::set_name`].
    pub async fn set_name(
        &self,
        player: &str,
        name: Option<&DisplayName>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        match name {
            Some(n) => {
                let st = client
                    .prepare_cached(
                        "INSERT INTO player_names (player, name, updated_ms) VALUES ($1, $2, $3)
                         ON CONFLICT (player) DO UPDATE
                             SET name = excluded.name, updated_ms = excluded.updated_ms",
                    )
                    .await?;
                client
                    .execute(&st, &[&player, &n.as_str(), &now_ms])
                    .await?;
            }
            None => {
                let st = client
                    .prepare_cached("DELETE FROM player_names WHERE player = $1")
                    .await?;
                client.execute(&st, &[&player]).await?;
            }
        }
        Ok(())
    }

    /// See [`crate::Store::name_of`].
    pub async fn name_of(&self, player: &str) -> Result<Option<DisplayName>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("SELECT name FROM player_names WHERE player = $1")
            .await?;
        let stored: Option<String> = client.query_opt(&st, &[&player]).await?.map(|r| r.get(0));
        Ok(stored.and_then(|s| DisplayName::parse(&s).ok().flatten()))
    }

    /// See [`crate::Store::has_games`].
    pub async fn has_games(&self, player: &str) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("SELECT 1 FROM games WHERE player = $1 LIMIT 1")
            .await?;
        Ok(client.query_opt(&st, &[&player]).await?.is_some())
    }

    /// See [`crate::Store::daily_deals`].
    pub async fn daily_deals(
        &self,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<DailyDeal>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT game, day, deal, level FROM daily_deals
                 WHERE game = $1 AND day BETWEEN $2 AND $3 ORDER BY day",
            )
            .await?;
        let rows = client.query(&st, &[&game, &from, &to]).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let level: &str = r.get(3);
            let Some(level) = Level::parse(level) else {
                let day: &str = r.get(1);
                tracing::error!(
                    day = shorten(day),
                    level = shorten(level),
                    "a kept deal of the day cannot be read; left out"
                );
                continue;
            };
            out.push(DailyDeal {
                game: r.get(0),
                day: r.get(1),
                deal: deal_of(r.get(2)),
                level,
            });
        }
        Ok(out)
    }

    /// Keeps each day's deal unless one is kept already, in one transaction.
    pub async fn keep_daily(&self, deals: &[DailyDeal]) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let st = tx
            .prepare_cached(
                "INSERT INTO daily_deals (game, day, deal, level) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game, day) DO NOTHING",
            )
            .await?;
        for d in deals {
            tx.execute(
                &st,
                &[&d.game, &d.day, &deal_to_sql(d.deal)?, &d.level.as_str()],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// See [`crate::Store::deals_of_level`].
    pub async fn deals_of_level(&self, game: &str, level: Level) -> Result<Vec<u64>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("SELECT deal FROM grades WHERE game = $1 AND level = $2 ORDER BY deal")
            .await?;
        let rows = client.query(&st, &[&game, &level.as_str()]).await?;
        Ok(rows.iter().map(|r| deal_of(r.get(0))).collect())
    }

    /// See [`crate::Store::won_deals`].
    pub async fn won_deals(
        &self,
        player: &str,
        game: Option<&str>,
    ) -> Result<Vec<(String, DealResult)>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT game, deal, bool_or(NOT hinted AND hints_known)
                 FROM games WHERE player = $1 AND finished AND ($2::text IS NULL OR game = $2)
                 GROUP BY game, deal",
            )
            .await?;
        let rows = client.query(&st, &[&player, &game]).await?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    DealResult {
                        deal: deal_of(r.get(1)),
                        won_without_hints: r.get(2),
                    },
                )
            })
            .collect())
    }
}
