//! Graded and ruled-out deals in PostgreSQL, and the library's load: the
//! same rows and rules as [`crate::grades`] and [`crate::ruled_out`].

use std::collections::HashSet;

use super::{PgStore, SETUP_LOCK};
use crate::error::StoreError;
use crate::grades::{checked, person_sql};
use crate::{deal_to_sql, DealGrade, Level};

impl PgStore {
    /// Records (or replaces) the grade of one deal; `detail_json` must be JSON.
    pub async fn put_grade(
        &self,
        game: &str,
        grade: &DealGrade,
        detail_json: &str,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        put_grade_on(&client, game, grade, detail_json).await
    }

    /// Every graded deal of a game, by deal number; a row this build cannot
    /// read is an error naming it.
    pub async fn grades(&self, game: &str) -> Result<Vec<DealGrade>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT deal, level, person_wins, runs FROM grades WHERE game = $1 ORDER BY deal",
            )
            .await?;
        client
            .query(&st, &[&game])
            .await?
            .iter()
            .map(|r| checked(game, r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect()
    }

    /// Every graded deal of a game.
    pub async fn graded_deals(&self, game: &str) -> Result<HashSet<u64>, StoreError> {
        Ok(self
            .grades(game)
            .await?
            .into_iter()
            .map(|g| g.deal)
            .collect())
    }

    /// The grade of one deal, if it is graded.
    pub async fn grade(&self, game: &str, deal: u64) -> Result<Option<DealGrade>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT level, person_wins, runs FROM grades WHERE game = $1 AND deal = $2",
            )
            .await?;
        let number = deal_to_sql(deal)?;
        client
            .query_opt(&st, &[&game, &number])
            .await?
            .map(|r| checked(game, number, r.get(0), r.get(1), r.get(2)))
            .transpose()
    }

    /// How many deals of a game each level holds, in level order; words
    /// that are no level are left out.
    pub async fn level_counts(&self, game: &str) -> Result<Vec<(Level, u64)>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached("SELECT level, COUNT(*) FROM grades WHERE game = $1 GROUP BY level")
            .await?;
        let mut out: Vec<(Level, u64)> = client
            .query(&st, &[&game])
            .await?
            .iter()
            .filter_map(|r| {
                let n: i64 = r.get(1);
                Level::parse(r.get(0)).map(|l| (l, n as u64))
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// A deal of this level picked at random.
    pub async fn random_graded_deal(
        &self,
        game: &str,
        level: Level,
    ) -> Result<Option<u64>, StoreError> {
        let client = self.client().await?;
        let st = client
            .prepare_cached(
                "SELECT deal FROM grades WHERE game = $1 AND level = $2 ORDER BY random() LIMIT 1",
            )
            .await?;
        Ok(client
            .query_opt(&st, &[&game, &level.as_str()])
            .await?
            .map(|r| r.get::<_, i64>(0) as u64))
    }

    /// How many deals of this game are graded.
    pub async fn grade_count(&self, game: &str) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let n: i64 = client
            .query_one("SELECT COUNT(*) FROM grades WHERE game = $1", &[&game])
            .await?
            .get(0);
        Ok(n as u64)
    }

    /// Loads a library file's grades of a game as
    /// [`crate::Store::load_library_grades`] does, in one transaction
    /// under the setup lock (servers starting at once load it once).
    pub async fn load_library_grades(
        &self,
        game: &str,
        digest: &str,
        grades: &[DealGrade],
    ) -> Result<Option<usize>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SETUP_LOCK])
            .await?;
        let loaded: Option<String> = tx
            .query_opt("SELECT digest FROM library_files WHERE game = $1", &[&game])
            .await?
            .map(|r| r.get(0));
        if loaded.as_deref() == Some(digest) {
            return Ok(None);
        }
        let mut deals = Vec::with_capacity(grades.len());
        let mut levels = Vec::with_capacity(grades.len());
        let mut wins = Vec::with_capacity(grades.len());
        let mut runs = Vec::with_capacity(grades.len());
        for g in grades {
            let (w, n) = person_sql(g);
            deals.push(deal_to_sql(g.deal)?);
            levels.push(g.level.as_str());
            wins.push(w);
            runs.push(n);
        }
        // A library line carries no detail: rows with the empty detail are
        // the library's own, and only those it replaces or drops. The last
        // line of a deal wins, as in SQLite.
        let written = tx
            .execute(
                "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
                 SELECT DISTINCT ON (d) $1, d, l, '{}', w, n
                   FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::bigint[])
                        WITH ORDINALITY AS t(d, l, w, n, i)
                   ORDER BY d, i DESC
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level,
                    person_wins = excluded.person_wins, runs = excluded.runs
                 WHERE grades.detail = '{}'
                   AND (grades.level, grades.person_wins, grades.runs)
                       IS DISTINCT FROM (excluded.level, excluded.person_wins, excluded.runs)",
                &[&game, &deals, &levels, &wins, &runs],
            )
            .await?;
        let dropped = tx
            .execute(
                "DELETE FROM grades WHERE game = $1 AND detail = '{}' AND NOT (deal = ANY($2))",
                &[&game, &deals],
            )
            .await?;
        tx.execute(
            "INSERT INTO library_files (game, digest) VALUES ($1, $2)
             ON CONFLICT (game) DO UPDATE SET digest = excluded.digest",
            &[&game, &digest],
        )
        .await?;
        tx.commit().await?;
        Ok(Some((written + dropped) as usize))
    }

    /// Records that a deal is of none of `levels` (see [`crate::ruled_out`]).
    pub async fn put_ruled_out(
        &self,
        game: &str,
        deal: u64,
        levels: &[Level],
        detail_json: &str,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        put_ruled_out_on(&client, game, deal, levels, detail_json).await
    }

    /// The deals of `game` a hunt showed are not of `level`.
    pub async fn ruled_out_deals(
        &self,
        game: &str,
        level: Level,
    ) -> Result<HashSet<u64>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT deal FROM ruled_out WHERE game = $1 AND level = $2",
                &[&game, &level.as_str()],
            )
            .await?
            .iter()
            .map(|r| u64::try_from(r.get::<_, i64>(0)).unwrap_or(0))
            .collect())
    }
}

