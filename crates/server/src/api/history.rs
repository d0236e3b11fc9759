//! The player's games in progress and statistics.

use std::sync::Arc;

use axum::extract::State as AxState;
use axum::Extension;
use axum::Json;

use super::ApiResult;
use crate::player::Player;
use crate::AppState;

/// `GET /api/continue`
pub async fn in_progress(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Vec<patience_store::InProgress>>> {
    let p = player.as_str().to_string();
    Ok(Json(app.db.in_progress(&p, 20).await?))
}

/// `GET /api/stats`
pub async fn stats(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Vec<crate::stats::GameStats>>> {
    let p = player.as_str().to_string();
    let history = app.db.played_games(&p).await?;
    Ok(Json(crate::stats::per_game(&history)))
}
