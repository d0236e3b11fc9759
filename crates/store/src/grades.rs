//! Graded deals: for each deal of a game, its level and, when the
//! person-like player played it, how many of its runs it won. `patience
//! grade` writes them one by one with the grading's detail as JSON; the
//! shipped library is loaded into them in bulk (see [`crate::library`]).

use std::collections::HashSet;

use crate::error::{shorten, StoreError};
use crate::{deal_to_sql, DealGrade, Level, PersonWins, Store};
use rusqlite::{params, OptionalExtension};

/// The columns of a grade row, checked into a [`DealGrade`]: a row this
/// build cannot read is an error naming it, never a made-up grade.
pub(crate) fn checked(
    game: &str,
    deal: i64,
    level: &str,
    wins: Option<i64>,
    runs: Option<i64>,
) -> Result<DealGrade, StoreError> {
    let corrupt = |what: String| StoreError::CorruptGrade {
        game: game.to_string(),
        deal,
        what,
    };
    let number = u64::try_from(deal)
        .ok()
        .filter(|d| (1..=patience_engine::MAX_DEAL).contains(d))
        .ok_or_else(|| corrupt("a deal number out of range".into()))?;
    let known =
        Level::parse(level).ok_or_else(|| corrupt(format!("level `{}`", shorten(level))))?;
    let person = match (wins, runs) {
        (None, None) => None,
        (Some(w), Some(n)) => Some(
            u32::try_from(w)
                .ok()
                .zip(u32::try_from(n).ok())
                .and_then(|(w, n)| PersonWins::new(w, n))
                .ok_or_else(|| corrupt(format!("person-like wins {w} of {n}")))?,
        ),
        (w, n) => return Err(corrupt(format!("person-like wins {w:?} of {n:?}"))),
    };
    Ok(DealGrade {
        deal: number,
        level: known,
        person,
    })
}

/// The person-like columns of a grade as SQLite values.
pub(crate) fn person_sql(g: &DealGrade) -> (Option<i64>, Option<i64>) {
    match g.person {
        Some(p) => (Some(p.wins() as i64), Some(p.runs() as i64)),
        None => (None, None),
    }
}

impl Store {
    /// Records (or replaces) the grade of one deal. `detail_json` is kept as
    /// given after checking that it is JSON.
    pub fn put_grade(
        &self,
        game: &str,
        grade: &DealGrade,
        detail_json: &str,
    ) -> Result<(), StoreError> {
        let deal = deal_to_sql(grade.deal)?;
        serde_json::from_str::<serde_json::Value>(detail_json)
            .map_err(|e| StoreError::BadDetail(e.to_string()))?;
        let (wins, runs) = person_sql(grade);
        self.conn
            .prepare_cached(
                "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level,
                    detail = excluded.detail, person_wins = excluded.person_wins,
                    runs = excluded.runs",
            )?
            .execute(params![
                game,
                deal,
                grade.level.as_str(),
                detail_json,
                wins,
                runs
            ])?;
        Ok(())
    }

    /// Every graded deal of a game, whatever its level: the deals a resumed
    /// grading skips. Read through [`Store::grades`], so a corrupt row is an
    /// error naming it rather than a deal number made up from it.
    pub fn graded_deals(&self, game: &str) -> Result<HashSet<u64>, StoreError> {
        Ok(self.grades(game)?.into_iter().map(|g| g.deal).collect())
    }

