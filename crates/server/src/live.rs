//! Games in play, kept in memory so a move costs one engine step and one row
//! update rather than a replay of the whole record.
//!
//! Each game has a slot guarded by an async mutex: requests on one game run one
//! at a time (the move-count check, the move and its commit happen together),
//! while different games proceed in parallel. A slot holding `None` is loaded
//! from the store by whoever locks it first. The cache is bounded: past its
//! capacity, slots nobody is using are dropped and reload on their next use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use patience_engine::{Game, Move, Record};

use patience_store::{AskedLevel, DealGrade, StoredGame};

/// A gap between two requests on a game counts at most this much towards its
/// time: a game left open overnight does not show ten hours.
pub const IDLE_CAP: Duration = Duration::from_secs(120);

/// A game being played.
pub struct LiveGame {
    pub uid: String,
    pub player: String,
    pub game: Game,
    pub level: AskedLevel,
    /// The deal's grade in the graded library, looked up when the game is
    /// opened (see `api::play::grade_of`).
    pub grade: Option<DealGrade>,
    pub elapsed_ms: i64,
    /// The stored game's version: grows by one with every change.
    pub version: u64,
    /// A hint was served before the first win.
    pub hinted: bool,
    /// The winning line the last hint came from (see `patience_solver::hint::kept_line`).
    pub hint_plan: patience_solver::Plan,
    last_active: Instant,
}

pub type Slot = Arc<tokio::sync::Mutex<Option<LiveGame>>>;

/// Why a stored game cannot be played.
#[derive(Debug, thiserror::Error)]
#[error("saved game {uid} cannot be loaded: {reason}")]
pub struct LoadError {
    pub uid: String,
    pub reason: String,
}

impl LiveGame {
    pub fn new(uid: String, player: String, game: Game, level: AskedLevel) -> LiveGame {
        LiveGame {
            uid,
            player,
            game,
            level,
            grade: None,
            elapsed_ms: 0,
            version: 0,
            hinted: false,
            hint_plan: patience_solver::Plan::default(),
            last_active: Instant::now(),
        }
    }

    /// Replays a stored row through the engine, redo list included.
    pub fn load(row: &StoredGame) -> Result<LiveGame, LoadError> {
        let fail = |reason: String| LoadError {
            uid: row.uid.clone(),
            reason,
        };
        let spec = patience_engine::game(&row.game)
            .ok_or_else(|| fail(format!("unknown game `{}`", row.game)))?;
        let layout = patience_engine::Layout::of(spec);
        let parse = |text: &str, what: &str| -> Result<Vec<Move>, LoadError> {
            text.split_whitespace()
                .map(|w| Move::parse(w, &layout).map_err(|e| fail(format!("{what}: {e}"))))
                .collect()
        };
        let record = Record {
            game: spec,
            deal: row.deal,
            moves: parse(&row.moves, "moves")?,
        };
        let mut game = record.replay().map_err(|e| fail(e.to_string()))?;
        game.set_redo(parse(&row.redo, "redo")?);
        Ok(LiveGame {
            uid: row.uid.clone(),
            player: row.player.clone(),
            game,
            level: row.level,
            grade: None,
            elapsed_ms: row.elapsed_ms,
            version: row.version,
            hinted: row.hinted,
            hint_plan: patience_solver::Plan::default(),
            last_active: Instant::now(),
        })
    }

    /// Counts the time since the last request (capped) into the game's time.
    pub fn touch(&mut self) {
        let now = Instant::now();
        let gap = now.duration_since(self.last_active).min(IDLE_CAP);
        self.elapsed_ms += gap.as_millis() as i64;
        self.last_active = now;
    }

    /// The moves as stored: words separated by single spaces.
    pub fn moves_text(&self) -> String {
        words(&self.game.moves(), &self.game)
    }

    pub fn redo_text(&self) -> String {
        words(&self.game.redo_moves(), &self.game)
    }
}

