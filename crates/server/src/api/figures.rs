//! How often each game comes out, for the winnability page: from the graded
//! deals in the store, as `bench/levels/figures.py` counts them for
//! docs/winnability.md. The shares are those of deals 1..N, every one
//! graded (N the longest such run); deals beyond N, found by hunts for rare
//! levels, are counted apart so they do not bend the shares.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::State as AxState;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use patience_solver::stats::wilson;
use patience_store::{DealGrade, Level};
use serde::Serialize;

use super::catalogue::CATALOGUE_FRESH;
use super::ApiResult;
use crate::error::{ApiError, Code};
use crate::AppState;

/// The answer as last worked out; counted again once a [`CATALOGUE_FRESH`] period.
#[derive(Default)]
pub struct FiguresCache(tokio::sync::Mutex<Option<(Instant, Bytes)>>);

/// A share of the deals with its 95% Wilson interval, as fractions.
#[derive(Serialize, Debug, PartialEq)]
pub struct Share {
    count: u64,
    of: u64,
    rate: f64,
    low: f64,
    high: f64,
}

impl Share {
    fn of(count: u64, of: u64) -> Share {
        let (low, high) = wilson(count, of);
        Share {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }
}

#[derive(Serialize, Debug, PartialEq)]
pub struct GameFigures {
    game: &'static str,
    /// N: deals 1..N are all graded.
    deals: u64,
    /// A win is known (Easy, Medium or Hard).
    won: Share,
    /// The solver proved no win exists.
    lost: Share,
    /// The solver's budget ran out.
    unknown: Share,
    /// The person-like player's wins of its runs on those deals; null when
    /// it played none.
    person: Option<Share>,
    /// Deals of each level among 1..N: easy, medium, hard, unwinnable, unknown.
    levels: [u64; 5],
    /// Deals of each level beyond N (hunts' finds).
    beyond: [u64; 5],
}

fn slot(level: Level) -> usize {
    match level {
        Level::Easy => 0,
        Level::Medium => 1,
        Level::Hard => 2,
        Level::Unwinnable => 3,
        Level::Unknown => 4,
    }
}

/// The figures of one game's grades (in deal order).
pub fn of_grades(game: &'static str, grades: &[DealGrade]) -> GameFigures {
    let n = grades
        .iter()
        .zip(1u64..)
        .take_while(|(g, want)| g.deal == *want)
        .count() as u64;
    let (mut levels, mut beyond) = ([0u64; 5], [0u64; 5]);
    let (mut wins, mut runs) = (0u64, 0u64);
    for g in grades {
        if g.deal > n {
            beyond[slot(g.level)] += 1;
            continue;
        }
        levels[slot(g.level)] += 1;
        if let Some(p) = g.person {
            wins += u64::from(p.wins());
            runs += u64::from(p.runs());
        }
    }
    GameFigures {
        game,
        deals: n,
        won: Share::of(levels[0] + levels[1] + levels[2], n),
        lost: Share::of(levels[3], n),
        unknown: Share::of(levels[4], n),
        person: (runs > 0).then(|| Share::of(wins, runs)),
        levels,
        beyond,
    }
}

/// `GET /api/figures`: every game's figures, in catalogue order.
pub async fn figures(AxState(app): AxState<Arc<AppState>>) -> ApiResult<Response> {
    let mut cached = app.figures.0.lock().await;
    let body = match cached
        .as_ref()
        .filter(|(at, _)| at.elapsed() < CATALOGUE_FRESH)
    {
        Some((_, body)) => body.clone(),
        None => {
            let mut all = Vec::new();
            for g in patience_engine::games() {
                all.push(of_grades(g.id, &app.db.grades(g.id).await?));
            }
            let body = Bytes::from(
                serde_json::to_vec(&all)
                    .map_err(|e| ApiError::new(Code::Internal, format!("the figures: {e}")))?,
            );
            *cached = Some((Instant::now(), body.clone()));
            body
        }
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_of_the_unbroken_run_from_deal_one() {
        let g = |deal, level| DealGrade::level_only(deal, level);
        let grades = [
            DealGrade {
                person: patience_store::PersonWins::new(15, 20),
                ..g(1, Level::Easy)
            },
            g(2, Level::Unwinnable),
            g(3, Level::Hard),
            g(4, Level::Unknown),
            g(90, Level::Hard), // a hunt's find
        ];
        let f = of_grades("fan", &grades);
        assert_eq!(f.deals, 4);
        assert_eq!((f.won.count, f.won.of), (2, 4));
        assert_eq!((f.lost.count, f.unknown.count), (1, 1));
        assert_eq!(f.levels, [1, 0, 1, 1, 1]);
        assert_eq!(f.beyond, [0, 0, 1, 0, 0]);
        let p = f.person.unwrap();
        assert_eq!((p.count, p.of), (15, 20));
        assert!(p.low < 0.75 && 0.75 < p.high);
    }
}
