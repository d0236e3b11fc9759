//! `GET /api/play/{uid}/analysis`: what the background solver knows of the
//! game's position (see `crate::analysis`), asked for by the page after
//! every change while its status line is on.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State as AxState};
use axum::{Extension, Json};
use serde::Deserialize;

use super::{lock_game, ApiResult};
use crate::analysis::{Answer, Job};
use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::AppState;

/// The longest a request with `seen` waits for news.
pub const WAIT: Duration = Duration::from_secs(8);

#[derive(Deserialize)]
pub struct AnalysisQuery {
    /// The table plays automatic moves home: the kept line is rewritten for them.
    #[serde(default)]
    auto: bool,
    /// The `seq` of the answer the page holds: wait for a newer one.
    seen: Option<u64>,
}

/// `GET /api/play/{uid}/analysis?auto=true&seen=N`
pub async fn analysis(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> ApiResult<Json<Answer>> {
    let Query(query) = query.map_err(|e| ApiError::new(Code::BadRequest, e.body_text()))?;
    let job = {
        let guard = lock_game(&app, &player, &uid).await?;
        let live = guard.as_ref().ok_or_else(ApiError::no_such_game)?;
        let pos = live.game.position();
        Job {
            uid: uid.clone(),
            player: player.clone(),
            version: live.version,
            spec: pos.spec(),
            deal: pos.deal_number(),
            moves: live.game.moves(),
            click_starts: live.click_starts(),
            auto: query.auto,
        }
    };
    let version = job.version;
    let (mut answer, mut rx) = app.analysis.ask(job);
    if let Some(seen) = query.seen {
        if answer.seq <= seen && !answer.done {
            let _ = tokio::time::timeout(WAIT, rx.wait_for(|s| *s > seen)).await;
            if let Some(a) = app.analysis.answer(&uid) {
                if a.version == version {
                    answer = a;
                }
            }
        }
    }
    Ok(Json(answer))
}
