//! The catalogue: the games with their levels, and their rules pages.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State as AxState};
use axum::http::HeaderMap;
use axum::Json;
use patience_store::Level;
use serde::{Deserialize, Serialize};

use super::{spec_of, ApiResult};
use crate::error::{ApiError, Code};
use crate::rules::{Figures, Lang};
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
/// whatever the traffic; the game list and the rules pages' figures are
/// both answered from it.
#[derive(Default)]
pub struct CatalogueCache(tokio::sync::Mutex<Option<Arc<Counted>>>);

/// The levels counted at one moment, and the game list made of them.
struct Counted {
    at: Instant,
    /// Per game of the catalogue, in its order: deals graded at each level.
    counts: Vec<Vec<(patience_store::Level, u64)>>,
    json: Bytes,
}

impl Counted {
    fn of(&self, game: &str) -> &[(patience_store::Level, u64)] {
        patience_engine::games()
            .iter()
            .position(|g| g.id == game)
            .and_then(|i| self.counts.get(i))
            .map_or(&[], Vec::as_slice)
    }
}

/// The counted catalogue, counted again when it is stale.
async fn counted(app: &AppState) -> ApiResult<Arc<Counted>> {
    let mut cached = app.catalogue.0.lock().await;
    if let Some(c) = cached.as_ref().filter(|c| c.at.elapsed() < CATALOGUE_FRESH) {
        return Ok(c.clone());
    }
    let mut counts = Vec::new();
    for g in patience_engine::games() {
        counts.push(app.db.level_counts(g.id).await?);
    }
    let json = Bytes::from(
        serde_json::to_vec(&entries(&counts))
            .map_err(|e| ApiError::new(Code::Internal, format!("the catalogue: {e}")))?,
    );
    let c = Arc::new(Counted {
        at: Instant::now(),
        counts,
        json,
    });
    *cached = Some(c.clone());
    Ok(c)
}

/// `GET /api/games`
pub async fn games(AxState(app): AxState<Arc<AppState>>) -> ApiResult<Response> {
    let json = counted(&app).await?.json.clone();
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

fn entries(counts: &[Vec<(patience_store::Level, u64)>]) -> Vec<GameEntry> {
    patience_engine::games()
        .iter()
        .zip(counts)
        .map(|(g, counts)| {
            // Only the levels a player can pick: unwinnable and unknown deals
            // are graded but never offered.
            let mut levels = vec!["any".to_string()];
            for wanted in [Level::Easy, Level::Medium, Level::Hard] {
                if counts.iter().any(|&(level, n)| level == wanted && n > 0) {
                    levels.push(wanted.as_str().to_string());
                }
            }
            GameEntry {
                id: g.id,
                name_en: g.name_en,
                name_ru: g.name_ru,
                about: g.about,
                layout: view::layout_name(g.layout),
                redeals: g.redeals_allowed(),
                decks: g.decks,
                levels,
            }
        })
        .collect()
}

#[derive(Serialize)]
pub struct Rules {
    id: &'static str,
    lang: &'static str,
    markdown: String,
}

#[derive(Deserialize)]
pub struct RulesQuery {
    lang: Option<String>,
}

/// `GET /api/games/{game}/rules?lang=ru|en`: the game's rules page in the
/// language asked for (else the `lang` cookie's, else the browser's), its
/// figures filled from the graded deals in the store (as last counted).
pub async fn rules(
    AxState(app): AxState<Arc<AppState>>,
    Path(game): Path<String>,
    query: Result<Query<RulesQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Json<Rules>> {
    let spec = spec_of(&game)?;
    let Query(query) = query.map_err(|e| ApiError::new(Code::BadRequest, e.body_text()))?;
    let lang = match query.lang.as_deref() {
        Some(code) => Lang::parse(code).ok_or_else(|| {
            ApiError::new(
                Code::BadRequest,
                format!(
                    "unknown language `{}` (expected ru or en)",
                    code.chars().take(20).collect::<String>()
                ),
            )
        })?,
        None => Lang::of_request(&headers),
    };
    let id = spec.id;
    let counted = counted(&app).await?;
    let markdown =
        crate::rules::page(id, lang, &Figures::from_counts(counted.of(id))).ok_or_else(|| {
            ApiError::new(
                Code::NoRules,
                format!("{id} has no rules page in {}", lang.code()),
            )
        })?;
    Ok(Json(Rules {
        id,
        lang: lang.code(),
        markdown,
    }))
}