fn words(moves: &[Move], game: &Game) -> String {
    let layout = game.position().layout();
    let mut s = String::with_capacity(moves.len() * 6);
    for m in moves {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&m.text(layout));
    }
    s
}

/// The bounded map from uid to slot.
pub struct Cache {
    slots: Mutex<HashMap<String, Slot>>,
    capacity: usize,
}

impl Cache {
    pub fn new(capacity: usize) -> Cache {
        Cache {
            slots: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// The slot for `uid`, empty (to be loaded) when the game is not in memory.
    pub fn slot(&self, uid: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = slots.get(uid) {
            return s.clone();
        }
        let s = Slot::default();
        slots.insert(uid.to_string(), s.clone());
        self.evict(&mut slots);
        s
    }

    /// Puts a new game in memory.
    pub fn insert(&self, live: LiveGame) {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        let uid = live.uid.clone();
        slots.insert(uid, Arc::new(tokio::sync::Mutex::new(Some(live))));
        self.evict(&mut slots);
    }

    pub fn len(&self) -> usize {
        self.slots.lock().map_or(0, |s| s.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Past capacity, drops slots no request holds, down to 90% of capacity.
    /// A slot in use is never dropped, so no game is ever live twice.
    fn evict(&self, slots: &mut HashMap<String, Slot>) {
        if slots.len() <= self.capacity {
            return;
        }
        let target = self.capacity - self.capacity / 10;
        let idle: Vec<String> = slots
            .iter()
            .filter(|(_, s)| Arc::strong_count(s) == 1)
            .map(|(k, _)| k.clone())
            .take(slots.len().saturating_sub(target))
            .collect();
        for k in idle {
            slots.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(moves: &str, redo: &str) -> StoredGame {
        StoredGame {
            uid: "u".into(),
            player: "p".into(),
            game: "la-belle-lucie".into(),
            deal: 3,
            level: AskedLevel::Any,
            moves: moves.into(),
            redo: redo.into(),
            move_count: 0,
            created_ms: 0,
            updated_ms: 0,
            finished: false,
            elapsed_ms: 0,
            version: 0,
            hinted: false,
        }
    }

    #[test]
    fn a_stored_game_replays_with_its_redo_list() {
        let spec = patience_engine::game("la-belle-lucie").unwrap();
        let mut g = Game::new(spec, 3).unwrap();
        for _ in 0..3 {
            let m = g.position().legal_moves()[0];
            g.play(m).unwrap();
        }
        g.undo();
        let live = LiveGame::new("u".into(), "p".into(), g.clone(), AskedLevel::Any);
        let back = LiveGame::load(&row(&live.moves_text(), &live.redo_text())).unwrap();
        assert_eq!(back.game.moves(), g.moves());
        assert_eq!(back.game.redo_moves(), g.redo_moves());
        assert_eq!(back.game.position().hash(), g.position().hash());
    }

    #[test]
    fn a_damaged_row_is_an_error_not_a_panic() {
        for (moves, redo) in [
            ("t1>f1 zz", ""),
            ("redeal redeal redeal", ""),
            ("", "t99>f1"),
        ] {
            let e = LiveGame::load(&row(moves, redo)).err().expect(moves);
            assert!(e.to_string().contains("cannot be loaded"), "{e}");
        }
        let mut r = row("", "");
        r.game = "no-such-game".into();
        assert!(LiveGame::load(&r).is_err());
        r.game = "fan".into();
        r.deal = 0;
        assert!(LiveGame::load(&r).is_err());
    }

    #[test]
    fn slots_in_use_survive_eviction() {
        let cache = Cache::new(10);
        let held = cache.slot("held");
        for i in 0..50 {
            cache.slot(&format!("g{i}"));
        }
        assert!(cache.len() <= 10);
        assert!(Arc::ptr_eq(&held, &cache.slot("held")));
    }
}
