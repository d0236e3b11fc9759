//! The deal of each day: once chosen (by the server's rule, see
//! `patience_server::daily`), a day's deal of a game is kept here and never
//! chosen again, so a past day stays the same deal however the graded
//! library grows. A day is its date written `YYYY-MM-DD`.

use rusqlite::params;

use crate::error::StoreError;
use crate::games::readable;
use crate::{Level, Store};

/// One game's deal of one day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyDeal {
    pub game: String,
    pub day: String,
    pub deal: u64,
    pub level: Level,
}

/// What a player did with a deal: won it, and whether without hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealResult {
    pub deal: u64,
    pub won_without_hints: bool,
}

impl Store {
    /// The kept deals of `game` for the days `from..=to`, in day order.
    pub fn daily_deals(
        &self,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<DailyDeal>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, day, deal, level FROM daily_deals
             WHERE game = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day",
        )?;
        let rows = st.query_map(params![game, from, to], |r| {
            Ok(readable(r, |r| {
                let (game, day, deal, level): (String, String, i64, String) =
                    (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
                Ok(Level::parse(&level).map(|level| DailyDeal {
                    game,
                    day,
                    deal: deal as u64,
                    level,
                }))
            }))
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.extend(row?.flatten());
        }
        Ok(out)
    }

    /// Keeps a day's deal unless one is kept already (the first one stays).
    pub fn keep_daily(&self, d: &DailyDeal) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO daily_deals (game, day, deal, level) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (game, day) DO NOTHING",
            )?
            .execute(params![
                d.game,
                d.day,
                crate::deal_to_sql(d.deal)?,
                d.level.as_str()
            ])?;
        Ok(())
    }

    /// The graded deals of a game at one level, in deal order.
    pub fn deals_of_level(&self, game: &str, level: Level) -> Result<Vec<u64>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT deal FROM grades WHERE game = ?1 AND level = ?2 ORDER BY deal",
        )?;
        let rows = st.query_map(params![game, level.as_str()], |r| r.get::<_, i64>(0))?;
        Ok(rows
            .map(|r| r.map(|d| d as u64))
            .collect::<Result<_, _>>()?)
    }

    /// The deals the player has won, of one game or of all, each once as
    /// `(game, result)`: won without hints when any of its wins was.
    pub fn won_deals(
        &self,
        player: &str,
        game: Option<&str>,
    ) -> Result<Vec<(String, DealResult)>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, deal, MAX(CASE WHEN hinted = 0 AND hints_known = 1 THEN 1 ELSE 0 END)
             FROM games WHERE player = ?1 AND finished = 1 AND (?2 IS NULL OR game = ?2)
             GROUP BY game, deal",
        )?;
        let rows = st.query_map(params![player, game], |r| {
            Ok(readable(r, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    DealResult {
                        deal: r.get::<_, i64>(1)? as u64,
                        won_without_hints: r.get::<_, i64>(2)? == 1,
                    },
                ))
            }))
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.extend(row?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    #[test]
    fn a_kept_day_is_never_chosen_again() {
        let (_dir, store) = temp_store();
        let d = |day: &str, deal| DailyDeal {
            game: "fan".into(),
            day: day.into(),
            deal,
            level: Level::Easy,
        };
        store.keep_daily(&d("2026-12-01", 7)).unwrap();
        store.keep_daily(&d("2026-12-01", 9)).unwrap();
        store.keep_daily(&d("2026-12-03", 5)).unwrap();
        assert_eq!(
            store
                .daily_deals("fan", "2026-12-01", "2026-12-02")
                .unwrap(),
            [d("2026-12-01", 7)]
        );
        assert_eq!(
            store
                .daily_deals("fan", "2026-11-01", "2026-12-31")
                .unwrap()
                .len(),
            2
        );
    }
}
