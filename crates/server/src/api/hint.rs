//! Hints: the solver, on a blocking thread with a budget of a second at most.
//!
//! Searches take a whole core, so they are rationed by [`HintSlots`], a
//! [`FairQueue`] of players: a few run at once, a bounded number wait, a
//! player has one in flight at a time, and a freed slot goes to the player
//! who has been asking least lately, so players who loop cannot keep the
//! others' hints waiting. A search's second is shared with the players
//! waiting who have asked no more than its own (its rivals): with `n` of
//! them it gets [`HINT_TIME`] / (`n` + 1), at least [`SHARED_HINT_TIME`], so
//! the queue moves on quickly when it is long, while players who loop, never
//! anyone's rivals, shorten no one's search but their own. The slot is held by
//! the solving thread itself, so a client that hangs up frees nothing early:
//! the search it started still counts until it ends.

use std::sync::Arc;
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
use crate::fair::{FairQueue, Refusal, Slot};
use crate::player::Player;
use crate::view;
use crate::AppState;

/// How long the solver may think about a hint.
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// The least a search gets when its time is shared with rivals waiting.
pub const SHARED_HINT_TIME: Duration = Duration::from_millis(250);

/// Hints waiting for a slot, per slot, before more are refused.
const QUEUE_PER_SLOT: usize = 4;

/// How long a player's asking is remembered when slots are shared out.
const MEMORY: Duration = Duration::from_secs(30);

/// The hint searches' ration: slots, a bounded fair queue, one per player.
pub struct HintSlots(FairQueue<Player>);

impl HintSlots {
    pub fn new(slots: usize) -> HintSlots {
        let slots = slots.max(1);
        HintSlots(FairQueue::new(slots, slots * QUEUE_PER_SLOT, 1, MEMORY))
    }

    /// A slot for the player's search, after the players who have asked
    /// less lately; refused when they already have one in, or when the
    /// queue is full of players who asked as little.
    async fn slot(&self, player: &Player) -> ApiResult<Slot<Player>> {
        self.0.acquire(player.clone()).await.map_err(|r| match r {
            Refusal::KeyBusy => {
                ApiError::new(Code::HintsBusy, "a hint for you is still being worked out")
                    .with_status(StatusCode::TOO_MANY_REQUESTS)
                    .retry_after(HINT_TIME.as_secs())
            }
            Refusal::Full => {
                ApiError::new(Code::HintsBusy, "the solver is busy; ask again shortly")
                    .retry_after(2 * HINT_TIME.as_secs())
            }
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
    let (pos, passed) = {
        let mut guard = lock_game(&app, &player, &uid).await?;
        let live = guard.as_mut().ok_or_else(ApiError::no_such_game)?;
        (live.game.position().clone(), live.game.positions_passed())
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
        if let Some(mv) = patience_solver::hint::heuristic::choose(&pos, &lead, &passed) {
            mark_hinted(&app, &player, &uid).await?;
            return Ok(Json(answer(&pos, Hint::Heuristic(mv))));
        }
    }
    let mut plan = app.analysis.plan(&uid);
    // Searches are heavy: at most a few at once, a few more wait their turn.
    let slot = app.hints.slot(&player).await?;
    let budget = Budget {
        time: Some(search_time(slot.rivals())),
        ..Default::default()
    };
    let search_pos = pos.clone();
    let (answer, plan) = tokio::task::spawn_blocking(move || {
        let answer = patience_solver::hint_with_plan(&search_pos, &budget, &mut plan, &passed);
        drop(slot);
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

/// A search's time with `rivals` waiting their turn behind it.
fn search_time(rivals: usize) -> Duration {
    let share = u32::try_from(rivals.saturating_add(1)).unwrap_or(u32::MAX);
    (HINT_TIME / share).max(SHARED_HINT_TIME)
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
    fn a_search_shares_its_time_with_its_rivals_down_to_a_floor() {
        assert_eq!(search_time(0), HINT_TIME);
        assert_eq!(search_time(1), Duration::from_millis(500));
        assert_eq!(search_time(3), SHARED_HINT_TIME);
        assert_eq!(search_time(usize::MAX), SHARED_HINT_TIME);
    }

    #[tokio::test]
    async fn a_player_has_one_search_and_the_queue_is_bounded() {
        let slots = Arc::new(HintSlots::new(1));
        let alice = Player::new();
        let first = slots.slot(&alice).await.unwrap();
        let again = slots.slot(&alice).await.err().unwrap();
        assert_eq!(
            (again.code, again.status),
            (Code::HintsBusy, StatusCode::TOO_MANY_REQUESTS)
        );
        let waiting: Vec<_> = (0..QUEUE_PER_SLOT)
            .map(|_| {
                let slots = slots.clone();
                tokio::spawn(async move { slots.slot(&Player::new()).await.map(|_| ()) })
            })
            .collect();
        let full = loop {
            tokio::task::yield_now().await;
            match tokio::time::timeout(Duration::from_millis(10), slots.slot(&Player::new())).await
            {
                Ok(Err(e)) => break e,
                _ => continue,
            }
        };
        assert_eq!(
            (full.code, full.status),
            (Code::HintsBusy, StatusCode::SERVICE_UNAVAILABLE)
        );
        assert!(full.retry_after.is_some());
        drop(first);
        for w in waiting {
            assert!(w.await.unwrap().is_ok(), "the waiters are served in turn");
        }
        assert!(
            slots.slot(&alice).await.is_ok(),
            "a finished search gives the slot back"
        );
    }
}
