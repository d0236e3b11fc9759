//! A fair queue for scarce slots (solver searches): a few run at once, a
//! bounded number wait, each key (a player) has a bounded number in at once,
//! and a freed slot goes to the waiter whose key has been *present* least
//! lately.
//!
//! A key's presence is the time it has had work waiting or running, plus
//! [`REFUSED_COUNTS`] for every request of it refused, decayed exponentially
//! over the queue's memory (and never past it): a key that loops (always
//! waiting, running or asking again) approaches the whole memory, one that
//! asks now and then stays far below it. So a looping key is served after everyone who
//! waits less often, and a key that asks rarely is served next, whatever
//! the loops do. A waiter's place in the order is its key's presence when it
//! came, so a waiter is never passed by keys that ask as often. When the
//! queue is full, a newcomer present clearly less (by [`MARGIN`]) than the
//! most present waiter takes that waiter's place (the one
//! pushed out is refused), so loops cannot keep others out of the queue
//! either.
//!
//! A slot's holder may ask how many waiters are its *rivals* (present no
//! more than it is, within [`MARGIN`]), to shorten its work while they wait.
//!
//! The queue knows nothing of what the slot is used for: hints use it with
//! one in flight per player, and a pool of background searches can share the
//! same type with its own keys.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::time::Instant;

/// The presence a refused request adds to its key: asking again and again
/// is looping, even while refused.
pub const REFUSED_COUNTS: Duration = Duration::from_secs(1);

/// How much less present than a waiter a newcomer must be to take its place.
pub const MARGIN: Duration = Duration::from_secs(1);

/// Why a key got no place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The key already has as many in as it may.
    KeyBusy,
    /// Every slot and waiting place is taken by keys present at least as much.
    Full,
}

/// Slots shared fairly among keys.
pub struct FairQueue<K: Hash + Eq + Clone> {
    inner: Arc<Mutex<Inner<K>>>,
}

struct Inner<K: Hash + Eq + Clone> {
    free: usize,
    waiting_places: usize,
    per_key: usize,
    memory: Duration,
    next: u64,
    waiting: Vec<Waiter<K>>,
    keys: HashMap<K, Presence>,
}

struct Waiter<K: Hash + Eq + Clone> {
    key: K,
    /// The key's presence when it came: lower is served first.
    priority: f64,
    seq: u64,
    tx: oneshot::Sender<Slot<K>>,
}

/// A key's decayed presence and how many of its requests are in.
struct Presence {
    score: f64,
    at: Instant,
    inside: usize,
}

impl Presence {
    /// The score now: decayed since `at`, grown while something was inside.
    fn score(&self, now: Instant, memory: Duration) -> f64 {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        let tau = memory.as_secs_f64();
        let keep = (-dt / tau).exp();
        let present = if self.inside > 0 { tau } else { 0.0 };
        self.score * keep + present * (1.0 - keep)
    }

    fn update(&mut self, now: Instant, memory: Duration) {
        self.score = self.score(now, memory);
        self.at = now;
    }
}

/// A slot held until dropped; dropping it hands the slot to the next waiter.
pub struct Slot<K: Hash + Eq + Clone> {
    inner: Arc<Mutex<Inner<K>>>,
    key: Option<K>,
}

impl<K> Inner<K>
where
    K: Hash + Eq + Clone,
{
    /// The key's presence brought up to `now`.
    fn presence(&mut self, key: &K, now: Instant) -> &mut Presence {
        let memory = self.memory;
        let p = self.keys.entry(key.clone()).or_insert(Presence {
            score: 0.0,
            at: now,
            inside: 0,
        });
        p.update(now, memory);
        p
    }

    fn enter(&mut self, key: &K, now: Instant) {
        self.presence(key, now).inside += 1;
    }

    fn leave(&mut self, key: &K, now: Instant) {
        let memory = self.memory;
        if let Some(p) = self.keys.get_mut(key) {
            p.update(now, memory);
            p.inside = p.inside.saturating_sub(1);
        }
        // Forget keys that have been away long enough to count for nothing.
        if self.keys.len() > 4 * (self.waiting_places + 16) {
            let tau = memory.as_secs_f64();
            self.keys
                .retain(|_, p| p.inside > 0 || p.score(now, memory) > tau * 1e-3);
        }
    }

    /// Counts a refused request against `key`.
    fn refused(&mut self, key: &K, now: Instant) {
        let most = self.memory.as_secs_f64();
        let p = self.presence(key, now);
        p.score = (p.score + REFUSED_COUNTS.as_secs_f64()).min(most);
    }

    fn score(&self, key: &K, now: Instant) -> f64 {
        self.keys
            .get(key)
            .map_or(0.0, |p| p.score(now, self.memory))
    }

    /// The waiter to serve next: least present when it came, then first come.
    fn best(&self) -> Option<usize> {
        (0..self.waiting.len()).min_by(|&a, &b| {
            let (wa, wb) = (&self.waiting[a], &self.waiting[b]);
            wa.priority
                .total_cmp(&wb.priority)
                .then(wa.seq.cmp(&wb.seq))
        })
    }

    /// The waiter to push out for a newcomer: most present when it came,
    /// then last come.
    fn worst(&self) -> Option<usize> {
        (0..self.waiting.len()).max_by(|&a, &b| {
            let (wa, wb) = (&self.waiting[a], &self.waiting[b]);
            wa.priority
                .total_cmp(&wb.priority)
                .then(wa.seq.cmp(&wb.seq))
        })
    }
}

