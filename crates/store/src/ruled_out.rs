//! Deals a hunt ruled out: `patience grade --hunt LEVELS` looks for deals of
//! some levels only, and stops a deal's person-like runs as soon as they
//! show it is of none of them (see `patience_solver::levels::hunt`). Such a
//! deal has no grade, since its runs were not all played; what the store
//! keeps is that it is not of each level sought, a row a level, so a resumed
//! hunt skips it and "every Hard deal among the first N" can be checked.

use std::collections::HashSet;

use rusqlite::params;

use crate::error::StoreError;
use crate::{deal_to_sql, Level, Store};

impl Store {
    /// Records that deal `deal` of `game` is of none of `levels`, with the
    /// hunt's detail as JSON (checked to be JSON, then kept as given).
    pub fn put_ruled_out(
        &self,
        game: &str,
        deal: u64,
        levels: &[Level],
        detail_json: &str,
    ) -> Result<(), StoreError> {
        let deal = deal_to_sql(deal)?;
        serde_json::from_str::<serde_json::Value>(detail_json)
            .map_err(|e| StoreError::BadDetail(e.to_string()))?;
        let mut st = self.conn.prepare_cached(
            "INSERT INTO ruled_out (game, level, deal, detail) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game, level, deal) DO UPDATE SET detail = excluded.detail",
        )?;
        for level in levels {
            st.execute(params![game, level.as_str(), deal, detail_json])?;
        }
        Ok(())
    }

    /// The deals of `game` a hunt showed are not of `level`.
    pub fn ruled_out_deals(&self, game: &str, level: Level) -> Result<HashSet<u64>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT deal FROM ruled_out WHERE game = ?1 AND level = ?2")?;
        let rows = st.query_map(params![game, level.as_str()], |r| r.get::<_, i64>(0))?;
        let mut out = HashSet::new();
        for deal in rows {
            out.insert(u64::try_from(deal?).unwrap_or(0));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::test_util::temp_store;
    use crate::{Level, StoreError};

    #[test]
    fn ruled_out_deals_are_kept_a_level_a_row_and_bad_ones_refused() {
        let (_dir, store) = temp_store();
        store
            .put_ruled_out("fan", 7, &[Level::Medium, Level::Hard], r#"{"played":3}"#)
            .unwrap();
        store.put_ruled_out("fan", 9, &[Level::Hard], "{}").unwrap();
        // Recording a deal again replaces its row, not adds one.
        store.put_ruled_out("fan", 9, &[Level::Hard], "{}").unwrap();
        let hard = store.ruled_out_deals("fan", Level::Hard).unwrap();
        assert_eq!(hard, [7, 9].into_iter().collect());
        let medium = store.ruled_out_deals("fan", Level::Medium).unwrap();
        assert_eq!(medium, [7].into_iter().collect());
        assert!(store
            .ruled_out_deals("fan", Level::Easy)
            .unwrap()
            .is_empty());
        assert!(store
            .ruled_out_deals("krug", Level::Hard)
            .unwrap()
            .is_empty());
        // Nothing is written for a bad deal number or detail.
        assert!(matches!(
            store.put_ruled_out("fan", 0, &[Level::Hard], "{}"),
            Err(StoreError::BadDeal(0))
        ));
        assert!(matches!(
            store.put_ruled_out("fan", 8, &[Level::Hard], "not json"),
            Err(StoreError::BadDetail(_))
        ));
        assert_eq!(store.ruled_out_deals("fan", Level::Hard).unwrap().len(), 2);
        // Ruled-out deals are no grades.
        assert_eq!(store.grade_count("fan").unwrap(), 0);
    }
}
