//! The deal of the day (`crate::daily` states the rule): today's deal of
//! every game, and a game's calendar month, each with what the player did
//! with those deals.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use axum::extract::{Path, Query, State as AxState};
use axum::Extension;
use axum::Json;
use patience_store::{DailyDeal, DealResult};
use serde::{Deserialize, Serialize};
use time::Date;

use super::{spec_of, ApiResult};
use crate::daily::{self, day_text};
use crate::error::{ApiError, Code};
use crate::player::Player;
use crate::AppState;

/// The kept deals of the day, by game and day: once kept, a day's deal never
/// changes, so they stay in memory (a year of days of twenty games at most).
#[derive(Default)]
pub struct DailyCache(tokio::sync::Mutex<HashMap<(&'static str, Date), DailyDeal>>);

/// One game's deal of one day, with the player's result on it.
#[derive(Serialize)]
pub struct DayEntry {
    game: &'static str,
    day: String,
    deal: u64,
    level: &'static str,
    won: bool,
    won_without_hints: bool,
}

#[derive(Serialize)]
pub struct Today {
    today: String,
    first_day: String,
    /// The level the day asks for (a game may take the nearest it has).
    level: &'static str,
    games: Vec<DayEntry>,
}

/// `GET /api/daily`
pub async fn today(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
) -> ApiResult<Json<Today>> {
    let today = app.clock.today();
    let mut deals = Vec::new();
    for spec in patience_engine::games() {
        deals.extend(deals_of(&app, spec.id, &[today]).await?);
    }
    let results = results_of(&app, &player, None).await?;
    Ok(Json(Today {
        today: day_text(today),
        first_day: day_text(daily::first_day(today)),
        level: daily::level_of(today).as_str(),
        games: deals.iter().map(|d| entry(d, &results)).collect(),
    }))
}

#[derive(Deserialize)]
pub struct MonthQuery {
    month: Option<String>,
}

#[derive(Serialize)]
pub struct Month {
    game: &'static str,
    today: String,
    first_day: String,
    month: String,
    /// The month's days from the first day offered to today, in order.
    days: Vec<DayEntry>,
}

/// `GET /api/daily/{game}?month=YYYY-MM`
pub async fn month(
    AxState(app): AxState<Arc<AppState>>,
    Extension(player): Extension<Player>,
    Path(game): Path<String>,
    Query(q): Query<MonthQuery>,
) -> ApiResult<Json<Month>> {
    let spec = spec_of(&game)?;
    let today = app.clock.today();
    let first = match q.month.as_deref() {
        None => today.replace_day(1).unwrap_or(today),
        Some(m) => daily::parse_day(&format!("{m}-01")).ok_or_else(|| {
            ApiError::new(
                Code::BadDay,
                format!(
                    "`{}` is not a month (YYYY-MM)",
                    m.chars().take(20).collect::<String>()
                ),
            )
        })?,
    };
    let from = first.max(daily::first_day(today));
    let days: Vec<Date> = std::iter::successors(Some(from), |d| d.next_day())
        .take_while(|d| d.month() == first.month() && d.year() == first.year() && *d <= today)
        .collect();
    let deals = deals_of(&app, spec.id, &days).await?;
    let results = results_of(&app, &player, Some(spec.id)).await?;
    Ok(Json(Month {
        game: spec.id,
        today: day_text(today),
        first_day: day_text(daily::first_day(today)),
        month: day_text(first)[..7].to_string(),
        days: deals.iter().map(|d| entry(d, &results)).collect(),
    }))
}

fn entry(d: &DailyDeal, results: &HashMap<(String, u64), DealResult>) -> DayEntry {
    let r = results.get(&(d.game.clone(), d.deal));
    DayEntry {
        game: patience_engine::game(&d.game).map_or("", |g| g.id),
        day: d.day.clone(),
        deal: d.deal,
        level: d.level.as_str(),
        won: r.is_some(),
        won_without_hints: r.is_some_and(|r| r.won_without_hints),
    }
}

async fn results_of(
    app: &AppState,
    player: &Player,
    game: Option<&'static str>,
) -> ApiResult<HashMap<(String, u64), DealResult>> {
    let won = app.db.won_deals(player.as_str(), game).await?;
    Ok(won.into_iter().map(|(g, r)| ((g, r.deal), r)).collect())
}

/// The deals of `game` on `days` (in order, leaving out days on which the
/// game has no graded deal to offer), choosing and keeping those not chosen yet.
pub async fn deals_of(
    app: &AppState,
    game: &'static str,
    days: &[Date],
) -> ApiResult<Vec<DailyDeal>> {
    let (Some(&from), Some(&to)) = (days.iter().min(), days.iter().max()) else {
        return Ok(Vec::new());
    };
    let mut cache = app.daily.0.lock().await;
    let missing = |cache: &HashMap<(&'static str, Date), DailyDeal>| -> Vec<Date> {
        days.iter()
            .copied()
            .filter(|d| !cache.contains_key(&(game, *d)))
            .collect()
    };
    if !missing(&cache).is_empty() {
        load_kept(app, &mut cache, game, from, to).await?;
    }
    let chosen = choose(app, game, &missing(&cache)).await?;
    if !chosen.is_empty() {
        app.db.keep_daily(chosen).await?;
        load_kept(app, &mut cache, game, from, to).await?;
    }
    Ok(days
        .iter()
        .filter_map(|d| cache.get(&(game, *d)).cloned())
        .collect())
}

async fn load_kept(
    app: &AppState,
    cache: &mut HashMap<(&'static str, Date), DailyDeal>,
    game: &'static str,
    from: Date,
    to: Date,
) -> ApiResult<()> {
    let (a, b) = (day_text(from), day_text(to));
    let kept = app.db.daily_deals(game, &a, &b).await?;
    for d in kept {
        if let Some(day) = daily::parse_day(&d.day) {
            cache.insert((game, day), d);
        }
    }
    Ok(())
}

/// The rule's deals for days none is kept for yet.
async fn choose(app: &AppState, game: &'static str, days: &[Date]) -> ApiResult<Vec<DailyDeal>> {
    if days.is_empty() {
        return Ok(Vec::new());
    }
    let wanted: HashSet<_> = days.iter().map(|d| daily::level_of(*d)).collect();
    let levels: Vec<_> = wanted
        .iter()
        .flat_map(|l| daily::fallbacks(*l))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut pools = HashMap::new();
    for l in levels {
        pools.insert(l, app.db.deals_of_level(game, l).await?);
    }
    Ok(days
        .iter()
        .filter_map(|&day| {
            let (level, pool) = daily::fallbacks(daily::level_of(day))
                .into_iter()
                .find_map(|l| pools.get(&l).filter(|p| !p.is_empty()).map(|p| (l, p)))?;
            Some(DailyDeal {
                game: game.to_string(),
                day: day_text(day),
                deal: daily::pick(game, day, pool)?,
                level,
            })
        })
        .collect())
}
