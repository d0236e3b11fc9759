//! Rate limits, each a token bucket per key that refills steadily and holds
//! a burst, so a client may make several requests in a row but not a flood.
//!
//! - New games, per player and per client address: a game is a row kept for
//!   good, so one client must not be able to make thousands a second. Past
//!   a minute's allowance (the burst) the request gets 429 and `Retry-After`
//!   at once.
//! - Reads, per client address: every `GET` (and `HEAD`) under `/api/` —
//!   the catalogue, a game's state, games in progress, statistics, and any
//!   read endpoint added later, since the rule goes by the request's class,
//!   not its route — so a few loops reading cannot take the CPU from the
//!   players' moves. Past the allowance an answer is held back until the
//!   address's bucket has refilled for it; a refusal would not slow a loop
//!   that ignores it, waiting does. Past [`READ_HOLD`] of waiting the read
//!   gets 429 (after that wait). Changes (`POST`) are not rationed here:
//!   each has its own bound (new games above, hints by their queue, moves
//!   by the player's game).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::AppState;

/// New games a player may start in a minute.
pub const GAMES_PER_PLAYER_MINUTE: u32 = 60;
/// New games one client address may start in a minute (many players may share one).
pub const GAMES_PER_ADDRESS_MINUTE: u32 = 600;

/// Reads one client address may make in a minute before its answers are
/// held back (a page load makes a few; many players may share an address).
pub const READS_PER_ADDRESS_MINUTE: u32 = 600;
/// Reads an address may make at once, before the steady rate applies.
pub const READS_BURST: u32 = 120;
/// The longest a read is held back.
pub const READ_HOLD: Duration = Duration::from_secs(5);

/// Buckets kept before the full ones (keys idle for a minute) are dropped.
const KEPT_BUCKETS: usize = 50_000;

/// A token bucket per key.
pub struct RateLimit<K> {
    per_minute: f64,
    /// What the bucket holds when full.
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

impl<K: Hash + Eq + Clone> RateLimit<K> {
    /// `n` a minute, in a burst of up to `n`.
    pub fn per_minute(n: u32) -> RateLimit<K> {
        RateLimit::with_burst(n, n)
    }

