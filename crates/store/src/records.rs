//! The records of a deal: every player's wins of it without hints, from the
//! figures the server stored at each game's first win (its move count and
//! playing time, as the engine played them). A game won after a hint, or
//! stored before hints were recorded, sets no record.

use rusqlite::params;

use crate::error::StoreError;
use crate::games::readable;
use crate::Store;

/// A deal's wins are read up to this many, fewest moves first: far more
/// players than one deal gathers in a day, and a bounded read.
pub const RECORD_WINS: i64 = 10_000;

/// One game's first win of a deal, without hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealWin {
    pub uid: String,
    pub player: String,
    pub moves: u64,
    pub elapsed_ms: i64,
}

impl Store {
    /// The deal's wins without hints, by every player, fewest moves first
    /// (then the fastest); at most [`RECORD_WINS`]. A row that cannot be
    /// read is left out and logged.
    pub fn hint_free_wins(&self, game: &str, deal: u64) -> Result<Vec<DealWin>, StoreError> {
        let deal = crate::deal_to_sql(deal)?;
        let mut st = self.conn.prepare_cached(
            "SELECT uid, player, won_moves, won_ms FROM games
             WHERE game = ?1 AND deal = ?2 AND finished = 1 AND hinted = 0 AND hints_known = 1
               AND won_moves IS NOT NULL AND won_ms IS NOT NULL
             ORDER BY won_moves, won_ms, rowid LIMIT ?3",
        )?;
        let rows = st.query_map(params![game, deal, RECORD_WINS], |r| {
            Ok(readable(r, |r| {
                Ok(DealWin {
                    uid: r.get(0)?,
                    player: r.get(1)?,
                    moves: r.get::<_, i64>(2)? as u64,
                    elapsed_ms: r.get(3)?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::new_row;
    use crate::test_util::temp_store;
    use crate::{GameUpdate, MovesChange};

    fn won(store: &Store, uid: &str, player: &str, moves: u64, ms: i64) {
        store
            .insert_game(&crate::StoredGame {
                player: player.into(),
                ..new_row(uid)
            })
            .unwrap();
        store
            .update_game(&GameUpdate {
                uid: uid.into(),
                moves: MovesChange::Step,
                version: 0,
                move_count: moves,
                clicks: moves,
                updated_ms: 5,
                elapsed_ms: ms,
                won: true,
            })
            .unwrap();
    }

    #[test]
    fn only_wins_known_to_be_without_hints_are_records() {
        let (_dir, store) = temp_store();
        won(&store, "a", "p", 50, 9000);
        won(&store, "b", "q", 41, 12000);
        won(&store, "c", "r", 30, 1000);
        store.mark_hinted("c").unwrap(); // already won: changes nothing
        won(&store, "d", "s", 20, 500);
        store
            .execute_raw("UPDATE games SET hinted = 1 WHERE uid = 'd'")
            .unwrap();
        won(&store, "e", "t", 10, 100);
        store
            .execute_raw("UPDATE games SET hints_known = 0 WHERE uid = 'e'")
            .unwrap();
        store.insert_game(&new_row("f")).unwrap(); // not won
        let wins = store.hint_free_wins("fan", 3).unwrap();
        let got: Vec<(&str, u64)> = wins.iter().map(|w| (w.uid.as_str(), w.moves)).collect();
        assert_eq!(got, [("c", 30), ("b", 41), ("a", 50)]);
        assert!(store.hint_free_wins("fan", 4).unwrap().is_empty());
        // A damaged row is left out, not an error.
        store
            .execute_raw("UPDATE games SET won_ms = 'x' WHERE uid = 'b'")
            .unwrap();
        assert_eq!(store.hint_free_wins("fan", 3).unwrap().len(), 2);
    }
}
