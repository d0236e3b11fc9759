//! API errors: a status and `{"error": "message", "code": "bad_request"}`; the
//! code is stable, for the page to say the error in the player's language. A
//! stale move count also carries the current state, so the page can redraw
//! without another request.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::db::DbError;
use crate::live::LoadError;
use crate::view::State;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub state: Option<Box<State>>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            state: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 409: the page's move count is not the game's.
    pub fn stale(expected: u64, state: State) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: format!(
                "the game has {} moves, not {expected}: it changed elsewhere",
                state.moves
            ),
            state: Some(Box::new(state)),
        }
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        tracing::error!(error = %e, "database");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("storage failed: {e}"),
        )
    }
}

impl From<LoadError> for ApiError {
    fn from(e: LoadError) -> ApiError {
        tracing::error!(error = %e, "stored game");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

/// The stable machine code of an error status.
fn code(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::CONFLICT => "stale",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNPROCESSABLE_ENTITY => "unprocessable",
        s if s.is_server_error() => "internal",
        _ => "error",
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = code(self.status);
        let body = match self.state {
            Some(state) => json!({ "error": self.message, "code": code, "state": state }),
            None => json!({ "error": self.message, "code": code }),
        };
        (self.status, Json(body)).into_response()
    }
}