    /// `n` a minute, in a burst of up to `burst`.
    pub fn with_burst(n: u32, burst: u32) -> RateLimit<K> {
        RateLimit {
            per_minute: f64::from(n.max(1)),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`, or says how long until one is there.
    pub fn take(&self, key: &K, now: Instant) -> Result<(), Duration> {
        self.reserve(key, now, Duration::ZERO).map(|_| ())
    }

    /// Takes one token for `key`, borrowing it ahead of the refill when the
    /// bucket is empty: `Ok` says how long until the token is really there
    /// (the caller waits that long), `Err` how long it would be when that is
    /// past `most` (nothing is taken then).
    pub fn reserve(&self, key: &K, now: Instant, most: Duration) -> Result<Duration, Duration> {
        let rate = self.per_minute / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= KEPT_BUCKETS {
            let full = self.burst;
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < full);
        }
        let b = buckets.entry(key.clone()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * rate).min(self.burst);
        b.at = now;
        let wait = Duration::from_secs_f64((1.0 - b.tokens).max(0.0) / rate);
        if wait > most {
            return Err(wait);
        }
        b.tokens -= 1.0;
        Ok(wait)
    }
}

/// The limits a server applies.
pub struct Limits {
    pub games_by_player: RateLimit<Player>,
    pub games_by_address: RateLimit<IpAddr>,
    pub reads_by_address: RateLimit<IpAddr>,
    /// Take the client address from `X-Forwarded-For` (set by the proxy in front).
    pub forwarded: bool,
}

impl Limits {
    pub fn new(per_player: u32, per_address: u32, forwarded: bool) -> Limits {
        Limits {
            games_by_player: RateLimit::per_minute(per_player),
            games_by_address: RateLimit::per_minute(per_address),
            reads_by_address: RateLimit::with_burst(READS_PER_ADDRESS_MINUTE, READS_BURST),
            forwarded,
        }
    }
}

/// The client's address: the peer, or behind a proxy the last address it forwarded.
fn client_address(req: &Request, forwarded: bool) -> Option<IpAddr> {
    if forwarded {
        let last = req
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .next_back();
        if last.is_some() {
            return last;
        }
    }
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// Middleware for the new-game route: 429 past either limit.
pub async fn new_games(State(app): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let now = Instant::now();
    let limits = &app.limits;
    let address = client_address(&req, limits.forwarded);
    let player = req.extensions().get::<Player>().cloned();
    let refused = address
        .map(|a| limits.games_by_address.take(&a, now))
        .unwrap_or(Ok(()))
        .and_then(|()| {
            player
                .map(|p| limits.games_by_player.take(&p, now))
                .unwrap_or(Ok(()))
        });
    if let Err(wait) = refused {
        return ApiError::new(
            Code::RateLimited,
            "too many new games in a minute; try again shortly",
        )
        .retry_after(wait.as_secs() + 1)
        .into_response();
    }
    next.run(req).await
}

/// Whether a request is a read of the API, rationed by [`reads`].
fn is_api_read(req: &Request) -> bool {
    matches!(*req.method(), Method::GET | Method::HEAD)
        && (req.uri().path() == "/api" || req.uri().path().starts_with("/api/"))
}

/// Middleware for the whole router: an API read past the address's
/// allowance waits its turn, and past [`READ_HOLD`] it is 429.
pub async fn reads(State(app): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let limits = &app.limits;
    let address = is_api_read(&req)
        .then(|| client_address(&req, limits.forwarded))
        .flatten();
    if let Some(address) = address {
        match limits
            .reads_by_address
            .reserve(&address, Instant::now(), READ_HOLD)
        {
            Ok(wait) if wait.is_zero() => {}
            Ok(wait) => tokio::time::sleep(wait).await,
            Err(wait) => {
                tokio::time::sleep(READ_HOLD).await;
                return ApiError::new(
                    Code::RateLimited,
                    "too many reads from this address; try again shortly",
                )
                .retry_after((wait - READ_HOLD).as_secs() + 1)
                .into_response();
            }
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_a_minutes_burst_then_refills_steadily() {
        let limit = RateLimit::per_minute(60);
        let t0 = Instant::now();
        for _ in 0..60 {
            assert!(limit.take(&"a", t0).is_ok());
        }
        let wait = limit.take(&"a", t0).unwrap_err();
        assert!(
            wait <= Duration::from_secs(1) && wait > Duration::ZERO,
            "{wait:?}"
        );
        assert!(limit.take(&"b", t0).is_ok(), "keys are apart");
        assert!(limit.take(&"a", t0 + Duration::from_millis(1100)).is_ok());
        assert!(limit.take(&"a", t0 + Duration::from_millis(1100)).is_err());
    }

    #[test]
    fn a_reservation_waits_for_its_token_up_to_the_most() {
        let limit = RateLimit::with_burst(60, 60);
        let t0 = Instant::now();
        let most = Duration::from_secs(3);
        for _ in 0..60 {
            assert_eq!(limit.reserve(&"a", t0, most), Ok(Duration::ZERO));
        }
        // One a second once the burst is spent, each after the one before.
        let waits: Vec<u64> = (0..3)
            .map(|_| limit.reserve(&"a", t0, most).unwrap().as_millis() as u64)
            .collect();
        assert_eq!(waits, [1000, 2000, 3000]);
        let past = limit.reserve(&"a", t0, most).unwrap_err();
        assert_eq!(past.as_millis(), 4000);
        // The refused one took nothing: a second later the next wait is 3 s.
        let later = t0 + Duration::from_secs(1);
        assert_eq!(limit.reserve(&"a", later, most).unwrap().as_millis(), 3000);
    }

    #[test]
    fn a_burst_can_be_smaller_than_a_minutes_allowance() {
        let limit = RateLimit::with_burst(600, 5);
        let t0 = Instant::now();
        for _ in 0..5 {
            assert!(limit.take(&"a", t0).is_ok());
        }
        assert!(limit.take(&"a", t0).is_err());
        // Ten a second refill, but never past the burst.
        let later = t0 + Duration::from_secs(60);
        let taken = (0..10).filter(|_| limit.take(&"a", later).is_ok()).count();
        assert_eq!(taken, 5);
    }
}