    /// Every graded deal of a game, by deal number: what `patience grade
    /// --export` writes into the library, so grades made on several
    /// machines over several ranges can be merged into one file. A row this
    /// build cannot read is an error naming it, never skipped: an export
    /// must not lose deals silently.
    pub fn grades(&self, game: &str) -> Result<Vec<DealGrade>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT deal, level, person_wins, runs FROM grades WHERE game = ?1 ORDER BY deal",
        )?;
        let rows = st.query_map([game], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<i64>>(3)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (deal, level, wins, runs) = row?;
            out.push(checked(game, deal, &level, wins, runs)?);
        }
        Ok(out)
    }

    /// The grade of one deal, if it is graded.
    pub fn grade(&self, game: &str, deal: u64) -> Result<Option<DealGrade>, StoreError> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT level, person_wins, runs FROM grades WHERE game = ?1 AND deal = ?2",
            )?
            .query_row(params![game, deal_to_sql(deal)?], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })
            .optional()?;
        row.map(|(level, wins, runs)| checked(game, deal as i64, &level, wins, runs))
            .transpose()
    }

    /// How many deals of a game each level holds, in level order; levels
    /// with none are left out, and so are rows of a word that is no level
    /// (written by hand: [`Store::grades`] names them).
    pub fn level_counts(&self, game: &str) -> Result<Vec<(Level, u64)>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT level, COUNT(*) FROM grades WHERE game = ?1 GROUP BY level")?;
        let rows = st.query_map([game], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (name, n) = row?;
            if let Some(level) = Level::parse(&name) {
                out.push((level, n as u64));
            }
        }
        out.sort();
        Ok(out)
    }

    /// A deal of this level picked at random, or `None` when the level has none.
    pub fn random_graded_deal(&self, game: &str, level: Level) -> Result<Option<u64>, StoreError> {
        let deal = self
            .conn
            .prepare_cached(
                "SELECT deal FROM grades WHERE game = ?1 AND level = ?2 ORDER BY random() LIMIT 1",
            )?
            .query_row(params![game, level.as_str()], |r| r.get::<_, i64>(0))
            .optional()?;
        Ok(deal.map(|d| d as u64))
    }

    /// Loads a library file's grades of a game, in one transaction, unless
    /// the store already holds this very file (`digest`): a deal the store
    /// lacks is added, a deal that came from an earlier library takes the
    /// new line, a deal an earlier library graded and this one does not
    /// (a library regraded over fewer deals) is dropped, and a deal graded
    /// locally (`patience grade`, which keeps its detail) keeps its own
    /// grade. Returns the grades written or dropped, or
    /// `None` when the file was already loaded (a restart costs no writes).
    pub fn load_library_grades(
        &mut self,
        game: &str,
        digest: &str,
        grades: &[DealGrade],
    ) -> Result<Option<usize>, StoreError> {
        let loaded: Option<String> = self
            .conn
            .prepare_cached("SELECT digest FROM library_files WHERE game = ?1")?
            .query_row([game], |r| r.get(0))
            .optional()?;
        if loaded.as_deref() == Some(digest) {
            return Ok(None);
        }
        let tx = self.conn.transaction()?;
        let mut written = 0;
        {
            // A library line carries no detail: rows with the empty detail
            // are the library's own.
            let mut st = tx.prepare_cached(
                "INSERT INTO grades (game, deal, level, detail, person_wins, runs)
                 VALUES (?1, ?2, ?3, '{}', ?4, ?5)
                 ON CONFLICT (game, deal) DO UPDATE SET level = excluded.level,
                    person_wins = excluded.person_wins, runs = excluded.runs
                 WHERE grades.detail = '{}'
                   AND (grades.level, grades.person_wins, grades.runs)
                       IS NOT (excluded.level, excluded.person_wins, excluded.runs)",
            )?;
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS library_deals (deal INTEGER PRIMARY KEY);
                 DELETE FROM library_deals;",
            )?;
            let mut listed =
                tx.prepare_cached("INSERT OR IGNORE INTO library_deals (deal) VALUES (?1)")?;
            for g in grades {
                let (wins, runs) = person_sql(g);
                let deal = deal_to_sql(g.deal)?;
                written += st.execute(params![game, deal, g.level.as_str(), wins, runs])?;
                listed.execute([deal])?;
            }
            written += tx
                .prepare_cached(
                    "DELETE FROM grades WHERE game = ?1 AND detail = '{}'
                       AND deal NOT IN (SELECT deal FROM library_deals)",
                )?
                .execute([game])?;
            tx.prepare_cached(
                "INSERT INTO library_files (game, digest) VALUES (?1, ?2)
                 ON CONFLICT (game) DO UPDATE SET digest = excluded.digest",
            )?
            .execute(params![game, digest])?;
        }
        tx.commit()?;
        Ok(Some(written))
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    fn put(store: &Store, game: &str, deal: u64, level: Level) {
        store
            .put_grade(game, &DealGrade::level_only(deal, level), "{}")
            .unwrap();
    }

    #[test]
    fn grades_upsert_count_and_pick() {
        let (_dir, store) = temp_store();
        put(&store, "fan", 5, Level::Easy);
        let six = DealGrade {
            person: PersonWins::new(0, 20),
            ..DealGrade::level_only(6, Level::Hard)
        };
        store.put_grade("fan", &six, r#"{"nodes":12}"#).unwrap();
        put(&store, "fan", 7, Level::Hard);
        // An upsert moves deal 7 from hard to easy rather than adding a row.
        put(&store, "fan", 7, Level::Easy);
        assert_eq!(
            store.level_counts("fan").unwrap(),
            vec![(Level::Easy, 2), (Level::Hard, 1)]
        );
        assert_eq!(store.graded_deals("fan").unwrap(), HashSet::from([5, 6, 7]));
        assert!(store.graded_deals("krug").unwrap().is_empty());
        assert_eq!(store.grade("fan", 6).unwrap(), Some(six));
        assert_eq!(store.grade("fan", 8).unwrap(), None);
        assert_eq!(
            store.random_graded_deal("fan", Level::Hard).unwrap(),
            Some(6)
        );
        assert_eq!(
            store.random_graded_deal("fan", Level::Medium).unwrap(),
            None
        );
        let easy = store
            .random_graded_deal("fan", Level::Easy)
            .unwrap()
            .unwrap();
        assert!(easy == 5 || easy == 7);
    }

    #[test]
    fn grades_list_a_game_by_deal_and_name_a_corrupt_row() {
        let (_d, store) = temp_store();
        assert!(store.grades("fan").unwrap().is_empty());
        put(&store, "fan", 9, Level::Hard);
        put(&store, "fan", 2, Level::Easy);
        put(&store, "fan", 9, Level::Medium);
        put(&store, "krug", 1, Level::Easy);
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![
                DealGrade::level_only(2, Level::Easy),
                DealGrade::level_only(9, Level::Medium)
            ]
        );
        // A row the store's own calls refuse to write, put there by hand.
        store
            .execute_raw(
                "INSERT INTO grades (game, deal, level, detail) VALUES ('fan', 5, 'trivial', '{}')",
            )
            .unwrap();
        let err = store.grades("fan").unwrap_err().to_string();
        assert!(
            err.contains("fan") && err.contains("deal 5") && err.contains("trivial"),
            "{err}"
        );
        assert!(store.grade("fan", 5).is_err());
        // Counting levels leaves the foreign word out.
        assert_eq!(
            store.level_counts("fan").unwrap(),
            vec![(Level::Easy, 1), (Level::Medium, 1)]
        );
        store
            .execute_raw(
                "UPDATE grades SET level = 'easy', person_wins = 7, runs = 5 WHERE deal = 5",
            )
            .unwrap();
        let err = store.grades("fan").unwrap_err().to_string();
        assert!(err.contains("deal 5") && err.contains("7 of 5"), "{err}");
        store
            .execute_raw(
                "UPDATE grades SET person_wins = NULL, runs = NULL, deal = -1 WHERE deal = 5",
            )
            .unwrap();
        let err = store.grades("fan").unwrap_err().to_string();
        assert!(err.contains("deal -1"), "{err}");
        // A resumed grading stops on it too, rather than skip a made-up deal.
        assert!(store.graded_deals("fan").is_err());
        assert_eq!(
            store.grades("krug").unwrap(),
            vec![DealGrade::level_only(1, Level::Easy)]
        );
    }

    #[test]
    fn bad_grades_are_refused_and_change_nothing() {
        let (_dir, store) = temp_store();
        assert!(matches!(
            store.put_grade("fan", &DealGrade::level_only(0, Level::Easy), "{}"),
            Err(StoreError::BadDeal(0))
        ));
        assert!(matches!(
            store.put_grade("fan", &DealGrade::level_only(5, Level::Easy), "{not json"),
            Err(StoreError::BadDetail(_))
        ));
        assert!(!store.has_grades("fan").unwrap());
    }

    #[test]
    fn a_library_load_replaces_its_own_rows_keeps_local_grades_and_runs_once() {
        let (_dir, mut store) = temp_store();
        let lib = |level, wins| DealGrade {
            person: PersonWins::new(wins, 20),
            ..DealGrade::level_only(1, level)
        };
        let first = [lib(Level::Easy, 15), DealGrade::level_only(2, Level::Hard)];
        assert_eq!(
            store.load_library_grades("fan", "a", &first).unwrap(),
            Some(2)
        );
        assert_eq!(store.load_library_grades("fan", "a", &first).unwrap(), None);
        // Deal 2 graded locally.
        let local = DealGrade {
            person: PersonWins::new(1, 20),
            ..DealGrade::level_only(2, Level::Medium)
        };
        store.put_grade("fan", &local, r#"{"grade":{}}"#).unwrap();
        // A newer library: deal 1 regraded, deal 2 differs, deal 3 new.
        let newer = [
            lib(Level::Medium, 4),
            DealGrade::level_only(2, Level::Hard),
            DealGrade::level_only(3, Level::Easy),
        ];
        assert_eq!(
            store.load_library_grades("fan", "b", &newer).unwrap(),
            Some(2)
        );
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![newer[0], local, newer[2]]
        );
    }
}
