//! A player's reads kept in memory (statistics, games in progress, the
//! games the statistics chart), so a page that asks again costs no
//! database read until the player changes something.
//!
//! Every request of a player that may change their games (every `POST` of
//! theirs, whatever its answer) marks the player changed once it is
//! answered, after its commit. Each kept answer carries the moment its read
//! began, on one counter that only grows; it is used only if it began after
//! the player's last change, so an answer read before a commit is never
//! served after it. The memory is bounded: past [`KEPT_PLAYERS`] players it
//! is emptied at once, and answers begun before that are not kept.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use axum::body::Bytes;

/// Players whose answers are kept at most.
pub const KEPT_PLAYERS: usize = 20_000;

/// What is kept of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    Stats,
    Continue,
    Games,
}

const READS: usize = 3;

#[derive(Default)]
struct Entry {
    changed_at: u64,
    answers: [Option<(u64, Bytes)>; READS],
}

/// The kept answers of every player.
#[derive(Default)]
pub struct Kept {
    clock: AtomicU64,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    players: HashMap<String, Entry>,
    /// The moment the memory was last emptied: a player with no entry
    /// counts as changed then.
    floor: u64,
}

impl Kept {
    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::AcqRel) + 1
    }

    /// The kept answer, if one was read after the player's last change.
    pub fn get(&self, player: &str, read: Read) -> Option<Bytes> {
        let inner = self.inner.lock().ok()?;
        let e = inner.players.get(player)?;
        match &e.answers[read as usize] {
            Some((began, body)) if *began > e.changed_at => Some(body.clone()),
            _ => None,
        }
    }

    /// Begins a read: the moment to hand to [`Kept::put`].
    pub fn begin(&self) -> u64 {
        self.tick()
    }

    /// Keeps an answer whose read began at `began`.
    pub fn put(&self, player: &str, read: Read, began: u64, body: Bytes) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if began <= inner.floor {
            return;
        }
        if inner.players.len() >= KEPT_PLAYERS && !inner.players.contains_key(player) {
            inner.players.clear();
            inner.floor = self.tick();
            return;
        }
        let floor = inner.floor;
        let e = inner.players.entry(player.to_string()).or_insert(Entry {
            changed_at: floor,
            ..Entry::default()
        });
        if began > e.changed_at {
            e.answers[read as usize] = Some((began, body));
        }
    }

    /// The player changed something: every kept answer of theirs is stale.
    pub fn changed(&self, player: &str) {
        let now = self.tick();
        if let Ok(mut inner) = self.inner.lock() {
            if let Some(e) = inner.players.get_mut(player) {
                e.changed_at = now;
                e.answers = Default::default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_read_before_a_change_is_never_served_after_it() {
        let k = Kept::default();
        let b = |s: &'static str| Bytes::from_static(s.as_bytes());
        let began = k.begin();
        k.put("p", Read::Stats, began, b("one"));
        assert_eq!(k.get("p", Read::Stats), Some(b("one")));
        assert_eq!(k.get("p", Read::Continue), None);
        assert_eq!(k.get("q", Read::Stats), None);
        // A read begins, the player changes something, the read ends.
        let began = k.begin();
        k.changed("p");
        k.put("p", Read::Stats, began, b("stale"));
        assert_eq!(k.get("p", Read::Stats), None);
        let began = k.begin();
        k.put("p", Read::Stats, began, b("two"));
        assert_eq!(k.get("p", Read::Stats), Some(b("two")));
    }

    #[test]
    fn emptied_memory_keeps_no_answer_begun_before() {
        let k = Kept::default();
        let early = k.begin();
        for i in 0..KEPT_PLAYERS {
            let began = k.begin();
            k.put(&format!("p{i}"), Read::Stats, began, Bytes::new());
        }
        // Full: the next new player empties it.
        let began = k.begin();
        k.put("new", Read::Stats, began, Bytes::new());
        k.put("late", Read::Stats, early, Bytes::new());
        assert_eq!(k.get("late", Read::Stats), None);
        assert_eq!(k.get("p0", Read::Stats), None);
    }
}
