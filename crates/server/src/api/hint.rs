//! Hints: the solver, on a blocking thread with a one-second budget.
//!
//! Searches take a whole core, so they are rationed by [`HintSlots`]: a few
//! run at once, a bounded number wait, and a player has one in flight at a
//! time. The slot and the player's turn are held by the solving thread
//! itself, so a client that hangs up frees nothing early: the search it
//! started still counts until it ends.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State as AxState};
use axum::http::StatusCode;
use axum::{Extension, Json};
use patience_engine::Move;
use patience_solver::{Budget, Hint};
use serde::{Deserialize, Serialize};

use super::{lock_game, ApiResult};
use crate::body::JsonBody;
use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::view;
use crate::AppState;

/// How long the solver may think about a hint.
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// Hints waiting for a slot, per slot, before more are refused.
const QUEUE_PER_SLOT: usize = 4;

/// The hint searches' ration: slots, a bounded queue, one per player.
pub struct HintSlots {
    running: Arc<tokio::sync::Semaphore>,
    /// Hints asked and not finished (running or waiting).
    asked: Arc<Mutex<HashSet<Player>>>,
    capacity: usize,
}

/// A player's turn at a hint, given back when dropped.
struct Turn {
    player: Player,
    asked: Arc<Mutex<HashSet<Player>>>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Ok(mut a) = self.asked.lock() {
            a.remove(&self.player);
        }
    }
}

impl HintSlots {
    pub fn new(slots: usize) -> HintSlots {
        let slots = slots.max(1);
        HintSlots {
            running: Arc::new(tokio::sync::Semaphore::new(slots)),
            asked: Arc::new(Mutex::new(HashSet::new())),
            capacity: slots * (1 + QUEUE_PER_SLOT),
        }
    }

    /// The player's turn, unless they already have one or the queue is full.
    fn turn(&self, player: &Player) -> ApiResult<Turn> {
        let mut asked = self.asked.lock().unwrap_or_else(|p| p.into_inner());
        if asked.contains(player) {
            return Err(
                ApiError::new(Code::HintsBusy, "a hint for you is still being worked out")
                    .with_status(StatusCode::TOO_MANY_REQUESTS)
                    .retry_after(HINT_TIME.as_secs()),
            );
        }
        if asked.len() >= self.capacity {
            return Err(
                ApiError::new(Code::HintsBusy, "the solver is busy; ask again shortly")
                    .retry_after(2 * HINT_TIME.as_secs()),
            );
        }
        asked.insert(player.clone());
        Ok(Turn {
            player: player.clone(),
            asked: self.asked.clone(),
        })
    }
}

#[derive(Serialize)]
pub struct HintAnswer {
    kind: &'static str,
    #[serde(rename = "move")]
    mv: Option<String>,
    from: Option<String>,
    to: Option<String>,
    message: &'static str,
}

#[derive(Deserialize, Default)]
pub struct HintBody {
    /// The table plays automatic moves home: the hint's line is the one it will play.
    #[serde(default)]
    auto: bool,
}

/// `POST /api/play/{uid}/hint`: the move of the line the server keeps for
/// the game when the position lies on it, else the solver with [`HINT_TIME`]
/// on a blocking thread.
pub async fn hint(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<HintBody>,
) -> ApiResult<Json<HintAnswer>> {
    let pos = {
        let mut guard = lock_game(&app, &player, &uid).await?;
        let live = guard.as_mut().ok_or_else(ApiError::no_such_game)?;
        live.game.position().clone()
    };
    if let Some(mv) = app.analysis.planned(&uid, &pos) {
        mark_hinted(&app, &player, &uid).await?;
        return Ok(Json(answer(&pos, Hint::Solution(mv))));
    }
    if app.analysis.known_lost(&uid, &pos) {
        return Ok(Json(answer(&pos, Hint::NoWin)));
    }
    // Every budget of the background solve left it undecided: a second
    // search of a second would not decide it either.
    if let Some(lead) = app.analysis.undecided(&uid, &pos) {
        if let Some(mv) = patience_solver::hint::heuristic::choose(&pos, &lead) {
            mark_hinted(&app, &player, &uid).await?;
            return Ok(Json(answer(&pos, Hint::Heuristic(mv))));
        }
    }
    let mut plan = app.analysis.plan(&uid);
    // Searches are heavy: at most a few at once, a few more wait their turn.
    let turn = app.hints.turn(&player)?;
    let permit = app
        .hints
        .running
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::new(Code::ShuttingDown, "hints are shutting down"))?;
    let budget = Budget {
        time: Some(HINT_TIME),
        ..Default::default()
    };
    let search_pos = pos.clone();
    let (answer, plan) = tokio::task::spawn_blocking(move || {
        let answer = patience_solver::hint_with_plan(&search_pos, &budget, &mut plan);
        drop((permit, turn));
        (answer, plan)
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "the solver failed");
        ApiError::new(Code::Internal, "the solver failed on this position")
    })?;
    if !plan.is_empty() {
        // Keep the line for the next hint and the status line; a game moved on
        // meanwhile is harmless, since a plan only answers for positions on its line.
        app.analysis.keep_plan(&uid, &player, &pos, plan, body.auto);
    }
    if matches!(answer, Hint::Solution(_) | Hint::Heuristic(_)) {
        mark_hinted(&app, &player, &uid).await?;
    }
    Ok(Json(self::answer(&pos, answer)))
}

/// The hint as answered.
fn answer(pos: &patience_engine::Position, answer: Hint) -> HintAnswer {
    let with_move = |kind, mv: Move, message| {
        let l = view::legal(pos, mv);
        HintAnswer {
            kind,
            mv: Some(l.text),
            from: l.from,
            to: l.to,
            message,
        }
    };
    match answer {
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
    }
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
    app.db.mark_hinted(&live.uid).await?;
    live.hinted = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_has_one_turn_and_the_queue_is_bounded() {
        let slots = HintSlots::new(1);
        let alice = Player::new();
        let first = slots.turn(&alice).unwrap();
        let again = slots.turn(&alice).err().unwrap();
        assert_eq!(
            (again.code, again.status),
            (Code::HintsBusy, StatusCode::TOO_MANY_REQUESTS)
        );
        let others: Vec<Turn> = (0..QUEUE_PER_SLOT)
            .map(|_| slots.turn(&Player::new()).unwrap())
            .collect();
        let full = slots.turn(&Player::new()).err().unwrap();
        assert_eq!(
            (full.code, full.status),
            (Code::HintsBusy, StatusCode::SERVICE_UNAVAILABLE)
        );
        assert!(full.retry_after.is_some());
        drop(first);
        assert!(
            slots.turn(&alice).is_ok(),
            "a finished search gives the turn back"
        );
        drop(others);
    }
}