fn lock<K: Hash + Eq + Clone>(inner: &Mutex<Inner<K>>) -> MutexGuard<'_, Inner<K>> {
    inner.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<K> FairQueue<K>
where
    K: Hash + Eq + Clone + Send + 'static,
{
    /// `slots` at once, `waiting_places` waiting, `per_key` in at once per
    /// key; presence remembered over `memory`.
    pub fn new(slots: usize, waiting_places: usize, per_key: usize, memory: Duration) -> Self {
        FairQueue {
            inner: Arc::new(Mutex::new(Inner {
                free: slots.max(1),
                waiting_places,
                per_key: per_key.max(1),
                memory: memory.max(Duration::from_millis(1)),
                next: 0,
                waiting: Vec::new(),
                keys: HashMap::new(),
            })),
        }
    }

    /// A slot for `key`: at once when one is free and no one waits,
    /// otherwise after the waiters present less than `key`. A waiter pushed
    /// out by a newcomer gets [`Refusal::Full`]. Dropping the future gives
    /// the place up.
    pub async fn acquire(&self, key: K) -> Result<Slot<K>, Refusal> {
        let now = Instant::now();
        let rx = {
            let mut inner = lock(&self.inner);
            if inner
                .keys
                .get(&key)
                .is_some_and(|p| p.inside >= inner.per_key)
            {
                inner.refused(&key, now);
                return Err(Refusal::KeyBusy);
            }
            if inner.free > 0 && inner.waiting.is_empty() {
                inner.free -= 1;
                inner.enter(&key, now);
                return Ok(Slot {
                    inner: self.inner.clone(),
                    key: Some(key),
                });
            }
            let mine = inner.score(&key, now);
            if inner.waiting.len() >= inner.waiting_places {
                // Only a clearly more present waiter gives way: among keys
                // that ask alike, the first come keeps its place.
                let margin = MARGIN.as_secs_f64();
                let worst = inner
                    .worst()
                    .filter(|&i| inner.waiting[i].priority > mine + margin);
                let Some(worst) = worst else {
                    inner.refused(&key, now);
                    return Err(Refusal::Full);
                };
                // Its sender dropped, the pushed-out waiter wakes refused.
                let out = inner.waiting.swap_remove(worst);
                inner.leave(&out.key, now);
                inner.refused(&out.key, now);
            }
            let (tx, rx) = oneshot::channel();
            let seq = inner.next;
            inner.next += 1;
            inner.enter(&key, now);
            inner.waiting.push(Waiter {
                key: key.clone(),
                priority: mine,
                seq,
                tx,
            });
            Waiting {
                inner: self.inner.clone(),
                seq,
                key,
                rx: Some(rx),
            }
        };
        rx.wait().await
    }
}

/// A place in the queue; dropped while still waiting, it leaves the queue.
struct Waiting<K: Hash + Eq + Clone> {
    inner: Arc<Mutex<Inner<K>>>,
    seq: u64,
    key: K,
    rx: Option<oneshot::Receiver<Slot<K>>>,
}

impl<K: Hash + Eq + Clone> Waiting<K> {
    async fn wait(mut self) -> Result<Slot<K>, Refusal> {
        let rx = self.rx.take().expect("a place waits once");
        let got = rx.await.map_err(|_| Refusal::Full);
        // Granted or pushed out, it is no longer in the queue.
        self.seq = u64::MAX;
        got
    }
}

impl<K: Hash + Eq + Clone> Drop for Waiting<K> {
    fn drop(&mut self) {
        if self.seq == u64::MAX {
            return;
        }
        let mut inner = lock(&self.inner);
        if let Some(i) = inner.waiting.iter().position(|w| w.seq == self.seq) {
            inner.waiting.swap_remove(i);
            inner.leave(&self.key, Instant::now());
        }
        // Otherwise a slot was already sent: dropping the receiver drops the
        // slot, which passes it on.
    }
}

impl<K: Hash + Eq + Clone> Slot<K> {
    /// The waiters whose keys came present no more than this slot's key is
    /// now (within [`MARGIN`]): those it would be fair to share the slot's
    /// time with. Waiters present much more (loops) do not count.
    pub fn rivals(&self) -> usize {
        let Some(key) = &self.key else {
            return 0;
        };
        let inner = lock(&self.inner);
        let mine = inner.score(key, Instant::now());
        let margin = MARGIN.as_secs_f64();
        inner
            .waiting
            .iter()
            .filter(|w| w.priority <= mine + margin)
            .count()
    }
}

