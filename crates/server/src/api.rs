//! The JSON API of docs/api.md. Handlers parse, call the engine, commit to the
//! store, and answer; no rule is written here.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{Path, State as AxState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use patience_engine::{Game, GameSpec, Move, MAX_DEAL};
use patience_solver::{Budget, Hint};
use rand::Rng;
use serde::{Deserialize, Serialize};
use tokio::sync::OwnedMutexGuard;

use crate::body::JsonBody;
use crate::error::ApiError;
use crate::live::{LiveGame, Slot};
use crate::player::{is_hex128, random_hex128, Player};
use crate::store::{GameUpdate, Level, MovesChange, StoredGame};
use crate::view::{self, Meta};
use crate::AppState;

/// Random deals ("Any") are drawn from this range, so that shared deal numbers stay short.
pub const RANDOM_DEALS: u64 = 1_000_000;

/// How long the solver may think about a hint.
pub const HINT_TIME: Duration = Duration::from_secs(1);

type ApiResult<T> = Result<T, ApiError>;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn spec_of(id: &str) -> ApiResult<&'static GameSpec> {
    patience_engine::game(id).ok_or_else(|| ApiError::not_found(format!("no game `{}`", short(id))))
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

fn state_of(live: &LiveGame) -> view::State {
    view::state(
        &live.game,
        &Meta {
            uid: &live.uid,
            level: &live.level,
            elapsed_ms: live.elapsed_ms,
        },
    )
}

// ---- catalogue ----

#[derive(Serialize)]
pub struct GameEntry {
    id: &'static str,
    name_en: &'static str,
    name_ru: &'static str,
    about: &'static str,
    layout: &'static str,
    redeals: u8,
    decks: u8,
    levels: Vec<String>,
}

