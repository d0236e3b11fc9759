//! The catalogue: the games with their levels, and their rules pages.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use axum::extract::{Path, State as AxState};
use axum::Json;
use serde::Serialize;

use super::{spec_of, ApiResult};
use crate::error::{ApiError, Code};
use crate::view;
use crate::AppState;

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

/// How long the catalogue is served from memory before its levels are
/// counted again (they change only when deals are graded into the store).
pub const CATALOGUE_FRESH: Duration = Duration::from_secs(60);

/// The catalogue as last worked out. Counting levels reads the whole grades
/// table, so it is done once a [`CATALOGUE_FRESH`] period, by one request,
/// whatever the traffic.
#[derive(Default)]
pub struct CatalogueCache(tokio::sync::Mutex<Option<(Instant, Bytes)>>);

/// `GET /api/games`
pub async fn games(AxState(app): AxState<Arc<AppState>>) -> ApiResult<Response> {
    let mut cached = app.catalogue.0.lock().await;
    let json = match cached.as_ref() {
        Some((at, json)) if at.elapsed() < CATALOGUE_FRESH => json.clone(),
        _ => {
            let list = catalogue(&app).await?;
            let json = Bytes::from(
                serde_json::to_vec(&list)
                    .map_err(|e| ApiError::new(Code::Internal, format!("the catalogue: {e}")))?,
            );
            *cached = Some((Instant::now(), json.clone()));
            json
        }
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn catalogue(app: &AppState) -> ApiResult<Vec<GameEntry>> {
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
            // Only the levels a player can pick: unwinnable and unknown deals
            // are graded but never offered.
            let mut levels = vec!["any".to_string()];
            for wanted in ["easy", "medium", "hard"] {
                if counts.iter().any(|(level, n)| level == wanted && *n > 0) {
                    levels.push(wanted.to_string());
                }
            }
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
    Ok(list)
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
        ApiError::new(
            Code::NoRules,
            format!("the rule book has no section for {}", spec.id),
        )
    })?;
    Ok(Json(Rules {
        id: spec.id,
        markdown,
    }))
}