impl<K: Hash + Eq + Clone> Drop for Slot<K> {
    fn drop(&mut self) {
        let Some(key) = self.key.take() else {
            return;
        };
        let now = Instant::now();
        let mut inner = lock(&self.inner);
        inner.leave(&key, now);
        while let Some(i) = inner.best() {
            let w = inner.waiting.swap_remove(i);
            let slot = Slot {
                inner: self.inner.clone(),
                key: Some(w.key.clone()),
            };
            match w.tx.send(slot) {
                Ok(()) => return,
                Err(mut unsent) => {
                    // Its waiter is gone: the slot goes to the next one.
                    unsent.key = None;
                    inner.leave(&w.key, now);
                }
            }
        }
        inner.free += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMORY: Duration = Duration::from_secs(30);

    #[tokio::test]
    async fn a_key_has_its_bound_and_the_queue_is_bounded() {
        let q = FairQueue::new(1, 2, 1, MEMORY);
        let a = q.acquire("a").await.unwrap();
        assert_eq!(q.acquire("a").await.err(), Some(Refusal::KeyBusy));
        let b = tokio::spawn({
            let inner = q.inner.clone();
            async move { FairQueue { inner }.acquire("b").await.map(|_| ()) }
        });
        let c = tokio::spawn({
            let inner = q.inner.clone();
            async move { FairQueue { inner }.acquire("c").await.map(|_| ()) }
        });
        tokio::task::yield_now().await;
        while lock(&q.inner).waiting.len() < 2 {
            tokio::task::yield_now().await;
        }
        // Full of keys present as little as "d": no place for it.
        assert_eq!(q.acquire("d").await.err(), Some(Refusal::Full));
        drop(a);
        assert!(b.await.unwrap().is_ok());
        assert!(c.await.unwrap().is_ok());
        assert!(
            q.acquire("a").await.is_ok(),
            "a finished slot is given back"
        );
    }

    #[tokio::test]
    async fn the_key_present_least_goes_first_and_pushes_out_a_loop() {
        let q = Arc::new(FairQueue::new(1, 1, 1, MEMORY));
        // "loop" asks again and again while its search runs.
        let held = q.acquire("loop").await.unwrap();
        for _ in 0..3 {
            assert_eq!(q.acquire("loop").await.err(), Some(Refusal::KeyBusy));
        }
        drop(held);
        let running = q.acquire("other").await.unwrap();
        let looping = tokio::spawn({
            let q = q.clone();
            async move { q.acquire("loop").await.map(|_| ()) }
        });
        while lock(&q.inner).waiting.is_empty() {
            tokio::task::yield_now().await;
        }
        // The queue is full, but the newcomer has been present less.
        let newcomer = tokio::spawn({
            let q = q.clone();
            async move { q.acquire("new").await.map(|_| "new") }
        });
        assert_eq!(looping.await.unwrap().err(), Some(Refusal::Full));
        drop(running);
        assert_eq!(newcomer.await.unwrap(), Ok("new"));
    }

    #[tokio::test]
    async fn rivals_are_the_waiters_present_no_more_than_the_holder() {
        let q = Arc::new(FairQueue::new(1, 4, 1, MEMORY));
        // "loop" has been refused again and again: present far more than anyone.
        let held = q.acquire("loop").await.unwrap();
        for _ in 0..5 {
            assert_eq!(q.acquire("loop").await.err(), Some(Refusal::KeyBusy));
        }
        drop(held);
        let running = q.acquire("new").await.unwrap();
        assert_eq!(running.rivals(), 0, "no one waits");
        let wait = |key: &'static str| {
            let q = q.clone();
            tokio::spawn(async move { q.acquire(key).await.map(|_| ()) })
        };
        let waiters = [wait("loop"), wait("other")];
        while lock(&q.inner).waiting.len() < 2 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            running.rivals(),
            1,
            "the new key waits, the loop does not count"
        );
        drop(running);
        for w in waiters {
            assert!(w.await.unwrap().is_ok());
        }
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_leaves_its_place() {
        let q = FairQueue::new(1, 1, 1, MEMORY);
        let a = q.acquire(1).await.unwrap();
        let gave_up = tokio::time::timeout(Duration::from_millis(20), q.acquire(2)).await;
        assert!(gave_up.is_err());
        assert!(lock(&q.inner).waiting.is_empty());
        drop(a);
        let _c = q.acquire(3).await.expect("the slot was not lost");
        let again = tokio::time::timeout(Duration::from_millis(20), q.acquire(2)).await;
        assert!(again.is_err(), "one slot, held by 3");
    }
}
