//! Hints: the solver, on a blocking thread with a one-second budget.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State as AxState};
use axum::{Extension, Json};
use patience_engine::Move;
use patience_solver::{Budget, Hint};
use serde::Serialize;

use super::{lock_game, ApiResult};
use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::view;
use crate::AppState;

/// How long the solver may think about a hint.
pub const HINT_TIME: Duration = Duration::from_secs(1);

#[derive(Serialize)]
pub struct HintAnswer {
    kind: &'static str,
    #[serde(rename = "move")]
    mv: Option<String>,
    from: Option<String>,
    to: Option<String>,
    message: &'static str,
}

/// `POST /api/play/{uid}/hint`: the solver gets [`HINT_TIME`] on a blocking thread.
pub async fn hint(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
) -> ApiResult<Json<HintAnswer>> {
    let (pos, mut plan) = {
        let mut guard = lock_game(&app, &player, &uid).await?;
        let live = guard.as_mut().ok_or_else(ApiError::no_such_game)?;
        (live.game.position().clone(), live.hint_plan.clone())
    };
    // Searches are heavy: at most a few at once, others wait their turn.
    let _permit = app
        .hints
        .acquire()
        .await
        .map_err(|_| ApiError::new(Code::ShuttingDown, "hints are shutting down"))?;
    let budget = Budget {
        time: Some(HINT_TIME),
        ..Default::default()
    };
    let search_pos = pos.clone();
    let (answer, plan) = tokio::task::spawn_blocking(move || {
        let answer = patience_solver::hint_with_plan(&search_pos, &budget, &mut plan);
        (answer, plan)
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "the solver failed");
        ApiError::new(Code::Internal, "the solver failed on this position")
    })?;
    if !plan.is_empty() {
        // Keep the line for the next hint; a game moved on meanwhile is harmless,
        // since a plan only answers for positions on its line.
        if let Ok(mut guard) = lock_game(&app, &player, &uid).await {
            if let Some(live) = guard.as_mut() {
                live.hint_plan = plan;
            }
        }
    }
    if matches!(answer, Hint::Solution(_) | Hint::Heuristic(_)) {
        mark_hinted(&app, &player, &uid).await?;
    }
    let with_move = |kind, mv: Move, message| {
        let l = view::legal(&pos, mv);
        HintAnswer {
            kind,
            mv: Some(l.text),
            from: l.from,
            to: l.to,
            message,
        }
    };
    Ok(Json(match answer {
        Hint::Solution(mv) => with_move("solution", mv, "This move leads to a win."),
        Hint::Heuristic(mv) => with_move(
            "heuristic",
            mv,
            "The solver ran out of time: this move looks best, but a win is not proven.",
        ),
        Hint::NoWin => HintAnswer {
            kind: "no-win",
            mv: None,
            from: None,
            to: None,
            message: "No win is possible from here: undo a few moves.",
        },
        Hint::None => HintAnswer {
            kind: "none",
            mv: None,
            from: None,
            to: None,
            message: if pos.is_won() {
                "The game is won."
            } else {
                "No move is left."
            },
        },
    }))
}

/// Records on the game that a hint was served (its win then counts as one
/// with hints), before the hint is answered.
async fn mark_hinted(app: &AppState, player: &Player, uid: &str) -> ApiResult<()> {
    let mut guard = lock_game(app, player, uid).await?;
    let Some(live) = guard.as_mut() else {
        return Ok(());
    };
    if live.hinted || live.game.position().is_won() {
        return Ok(());
    }
    app.db.mark_hinted(live.uid.clone()).await?;
    live.hinted = true;
    Ok(())
}
