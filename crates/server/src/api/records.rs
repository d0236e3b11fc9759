//! A deal's records and the player's display name.
//!
//! A deal's records are the best results of its hint-free wins over all
//! players, each player counted once by their best: fewest moves (the
//! fastest of those breaking ties) and fastest time. They come from the
//! figures the server stored at each game's first win, as the engine played
//! it, never from the page. A player without a display name is anonymous.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, State as AxState};
use axum::Extension;
use axum::Json;
use patience_store::{DisplayName, NameError};
use serde::{Deserialize, Serialize};

use super::{now_ms, spec_of, ApiResult};
use crate::body::JsonBody;
use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::AppState;

/// The players listed in a deal's table, best first.
pub const TOP: usize = 10;

#[derive(Serialize)]
pub struct Records {
    game: &'static str,
    deal: u64,
    /// Players who won the deal without hints.
    winners: u64,
    best_moves: Option<u64>,
    /// Players who reached `best_moves`.
    best_moves_players: u64,
    best_time_ms: Option<i64>,
    best_time_players: u64,
    top: Vec<Holder>,
    /// The player's own best, if they won the deal without hints.
    mine: Option<Standing>,
}

#[derive(Serialize)]
pub struct Holder {
    /// Null: anonymous.
    name: Option<DisplayName>,
    moves: u64,
    time_ms: i64,
    rank: u64,
    mine: bool,
}

#[derive(Serialize)]
pub struct Standing {
    moves: u64,
    time_ms: i64,
    /// 1 + the players with fewer moves (players with as few share a rank).
    rank: u64,
}

/// A player's best on a deal.
#[derive(Clone)]
struct Best {
    player: String,
    moves: u64,
    /// The time of the fewest-moves win.
    moves_time: i64,
    fastest: i64,
}

/// `GET /api/records/{game}/{deal}`
pub async fn records(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path((game, deal)): Path<(String, String)>,
) -> ApiResult<Json<Records>> {
    let spec = spec_of(&game)?;
    let deal = deal
        .parse::<u64>()
        .ok()
        .filter(|d| (1..=patience_engine::MAX_DEAL).contains(d))
        .ok_or_else(|| ApiError::new(Code::BadDeal, "a deal is a number from 1 to 4294967295"))?;
    let wins = app.db.hint_free_wins(spec.id, deal).await?;
    // Wins come fewest moves first: a player's first is their best by moves.
    let mut bests: Vec<Best> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for w in wins {
        match at.get(&w.player) {
            Some(&i) => bests[i].fastest = bests[i].fastest.min(w.elapsed_ms),
            None => {
                at.insert(w.player.clone(), bests.len());
                bests.push(Best {
                    player: w.player,
                    moves: w.moves,
                    moves_time: w.elapsed_ms,
                    fastest: w.elapsed_ms,
                });
            }
        }
    }
    let rank = |moves: u64| 1 + bests.iter().take_while(|b| b.moves < moves).count() as u64;
    let best_moves = bests.first().map(|b| b.moves);
    let best_time = bests.iter().map(|b| b.fastest).min();
    let top: Vec<Best> = bests.iter().take(TOP).cloned().collect();
    let mut names = Vec::with_capacity(top.len());
    for b in &top {
        names.push(app.db.name_of(&b.player).await?);
    }
    let me = player.as_str();
    Ok(Json(Records {
        game: spec.id,
        deal,
        winners: bests.len() as u64,
        best_moves,
        best_moves_players: bests.iter().filter(|b| Some(b.moves) == best_moves).count() as u64,
        best_time_ms: best_time,
        best_time_players: bests
            .iter()
            .filter(|b| Some(b.fastest) == best_time)
            .count() as u64,
        top: top
            .iter()
            .zip(names)
            .map(|(b, name)| Holder {
                name,
                moves: b.moves,
                time_ms: b.moves_time,
                rank: rank(b.moves),
                mine: b.player == me,
            })
            .collect(),
        mine: at.get(me).map(|&i| Standing {
            moves: bests[i].moves,
            time_ms: bests[i].fastest,
            rank: rank(bests[i].moves),
        }),
    }))
}

#[derive(Serialize)]
pub struct Me {
    name: Option<DisplayName>,
}

/// `GET /api/me`
pub async fn me(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Me>> {
    let name = app.db.name_of(player.as_str()).await?;
    Ok(Json(Me { name }))
}

#[derive(Deserialize)]
pub struct SetName {
    name: String,
}

/// `POST /api/me` body `{"name": "..."}`; an empty name clears it.
pub async fn set_name(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    JsonBody(body): JsonBody<SetName>,
) -> ApiResult<Json<Me>> {
    let name = DisplayName::parse(&body.name).map_err(|e| {
        ApiError::new(
            Code::BadName,
            match e {
                NameError::TooLong | NameError::NotPlain => e.to_string(),
            },
        )
    })?;
    if !app.db.has_games(player.as_str()).await? {
        return Err(ApiError::new(
            Code::NoPlayer,
            "play a game first: a name belongs to a player who has played",
        ));
    }
    app.db
        .set_name(player.as_str(), name.clone(), now_ms())
        .await?;
    Ok(Json(Me { name }))
}