/// `GET /api/games`
pub async fn games(AxState(app): AxState<Arc<AppState>>) -> ApiResult<Json<Vec<GameEntry>>> {
    let counts = app
        .db
        .read(|s| {
            patience_engine::games()
                .iter()
                .map(|g| s.level_counts(g.id))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    let list = patience_engine::games()
        .iter()
        .zip(counts)
        .map(|(g, counts)| {
            let mut levels = vec!["any".to_string()];
            levels.extend(
                counts
                    .into_iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(level, _)| level),
            );
            GameEntry {
                id: g.id,
                name_en: g.name_en,
                name_ru: g.name_ru,
                about: g.about,
                layout: view::layout_name(g.layout),
                redeals: g.redeals.count,
                decks: g.decks,
                levels,
            }
        })
        .collect();
    Ok(Json(list))
}

#[derive(Serialize)]
pub struct Rules {
    id: &'static str,
    markdown: &'static str,
}

/// `GET /api/games/{game}/rules`
pub async fn rules(Path(game): Path<String>) -> ApiResult<Json<Rules>> {
    let spec = spec_of(&game)?;
    let markdown = crate::rules::section(spec.id).ok_or_else(|| {
        ApiError::not_found(format!("the rule book has no section for {}", spec.id))
    })?;
    Ok(Json(Rules {
        id: spec.id,
        markdown,
    }))
}

// ---- playing ----

#[derive(Deserialize)]
pub struct NewGame {
    deal: Option<u64>,
    level: Option<String>,
}

/// `POST /api/games/{game}/new`
pub async fn new_game(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(game): Path<String>,
    JsonBody(body): JsonBody<NewGame>,
) -> ApiResult<Response> {
    let spec = spec_of(&game)?;
    let level = body.level.as_deref().unwrap_or("any");
    let deal = match (body.deal, level) {
        (Some(d), _) => {
            if !(1..=MAX_DEAL).contains(&d) {
                return Err(ApiError::bad_request(format!(
                    "deal {d} is out of range (1 to {MAX_DEAL})"
                )));
            }
            d
        }
        (None, "any") => rand::thread_rng().gen_range(1..=RANDOM_DEALS),
        (None, name) => {
            let level = Level::parse(name).map_err(|e| ApiError::bad_request(e.to_string()))?;
            let id = spec.id;
            app.db
                .read(move |s| s.random_graded_deal(id, level.as_str()))
                .await?
                .ok_or_else(|| {
                    ApiError::not_found(format!(
                        "no {} deals of {} are graded yet; try another level",
                        level.as_str(),
                        spec.name_en
                    ))
                })?
        }
    };
    let level = if body.deal.is_some() { "any" } else { level };
    let g = Game::new(spec, deal).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let uid = random_hex128();
    let now = now_ms();
    app.db
        .insert(StoredGame {
            uid: uid.clone(),
            player: player.as_str().to_string(),
            game: spec.id.to_string(),
            deal,
            level: level.to_string(),
            moves: String::new(),
            redo: String::new(),
            move_count: 0,
            created_ms: now,
            updated_ms: now,
            finished: false,
            elapsed_ms: 0,
        })
        .await?;
    let live = LiveGame::new(uid, player.as_str().to_string(), g, level.to_string());
    let state = state_of(&live);
    app.cache.insert(live);
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

/// Locks a game's slot, loading it from the store if needed; another player's
/// game is reported exactly like a missing one.
async fn lock_game(
    app: &AppState,
    player: &Player,
    uid: &str,
) -> ApiResult<OwnedMutexGuard<Option<LiveGame>>> {
    let missing = || ApiError::not_found("no such game");
    if !is_hex128(uid) {
        return Err(missing());
    }
    let slot: Slot = app.cache.slot(uid);
    let mut guard = slot.lock_owned().await;
    if guard.is_none() {
        let key = uid.to_string();
        let row = app.db.read(move |s| s.load_game(&key)).await?;
        let Some(row) = row else {
            return Err(missing());
        };
        if row.player != player.as_str() {
            return Err(missing());
        }
        *guard = Some(LiveGame::load(&row)?);
    }
    match guard.as_ref() {
        Some(live) if live.player == player.as_str() => Ok(guard),
        _ => Err(missing()),
    }
}

/// `GET /api/play/{uid}`
pub async fn get_game(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
) -> ApiResult<Json<view::State>> {
    let mut guard = lock_game(&app, &player, &uid).await?;
    let live = guard
        .as_mut()
        .ok_or_else(|| ApiError::not_found("no such game"))?;
    live.touch();
    Ok(Json(state_of(live)))
}

#[derive(Deserialize)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    expect: u64,
}

#[derive(Deserialize)]
pub struct ExpectBody {
    expect: u64,
}

/// What a mutating request does to the game.
enum Action {
    Play(String),
    Undo,
    Redo,
}

/// `POST /api/play/{uid}/move`
pub async fn play(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<MoveBody>,
) -> ApiResult<Json<view::State>> {
    mutate(&app, &player, &uid, body.expect, Action::Play(body.mv)).await
}

/// `POST /api/play/{uid}/undo`
pub async fn undo(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<ExpectBody>,
) -> ApiResult<Json<view::State>> {
    mutate(&app, &player, &uid, body.expect, Action::Undo).await
}

/// `POST /api/play/{uid}/redo`
pub async fn redo(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<ExpectBody>,
) -> ApiResult<Json<view::State>> {
    mutate(&app, &player, &uid, body.expect, Action::Redo).await
}

/// The one path every change takes: lock, check the count, change the game
/// through the engine, commit, answer. If the commit fails the in-memory game
/// is dropped, so the next request reloads what the store really holds.
async fn mutate(
    app: &AppState,
    player: &Player,
    uid: &str,
    expect: u64,
    action: Action,
) -> ApiResult<Json<view::State>> {
    let mut guard = lock_game(app, player, uid).await?;
    let live = guard
        .as_mut()
        .ok_or_else(|| ApiError::not_found("no such game"))?;
    let count = live.game.moves().len() as u64;
    if count != expect {
        return Err(ApiError::stale(expect, state_of(live)));
    }
    if live.finished {
        return Err(ApiError::unprocessable("the game is won; start a new one"));
    }
    let moves = match action {
        Action::Play(text) => {
            let layout = *live.game.position().layout();
            let mv =
                Move::parse(&text, &layout).map_err(|e| ApiError::bad_request(e.to_string()))?;
            live.game.play(mv).map_err(|e| {
                ApiError::unprocessable(format!("illegal move {}: {e}", mv.text(&layout)))
            })?;
            MovesChange::Append(mv.text(&layout))
        }
        Action::Undo => {
            if !live.game.undo() {
                return Err(ApiError::unprocessable("there is nothing to undo"));
            }
            MovesChange::Replace(live.moves_text())
        }
        Action::Redo => {
            let Some(&next) = live.game.redo_moves().first() else {
                return Err(ApiError::unprocessable("there is nothing to redo"));
            };
            if !live.game.redo() {
                return Err(ApiError::unprocessable(
                    "the move to redo is not legal here",
                ));
            }
            MovesChange::Append(next.text(live.game.position().layout()))
        }
    };
    live.touch();
    let won = live.game.position().is_won();
    let update = GameUpdate {
        uid: live.uid.clone(),
        moves,
        redo: live.redo_text(),
        move_count: live.game.moves().len() as u64,
        updated_ms: now_ms(),
        elapsed_ms: live.elapsed_ms,
        won,
    };
    match app.db.update(update).await {
        Ok(true) => {
            live.finished = won;
            Ok(Json(state_of(live)))
        }
        Ok(false) => {
            *guard = None;
            Err(ApiError::not_found("no such game"))
        }
        Err(e) => {
            *guard = None;
            Err(e.into())
        }
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

/// `POST /api/play/{uid}/hint`: the solver gets [`HINT_TIME`] on a blocking thread.
pub async fn hint(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
) -> ApiResult<Json<HintAnswer>> {
    let pos = {
        let mut guard = lock_game(&app, &player, &uid).await?;
        let live = guard
            .as_mut()
            .ok_or_else(|| ApiError::not_found("no such game"))?;
        live.game.position().clone()
    };
    // Searches are heavy: at most a few at once, others wait their turn.
    let _permit =
        app.hints.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "hints are shutting down")
        })?;
    let budget = Budget {
        time: Some(HINT_TIME),
        ..Default::default()
    };
    let search_pos = pos.clone();
    let answer = tokio::task::spawn_blocking(move || patience_solver::hint(&search_pos, &budget))
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "the solver failed");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the solver failed on this position",
            )
        })?;
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

/// `GET /api/continue`
pub async fn in_progress(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Vec<crate::store::InProgress>>> {
    let p = player.as_str().to_string();
    Ok(Json(app.db.read(move |s| s.in_progress(&p, 20)).await?))
}

/// `GET /api/stats`
pub async fn stats(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Vec<crate::stats::GameStats>>> {
    let p = player.as_str().to_string();
    let history = app.db.read(move |s| s.played_games(&p)).await?;
    Ok(Json(crate::stats::per_game(&history)))
}

/// Any other `/api/...` path.
pub async fn no_such_endpoint() -> ApiError {
    ApiError::not_found("no such API endpoint")
}
