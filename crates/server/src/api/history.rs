//! The player's games in progress and statistics, kept per player until
//! they change something (see `crate::kept`).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State as AxState;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Extension;

use super::ApiResult;
use crate::kept::Read;
use crate::player::Player;
use crate::AppState;

/// The games in progress listed at most.
const CONTINUE: u32 = 20;

/// `GET /api/continue`
pub async fn in_progress(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Response> {
    kept(&app, &player, Read::Continue).await
}

/// `GET /api/stats`
pub async fn stats(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Response> {
    kept(&app, &player, Read::Stats).await
}

/// `GET /api/stats/games`
pub async fn games(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Response> {
    kept(&app, &player, Read::Games).await
}

fn json<T: serde::Serialize>(v: &T) -> Result<Bytes, patience_store::StoreError> {
    serde_json::to_vec(v)
        .map(Bytes::from)
        .map_err(|e| patience_store::StoreError::Failed(e.to_string()))
}

/// What `read` answers now, from the store.
async fn read_now(
    app: &AppState,
    player: &str,
    read: Read,
) -> Result<Bytes, patience_store::StoreError> {
    match read {
        Read::Continue => json(&app.db.in_progress(player, CONTINUE).await?),
        Read::Stats => json(&crate::stats::per_game(&app.db.played_games(player).await?)),
        Read::Games => json(&crate::stats::rows(&app.db.played_games(player).await?)),
    }
}

/// The kept answer of `read`, or one read now (and kept). A store shared
/// by several servers is read every time: another server may have taken
/// the player's last change.
async fn kept(app: &AppState, player: &Player, read: Read) -> ApiResult<Response> {
    let p = player.as_str();
    let body = match app.kept.get(p, read).filter(|_| !app.db.shared()) {
        Some(body) => body,
        None => {
            let began = app.kept.begin();
            let body = read_now(app, p, read).await?;
            if !app.db.shared() {
                app.kept.put(p, read, began, body.clone());
            }
            body
        }
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Marks the player changed after every `POST` of theirs is answered (the
/// route layer inside `player::identify`).
pub async fn mark_changes(
    AxState(app): AxState<Arc<AppState>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let player = (req.method() == axum::http::Method::POST)
        .then(|| req.extensions().get::<Player>().cloned())
        .flatten();
    let res = next.run(req).await;
    if let Some(p) = player {
        app.kept.changed(p.as_str());
    }
    res
}
