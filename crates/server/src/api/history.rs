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
    kept(&app, &player, Read::Continue, |s, p| {
        json(&s.in_progress(p, CONTINUE)?)
    })
    .await
}

/// `GET /api/stats`
pub async fn stats(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Response> {
    kept(&app, &player, Read::Stats, |s, p| {
        json(&crate::stats::per_game(&s.played_games(p)?))
    })
    .await
}

/// `GET /api/stats/games`
pub async fn games(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Response> {
    kept(&app, &player, Read::Games, |s, p| {
        json(&crate::stats::rows(&s.played_games(p)?))
    })
    .await
}

fn json<T: serde::Serialize>(v: &T) -> Result<Bytes, patience_store::StoreError> {
    serde_json::to_vec(v)
        .map(Bytes::from)
        .map_err(|e| patience_store::StoreError::Failed(e.to_string()))
}

/// The kept answer of `read`, or one read now (and kept).
async fn kept(
    app: &AppState,
    player: &Player,
    read: Read,
    work: fn(&patience_store::Store, &str) -> Result<Bytes, patience_store::StoreError>,
) -> ApiResult<Response> {
    let body = match app.kept.get(player.as_str(), read) {
        Some(body) => body,
        None => {
            let began = app.kept.begin();
            let p = player.as_str().to_string();
            let body = app.db.read(move |s| work(s, &p)).await?;
            app.kept.put(player.as_str(), read, began, body.clone());
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
