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

use patience_store::{AskedLevel, DealGrade, StoredGame, FOLLOWS};

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
    /// Per move played: it follows the move before it within one click (an
    /// automatic move home, or the rest of a finish). Undo and redo take a
    /// click at a time, and the move counter counts clicks.
    follows: Vec<bool>,
    /// The same for the redo list, first to redo first.
    redo_follows: Vec<bool>,
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
            level,
            grade: None,
            elapsed_ms: 0,
            version: 0,
            hinted: false,
            follows: vec![false; game.moves().len()],
            redo_follows: vec![false; game.redo_moves().len()],
            game,
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
        let parse = |text: &str, what: &str| -> Result<(Vec<Move>, Vec<bool>), LoadError> {
            text.split_whitespace()
                .map(|w| {
                    let bare = w.strip_prefix(FOLLOWS);
                    Move::parse(bare.unwrap_or(w), &layout)
                        .map(|m| (m, bare.is_some()))
                        .map_err(|e| fail(format!("{what}: {e}")))
                })
                .collect()
        };
        let (moves, follows) = parse(&row.moves, "moves")?;
        let (redo, redo_follows) = parse(&row.redo, "redo")?;
        let record = Record {
            game: spec,
            deal: row.deal,
            moves,
        };
        let mut game = record.replay().map_err(|e| fail(e.to_string()))?;
        game.set_redo(redo);
        Ok(LiveGame {
            uid: row.uid.clone(),
            player: row.player.clone(),
            game,
            level: row.level,
            grade: None,
            elapsed_ms: row.elapsed_ms,
            version: row.version,
            hinted: row.hinted,
            follows,
            redo_follows,
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
        words(&self.game.moves(), &self.follows, &self.game).join(" ")
    }

    pub fn redo_text(&self) -> String {
        words(&self.game.redo_moves(), &self.redo_follows, &self.game).join(" ")
    }

    /// The player's moves: clicks, each with the automatic moves it set off.
    pub fn clicks(&self) -> usize {
        self.follows.iter().filter(|f| !**f).count()
    }

    /// Where each click of the game began, as move counts (the first is 0),
    /// and the count after the last.
    pub fn click_starts(&self) -> Vec<usize> {
        let mut starts: Vec<usize> = (0..self.follows.len())
            .filter(|&i| !self.follows[i])
            .collect();
        starts.push(self.follows.len());
        starts
    }

    /// Whether each move played follows the one before it within a click.
    pub fn follows(&self) -> &[bool] {
        &self.follows
    }

    /// Plays `mv` through the engine: a click of its own, or (`follows`) part
    /// of the click before it. A move equal to the next to redo keeps the rest
    /// of the redo list, as the engine does.
    pub fn play(&mut self, mv: Move, follows: bool) -> Result<(), patience_engine::MoveError> {
        let redo_next = self.game.redo_moves().first().copied();
        self.game.play(mv)?;
        if redo_next == Some(mv) && !self.redo_follows.is_empty() {
            self.redo_follows.remove(0);
        } else {
            self.redo_follows.clear();
        }
        self.follows.push(follows);
        Ok(())
    }

    /// Takes back the last click: its move and every move that followed it.
    /// False when there is nothing to undo.
    pub fn undo_click(&mut self) -> bool {
        let mut undone = false;
        while let Some(f) = self.follows.last().copied() {
            if !self.game.undo() {
                break;
            }
            self.follows.pop();
            self.redo_follows.insert(0, f);
            undone = true;
            if !f {
                break;
            }
        }
        undone
    }

    /// Plays again the last click taken back, with the moves that followed
    /// it. False when there is none, or its first move is no longer legal.
    pub fn redo_click(&mut self) -> bool {
        let mut first = true;
        while let Some(&f) = self.redo_follows.first() {
            if !first && !f {
                break;
            }
            if !self.game.redo() {
                return !first;
            }
            self.redo_follows.remove(0);
            self.follows.push(f && !first);
            first = false;
        }
        !first
    }

    /// Moves that redo would play, as many as the next click holds.
    pub fn next_redo_len(&self) -> usize {
        match self.redo_follows.split_first() {
            None => 0,
            Some((_, rest)) => 1 + rest.iter().take_while(|f| **f).count(),
        }
    }
}

/// Moves as their stored words: a move that follows the one before it
/// within a click carries [`FOLLOWS`] in front.
pub fn words(moves: &[Move], follows: &[bool], game: &Game) -> Vec<String> {
    let layout = game.position().layout();
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = m.text(layout);
            if follows.get(i).copied().unwrap_or(false) {
                format!("{FOLLOWS}{text}")
            } else {
                text
            }
        })
        .collect()
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
