//! Grading shared by several workers through the database: `patience grade
//! --db postgres://…` run on several machines at once. The deals to grade
//! are rows of `grading_todo`; a worker claims the next one with
//! `SELECT … FOR UPDATE SKIP LOCKED` inside a transaction that it keeps
//! open while it grades, and commits the grade and the row's removal
//! together. So:
//! - no two workers grade a deal at once (the row is locked), and a deal
//!   whose grade is committed is never claimed again (its row is gone, and a
//!   claim skips a deal the grades already hold);
//! - a worker killed mid-deal loses its connection, PostgreSQL rolls its
//!   transaction back, and the deal is claimed by the next worker to ask.

use deadpool_postgres::Object;

use super::grades::put_ruled_out_on;
use super::PgStore;
use crate::error::StoreError;
use crate::grades::person_sql;
use crate::{deal_to_sql, DealGrade, Level};

/// A deal this worker holds until it commits its result or lets it go.
/// Dropped unfinished, its connection is closed rather than returned to the
/// pool, which rolls the claim back.
pub struct Claim {
    client: Option<Object>,
    game: String,
    pub deal: u64,
}

fn words(levels: &[Level]) -> String {
    levels
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

impl PgStore {
    /// Adds `deals` of `game` to the deals to grade (for the levels
    /// `hunt`, none for a whole grading), leaving out those already graded;
    /// a deal another worker listed stays as it is. Returns how many deals
    /// of the game are left to grade.
    pub async fn add_work(
        &self,
        game: &str,
        deals: &[u64],
        hunt: &[Level],
    ) -> Result<u64, StoreError> {
        let deals = deals
            .iter()
            .map(|&d| deal_to_sql(d))
            .collect::<Result<Vec<i64>, _>>()?;
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO grading_todo (game, deal, hunt)
                 SELECT $1, d, $3 FROM unnest($2::bigint[]) AS t(d)
                 WHERE NOT EXISTS (SELECT 1 FROM grades g WHERE g.game = $1 AND g.deal = t.d)
                 ON CONFLICT (game, deal) DO NOTHING",
                &[&game, &deals, &words(hunt)],
            )
            .await?;
        let left: i64 = client
            .query_one(
                "SELECT COUNT(*) FROM grading_todo WHERE game = $1",
                &[&game],
            )
            .await?
            .get(0);
        Ok(left as u64)
    }

    /// Claims the lowest deal of `game` left to grade that no other worker
    /// holds; `None` when there is none.
    pub async fn claim(&self, game: &str) -> Result<Option<Claim>, StoreError> {
        let client = self.client().await?;
        client.batch_execute("BEGIN").await?;
        let mut claim = Claim {
            client: Some(client),
            game: game.to_string(),
            deal: 0,
        };
        // A deal graded (or ruled out for every level sought) by a worker
        // that listed it again before that grade was committed is dropped
        // from the list here rather than graded twice.
        let row = claim
            .client()?
            .query_opt(
                "SELECT deal FROM grading_todo t WHERE game = $1
                   AND NOT EXISTS (SELECT 1 FROM grades g WHERE g.game = t.game AND g.deal = t.deal)
                   AND NOT (t.hunt <> '' AND EXISTS (SELECT 1 FROM ruled_out r
                        WHERE r.game = t.game AND r.deal = t.deal
                          AND r.level = split_part(t.hunt, ',', 1)))
                 ORDER BY deal LIMIT 1 FOR UPDATE SKIP LOCKED",
                &[&game],
            )
            .await?;
        let Some(row) = row else {
            claim.finish("COMMIT").await?;
            return Ok(None);
        };
        claim.deal = row.get::<_, i64>(0) as u64;
        Ok(Some(claim))
    }

    /// Deals of `game` no worker holds that are left to grade.
    pub async fn work_left(&self, game: &str) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let n: i64 = client
            .query_one(
                "SELECT COUNT(*) FROM grading_todo WHERE game = $1",
                &[&game],
            )
            .await?
            .get(0);
        Ok(n as u64)
    }
}

impl Claim {
    fn client(&self) -> Result<&Object, StoreError> {
        self.client
            .as_ref()
            .ok_or_else(|| StoreError::Failed("the claim is finished".into()))
    }

    async fn finish(&mut self, end: &str) -> Result<(), StoreError> {
        let result = self.client()?.batch_execute(end).await;
        // Committed or not, the connection goes back clean (or is closed
        // by the drop below when the end failed).
        if result.is_ok() {
            self.client = None;
        }
        Ok(result?)
    }

    /// Stores the deal's grade and takes it off the list, in one commit. A
    /// grade of the deal made by a grading (not the library's) is never
    /// replaced: finding one is an error, since the deal would have been
    /// graded twice.
    pub async fn graded(mut self, grade: &DealGrade, detail_json: &str) -> Result<(), StoreError> {
        let deal = deal_to_sql(grade.deal)?;
        serde_json::from_str::<serde_json::Value>(detail_json)
            .map_err(|e| StoreError::BadDetail(e.to_string()))?;
        let (wins, runs) = person_sql(grade);
        let n = self
            .client()?
            .execute(
                "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level,
                    detail = excluded.detail, person_wins = excluded.person_wins,
                    runs = excluded.runs
                 WHERE grades.detail = '{}'",
                &[
                    &self.game,
                    &deal,
                    &grade.level.as_str(),
                    &detail_json,
                    &wins,
                    &runs,
                ],
            )
            .await?;
        if n != 1 {
            return Err(StoreError::Failed(format!(
                "deal {} of {} is graded already: it would have been graded twice",
                grade.deal, self.game
            )));
        }
        self.done().await?;
        self.finish("COMMIT").await
    }

    /// Stores that the deal is of none of `levels` and takes it off the list.
    pub async fn ruled_out(
        mut self,
        levels: &[Level],
        detail_json: &str,
    ) -> Result<(), StoreError> {
        put_ruled_out_on(self.client()?, &self.game, self.deal, levels, detail_json).await?;
        self.done().await?;
        self.finish("COMMIT").await
    }

    async fn done(&self) -> Result<(), StoreError> {
        self.client()?
            .execute(
                "DELETE FROM grading_todo WHERE game = $1 AND deal = $2",
                &[&self.game, &(self.deal as i64)],
            )
            .await?;
        Ok(())
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        // Unfinished: close the connection (rolling the claim back) rather
        // than hand a connection inside a transaction to the next caller.
        if let Some(client) = self.client.take() {
            drop(Object::take(client));
        }
    }
}