/// Checks that a detail is JSON, as the SQLite store does.
fn json(detail_json: &str) -> Result<(), StoreError> {
    serde_json::from_str::<serde_json::Value>(detail_json)
        .map(|_| ())
        .map_err(|e| StoreError::BadDetail(e.to_string()))
}

/// [`PgStore::put_grade`] on a given connection or transaction.
pub(crate) async fn put_grade_on(
    client: &impl deadpool_postgres::GenericClient,
    game: &str,
    grade: &DealGrade,
    detail_json: &str,
) -> Result<(), StoreError> {
    let deal = deal_to_sql(grade.deal)?;
    json(detail_json)?;
    let (wins, runs) = person_sql(grade);
    client
        .execute(
            "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level,
                detail = excluded.detail, person_wins = excluded.person_wins,
                runs = excluded.runs",
            &[
                &game,
                &deal,
                &grade.level.as_str(),
                &detail_json,
                &wins,
                &runs,
            ],
        )
        .await?;
    Ok(())
}

/// [`PgStore::put_ruled_out`] on a given connection or transaction.
pub(crate) async fn put_ruled_out_on(
    client: &impl deadpool_postgres::GenericClient,
    game: &str,
    deal: u64,
    levels: &[Level],
    detail_json: &str,
) -> Result<(), StoreError> {
    let deal = deal_to_sql(deal)?;
    json(detail_json)?;
    let words: Vec<&str> = levels.iter().map(|l| l.as_str()).collect();
    client
        .execute(
            "INSERT INTO ruled_out (game, level, deal, detail)
             SELECT $1, l, $3, $4 FROM unnest($2::text[]) AS t(l)
             ON CONFLICT (game, level, deal) DO UPDATE SET detail = excluded.detail",
            &[&game, &words, &deal, &detail_json],
        )
        .await?;
    Ok(())
}
