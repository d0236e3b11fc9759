//! The JSON API of docs/api.md, one module a concern: `catalogue` (games and
//! rules), `play` (new games, moves, undo, redo), `hint` (the solver), `history`
//! (continue and statistics), `daily` (the deal of the day), `records` (a
//! deal's records and the player's display name), `figures` (how often each
//! game comes out). Handlers parse, call the engine, commit to the
//! store, and answer; no rule is written here.

pub mod analysis;
pub mod catalogue;
pub mod daily;
pub mod figures;
pub mod hint;
pub mod history;
pub mod play;
pub mod records;

use std::time::{SystemTime, UNIX_EPOCH};

use patience_engine::GameSpec;
use patience_store::GameStamp;
use tokio::sync::OwnedMutexGuard;

use crate::error::{ApiError, Code};
use crate::live::{LiveGame, Slot};
use crate::player::{is_hex128, Player};
use crate::view::{self, Meta};
use crate::AppState;

type ApiResult<T> = Result<T, ApiError>;

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(crate) fn spec_of(id: &str) -> ApiResult<&'static GameSpec> {
    patience_engine::game(id)
        .ok_or_else(|| ApiError::new(Code::UnknownGame, format!("no game `{}`", short(id))))
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The state as answered: what the page draws, and the game's version, which
/// the page sends back as `expect` with its next change.
#[derive(serde::Serialize)]
pub struct Shown {
    #[serde(flatten)]
    pub state: view::State,
    pub version: u64,
    /// A hint was shown in this game before it was won (the store's record).
    pub hinted: bool,
}

pub(crate) fn state_of(live: &LiveGame) -> Shown {
    Shown {
        state: view::state(
            &live.game,
            &Meta {
                uid: &live.uid,
                level: live.level,
                grade: live.grade.as_ref(),
                elapsed_ms: live.elapsed_ms,
                clicks: Some(live.clicks()),
            },
        ),
        version: live.version,
        hinted: live.hinted,
    }
}

/// Locks a game's slot, loading it from the store if needed; another player's
/// game is reported exactly like a missing one. On a store other servers
/// share, the copy in memory is used only while its stamp (version and
/// hint mark) is the database's: one changed elsewhere is loaded again.
pub(crate) async fn lock_game(
    app: &AppState,
    player: &Player,
    uid: &str,
) -> ApiResult<OwnedMutexGuard<Option<LiveGame>>> {
    let missing = ApiError::no_such_game;
    if !is_hex128(uid) {
        return Err(missing());
    }
    let slot: Slot = app.cache.slot(uid);
    let mut guard = slot.lock_owned().await;
    if let Some(live) = guard.as_ref() {
        let stamp = GameStamp {
            version: live.version,
            hinted: live.hinted,
        };
        if app.db.shared() && app.db.game_stamp(uid).await? != Some(stamp) {
            *guard = None;
        }
    }
    if guard.is_none() {
        *guard = Some(load_live(app, player, uid).await?.ok_or_else(missing)?);
    }
    match guard.as_ref() {
        Some(live) if live.player == player.as_str() => Ok(guard),
        _ => Err(missing()),
    }
}

/// The player's game as the store holds it, replayed; `None` when there is
/// no such game or it is another player's.
pub(crate) async fn load_live(
    app: &AppState,
    player: &Player,
    uid: &str,
) -> ApiResult<Option<LiveGame>> {
    let Some(row) = app.db.load_game(uid).await? else {
        return Ok(None);
    };
    if row.player != player.as_str() {
        return Ok(None);
    }
    let mut live = LiveGame::load(&row)?;
    live.grade = play::grade_of(app, live.game.position().spec().id, row.deal).await?;
    Ok(Some(live))
}

/// Any other `/api/...` path.
pub async fn no_such_endpoint() -> ApiError {
    ApiError::new(Code::NoEndpoint, "no such API endpoint")
}
