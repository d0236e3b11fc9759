//! Playing: new games, restarts, the state, moves (with the automatic moves
//! home that follow them), undo, redo and finishing. Every change goes
//! through `mutate`: lock the game, check the move count, change it through
//! the engine, commit, answer.
//!
//! A won game stays open: undo and redo work after a win as before it (undo
//! has no limits), and so does any move the engine allows there. The store
//! keeps the first win, so winning the same game again counts nothing new.

use std::sync::Arc;

use axum::extract::{Path, State as AxState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use patience_engine::{Game, GameSpec, Move, MAX_DEAL};
use rand::Rng;
use serde::Deserialize;

use super::{load_live, lock_game, now_ms, spec_of, state_of, ApiResult, Shown};
use crate::autoplay;
use crate::body::JsonBody;
use crate::error::{ApiError, Code};
use crate::live::{self, LiveGame};
use crate::player::{random_hex128, Player};
use crate::view;
use crate::AppState;
use patience_store::{
    AskedLevel, DealGrade, GameUpdate, Level, MovesChange, StoredGame, MAX_MOVES,
};

/// Random deals ("Any") are drawn from this range, so that shared deal numbers stay short.
pub const RANDOM_DEALS: u64 = 1_000_000;

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
    // A deal asked for by number is `any`, whatever level came with it.
    let asked = match (body.deal, body.level.as_deref().unwrap_or("any")) {
        (None, name) if name != "any" => AskedLevel::Level(offered_level(name)?),
        _ => AskedLevel::Any,
    };
    let deal = match (body.deal, asked) {
        (Some(d), _) => {
            if !(1..=MAX_DEAL).contains(&d) {
                return Err(ApiError::new(
                    Code::BadDeal,
                    format!("deal {d} is out of range (1 to {MAX_DEAL})"),
                ));
            }
            d
        }
        (None, AskedLevel::Any) => rand::thread_rng().gen_range(1..=RANDOM_DEALS),
        (None, AskedLevel::Level(level)) => {
            let id = spec.id;
            app.db.random_graded_deal(id, level).await?.ok_or_else(|| {
                ApiError::new(
                    Code::NoDeals,
                    format!(
                        "no {} deals of {} are graded yet; try another level",
                        level.as_str(),
                        spec.name_en
                    ),
                )
            })?
        }
    };
    let state = start(&app, &player, spec, deal, asked).await?;
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

/// `POST /api/play/{uid}/restart`: the same deal at the same level as a
/// fresh game; the old game stays as it is, in the history.
pub async fn restart(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
) -> ApiResult<Response> {
    let (spec, deal, level) = {
        let guard = lock_game(&app, &player, &uid).await?;
        let live = guard.as_ref().ok_or_else(ApiError::no_such_game)?;
        let pos = live.game.position();
        (pos.spec(), pos.deal_number(), live.level)
    };
    let state = start(&app, &player, spec, deal, level).await?;
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

/// Stores a new game of `deal` for `player` and puts it in memory.
async fn start(
    app: &AppState,
    player: &Player,
    spec: &'static GameSpec,
    deal: u64,
    level: AskedLevel,
) -> ApiResult<Shown> {
    let g = Game::new(spec, deal).map_err(|e| ApiError::new(Code::BadDeal, e.to_string()))?;
    let grade = grade_of(app, spec.id, deal).await?;
    let uid = random_hex128();
    let now = now_ms();
    app.db
        .insert_game(StoredGame {
            uid: uid.clone(),
            player: player.as_str().to_string(),
            game: spec.id.to_string(),
            deal,
            level,
            moves: String::new(),
            redo: String::new(),
            move_count: 0,
            created_ms: now,
            updated_ms: now,
            finished: false,
            elapsed_ms: 0,
            version: 0,
            hinted: false,
        })
        .await?;
    let mut live = LiveGame::new(uid, player.as_str().to_string(), g, level);
    live.grade = grade;
    let state = state_of(&live);
    app.cache.insert(live);
    Ok(state)
}

/// The deal's grade in the graded library, if it has one.
pub(crate) async fn grade_of(
    app: &AppState,
    game: &'static str,
    deal: u64,
) -> ApiResult<Option<DealGrade>> {
    Ok(app.db.grade(game, deal).await?)
}

/// The level a new game may be asked for: `unwinnable` and `unknown` are
/// graded but never offered, so they are refused like any unknown word.
fn offered_level(name: &str) -> ApiResult<Level> {
    match Level::parse(name) {
        Some(l @ (Level::Easy | Level::Medium | Level::Hard)) => Ok(l),
        _ => Err(ApiError::new(
            Code::BadLevel,
            format!(
                "unknown level `{}` (expected any, easy, medium or hard)",
                name.chars().take(40).collect::<String>()
            ),
        )),
    }
}

/// `GET /api/play/{uid}`
pub async fn get_game(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
) -> ApiResult<Json<Shown>> {
    let mut guard = lock_game(&app, &player, &uid).await?;
    let live = guard.as_mut().ok_or_else(ApiError::no_such_game)?;
    live.touch();
    Ok(Json(state_of(live)))
}

#[derive(Deserialize)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    expect: u64,
    /// After the move, send home every card no other card can ever still
    /// need, each as a move of its own.
    #[serde(default)]
    auto: bool,
}

#[derive(Deserialize)]
pub struct ExpectBody {
    expect: u64,
}

#[derive(Deserialize)]
pub struct UndoBody {
    expect: u64,
    /// Undo clicks until this many are left (the lost-at "go back"); one click without it.
    to: Option<usize>,
}

/// What a mutating request does to the game.
enum Action {
    Play { text: String, auto: bool },
    Undo { to: Option<usize> },
    Redo,
    Finish,
}

/// `POST /api/play/{uid}/move`
pub async fn play(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<MoveBody>,
) -> ApiResult<Json<Shown>> {
    let action = Action::Play {
        text: body.mv,
        auto: body.auto,
    };
    detached(app, player, uid, body.expect, action).await
}

/// `POST /api/play/{uid}/undo`
pub async fn undo(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<UndoBody>,
) -> ApiResult<Json<Shown>> {
    detached(app, player, uid, body.expect, Action::Undo { to: body.to }).await
}

/// `POST /api/play/{uid}/redo`
pub async fn redo(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<ExpectBody>,
) -> ApiResult<Json<Shown>> {
    detached(app, player, uid, body.expect, Action::Redo).await
}

/// `POST /api/play/{uid}/finish`: plays out a game whose every card left
/// can go home with nothing to decide (the state's `finish`).
pub async fn finish(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(uid): Path<String>,
    JsonBody(body): JsonBody<ExpectBody>,
) -> ApiResult<Json<Shown>> {
    detached(app, player, uid, body.expect, Action::Finish).await
}

/// Runs `mutate` as its own task, so that a client hanging up cannot cancel
/// it between the change in memory and the commit: once begun, a change is
/// either stored or dropped from memory, whatever happens to the connection.
async fn detached(
    app: Arc<AppState>,
    player: Player,
    uid: String,
    expect: u64,
    action: Action,
) -> ApiResult<Json<Shown>> {
    tokio::spawn(async move { mutate(&app, &player, &uid, expect, action).await })
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "a change failed");
            ApiError::new(Code::Internal, "the change failed")
        })?
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
) -> ApiResult<Json<Shown>> {
    let mut guard = lock_game(app, player, uid).await?;
    let live = guard.as_mut().ok_or_else(ApiError::no_such_game)?;
    if live.version != expect {
        return Err(ApiError::stale(expect, state_of(live), live.version));
    }
    let count = live.game.moves().len() as u64;
    let limit = || {
        ApiError::new(
            Code::MoveLimit,
            format!("a game holds at most {MAX_MOVES} moves; start a new deal"),
        )
    };
    let mut played = Vec::new();
    let moves = match action {
        Action::Play { text, auto } => {
            let layout = *live.game.position().layout();
            let mv = Move::parse(&text, &layout)
                .map_err(|e| ApiError::new(Code::BadMove, e.to_string()))?;
            if count >= MAX_MOVES {
                return Err(limit());
            }
            let before = view::played(live.game.position(), mv, false);
            live.play(mv, false).map_err(|e| {
                ApiError::new(
                    Code::IllegalMove,
                    format!("illegal move {}: {e}", mv.text(&layout)),
                )
            })?;
            played.push(before);
            if auto {
                play_auto(live, &mut played, MAX_MOVES);
            }
            MovesChange::Play {
                words: words(live, played.len()),
                keep_redo: !live.game.redo_moves().is_empty(),
            }
        }
        Action::Finish => {
            let line = live
                .game
                .position()
                .finish_line()
                .filter(|l| !l.is_empty())
                .ok_or_else(|| {
                    ApiError::new(
                        Code::IllegalMove,
                        "the game cannot be finished by moves home alone",
                    )
                })?;
            if count + line.len() as u64 > MAX_MOVES {
                return Err(limit());
            }
            for mv in line {
                // The line was played through the engine already; a refusal
                // here would only shorten it, and what was played is kept.
                // The finish is one click: its first move, and the rest follow.
                let p = view::played(live.game.position(), mv, true);
                if live.play(mv, !played.is_empty()).is_err() {
                    break;
                }
                played.push(p);
            }
            MovesChange::Play {
                words: words(live, played.len()),
                keep_redo: !live.game.redo_moves().is_empty(),
            }
        }
        Action::Undo { to } => {
            let to = to.unwrap_or(live.clicks().saturating_sub(1));
            if to >= live.clicks() {
                return Err(ApiError::new(
                    Code::NothingToUndo,
                    "there is nothing to undo",
                ));
            }
            while live.clicks() > to && live.undo_click() {}
            MovesChange::Step
        }
        Action::Redo => {
            if live.game.redo_moves().is_empty() {
                return Err(ApiError::new(
                    Code::NothingToRedo,
                    "there is nothing to redo",
                ));
            }
            if count + live.next_redo_len() as u64 > MAX_MOVES {
                return Err(limit());
            }
            if !live.redo_click() {
                return Err(ApiError::new(
                    Code::NothingToRedo,
                    "the move to redo is not legal here",
                ));
            }
            MovesChange::Step
        }
    };
    live.touch();
    let won = live.game.position().is_won();
    let update = GameUpdate {
        uid: live.uid.clone(),
        moves,
        version: live.version,
        move_count: live.game.moves().len() as u64,
        clicks: live.clicks() as u64,
        updated_ms: now_ms(),
        elapsed_ms: live.elapsed_ms,
        won,
    };
    match app.db.update_game(update).await {
        Ok(true) => {
            live.version += 1;
            let mut shown = state_of(live);
            shown.state.played = played;
            Ok(Json(shown))
        }
        Ok(false) => {
            // Another server changed the game first (the database refused a
            // change made from the version it has left): the page gets the
            // game as it is now, as for any stale `expect`.
            *guard = None;
            *guard = load_live(app, player, uid).await?;
            match guard.as_ref() {
                Some(now) => Err(ApiError::stale(expect, state_of(now), now.version)),
                None => Err(ApiError::no_such_game()),
            }
        }
        Err(e) => {
            *guard = None;
            Err(e.into())
        }
    }
}

/// Plays the automatic moves after a player's move, each following it
/// within the click. Stops at `max_moves` in the record, the cap of every game.
fn play_auto(live: &mut LiveGame, played: &mut Vec<view::Played>, max_moves: u64) {
    while (live.game.moves().len() as u64) < max_moves {
        let pos = live.game.position();
        let Some(mv) = autoplay::auto_move(pos) else {
            return;
        };
        let p = view::played(pos, mv, true);
        if live.play(mv, true).is_err() {
            return;
        }
        played.push(p);
    }
}

/// The stored words of the last `n` moves played.
fn words(live: &LiveGame, n: usize) -> Vec<String> {
    let moves = live.game.moves();
    let at = moves.len().saturating_sub(n);
    live::words(&moves[at..], &live.follows()[at..], &live.game)
}
