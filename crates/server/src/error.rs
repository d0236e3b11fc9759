//! API errors: a status and `{"error": "message", "code": "code"}`. The code
//! is stable (the page picks its words by it, in the player's language); the
//! message is English for people reading logs and curl output. A stale move
//! count also carries the current state, so the page can redraw without
//! another request; a refusal that passes with time carries `Retry-After`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::db::DbError;
use crate::live::LoadError;
use patience_store::StoreError;

/// Every machine-readable error code the API answers with, and its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// A body that is not JSON of the expected shape, or cut short.
    MalformedBody,
    /// A state-changing request whose body is not declared `application/json`.
    UnsupportedMediaType,
    /// A state-changing request sent by another site's page.
    CrossSite,
    /// A game id the catalogue does not have.
    UnknownGame,
    /// A game uid that is not one of the player's games.
    NoSuchGame,
    BadDeal,
    /// A level that is not offered (`easy`, `medium`, `hard` or `any`).
    BadLevel,
    /// An offered level with no graded deals of that game yet.
    NoDeals,
    /// A move text that names no move of the game.
    BadMove,
    /// A move the engine refuses in this position.
    IllegalMove,
    NothingToUndo,
    NothingToRedo,
    /// The game changed since the page's `expect` version.
    Stale,
    /// The game holds as many moves as a game may.
    MoveLimit,
    /// Too many new games from one player or one address in a minute.
    RateLimited,
    /// Every hint slot and queue place is taken, or the player already waits for a hint.
    HintsBusy,
    ShuttingDown,
    /// The database could not store or read the change.
    StorageFailed,
    /// The database file was deleted or replaced while the server ran:
    /// nothing is stored until it is restarted on the right file.
    DatabaseLost,
    Internal,
    NoEndpoint,
    MethodNotAllowed,
    BodyTooLarge,
    /// The rule book has no section for the game.
    NoRules,
    /// A request the server cannot read (a bad path, query or percent-encoding).
    BadRequest,
    /// A request body that did not arrive within the body timeout.
    RequestTimeout,
    /// A day or month that is not a date, or outside the calendar.
    BadDay,
    /// A display name that is too long or not plain text.
    BadName,
    /// A request that needs a player who has played (a display name).
    NoPlayer,
}

impl Code {
    /// Every code, in the order docs/api.md lists them.
    pub const ALL: [Code; 29] = [
        Code::MalformedBody,
        Code::UnsupportedMediaType,
        Code::CrossSite,
        Code::UnknownGame,
        Code::NoSuchGame,
        Code::BadDeal,
        Code::BadLevel,
        Code::NoDeals,
        Code::BadMove,
        Code::IllegalMove,
        Code::NothingToUndo,
        Code::NothingToRedo,
        Code::Stale,
        Code::MoveLimit,
        Code::RateLimited,
        Code::HintsBusy,
        Code::ShuttingDown,
        Code::StorageFailed,
        Code::DatabaseLost,
        Code::Internal,
        Code::NoEndpoint,
        Code::MethodNotAllowed,
        Code::BodyTooLarge,
        Code::NoRules,
        Code::BadRequest,
        Code::RequestTimeout,
        Code::BadDay,
        Code::BadName,
        Code::NoPlayer,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::MalformedBody => "malformed_body",
            Code::UnsupportedMediaType => "unsupported_media_type",
            Code::CrossSite => "cross_site",
            Code::UnknownGame => "unknown_game",
            Code::NoSuchGame => "no_such_game",
            Code::BadDeal => "bad_deal",
            Code::BadLevel => "bad_level",
            Code::NoDeals => "no_deals",
            Code::BadMove => "bad_move",
            Code::IllegalMove => "illegal_move",
            Code::NothingToUndo => "nothing_to_undo",
            Code::NothingToRedo => "nothing_to_redo",
            Code::Stale => "stale",
            Code::MoveLimit => "move_limit",
            Code::RateLimited => "rate_limited",
            Code::HintsBusy => "hints_busy",
            Code::ShuttingDown => "shutting_down",
            Code::StorageFailed => "storage_failed",
            Code::DatabaseLost => "database_lost",
            Code::Internal => "internal",
            Code::NoEndpoint => "no_endpoint",
            Code::MethodNotAllowed => "method_not_allowed",
            Code::BodyTooLarge => "body_too_large",
            Code::NoRules => "no_rules",
            Code::BadRequest => "bad_request",
            Code::RequestTimeout => "request_timeout",
            Code::BadDay => "bad_day",
            Code::BadName => "bad_name",
            Code::NoPlayer => "no_player",
        }
    }

    /// The status a code is answered with.
    pub fn status(self) -> StatusCode {
        match self {
            Code::MalformedBody | Code::BadDeal | Code::BadLevel | Code::BadMove => {
                StatusCode::BAD_REQUEST
            }
            Code::BadRequest | Code::BadDay | Code::BadName => StatusCode::BAD_REQUEST,
            Code::NoPlayer => StatusCode::NOT_FOUND,
            Code::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::CrossSite => StatusCode::FORBIDDEN,
            Code::UnknownGame | Code::NoSuchGame | Code::NoDeals => StatusCode::NOT_FOUND,
            Code::NoEndpoint | Code::NoRules => StatusCode::NOT_FOUND,
            Code::IllegalMove | Code::NothingToUndo | Code::NothingToRedo | Code::MoveLimit => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Code::Stale => StatusCode::CONFLICT,
            Code::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Code::HintsBusy | Code::ShuttingDown | Code::DatabaseLost => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Code::StorageFailed | Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Code::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Code::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Code::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        }
    }

    /// The code for an error answer made outside the handlers (a router or
    /// extractor refusal), by its status.
    pub fn for_status(status: StatusCode) -> Code {
        match status {
            StatusCode::NOT_FOUND => Code::NoEndpoint,
            StatusCode::METHOD_NOT_ALLOWED => Code::MethodNotAllowed,
            StatusCode::PAYLOAD_TOO_LARGE => Code::BodyTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Code::UnsupportedMediaType,
            StatusCode::FORBIDDEN => Code::CrossSite,
            StatusCode::TOO_MANY_REQUESTS => Code::RateLimited,
            StatusCode::REQUEST_TIMEOUT => Code::RequestTimeout,
            StatusCode::SERVICE_UNAVAILABLE => Code::ShuttingDown,
            s if s.is_server_error() => Code::Internal,
            _ => Code::BadRequest,
        }
    }
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// The game's current state (on 409), as the page draws it.
    pub state: Option<serde_json::Value>,
    /// Seconds after which the same request may succeed.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with its code's status.
    pub fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            status: code.status(),
            code,
            message: message.into(),
            state: None,
            retry_after: None,
        }
    }

    /// The same error answered with another status than its code's usual one.
    pub fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = status;
        self
    }

    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    pub fn no_such_game() -> ApiError {
        ApiError::new(Code::NoSuchGame, "no such game")
    }

    /// 409: the page's `expect` is not the game's version.
    pub fn stale(expected: u64, state: impl serde::Serialize, version: u64) -> ApiError {
        ApiError {
            state: serde_json::to_value(state).ok(),
            ..ApiError::new(
                Code::Stale,
                format!("the game is at version {version}, not {expected}: it changed elsewhere"),
            )
        }
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        StoreError::from(e).into()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        // The detail goes to the log; the answer names no database internals.
        tracing::error!(error = %e, "database");
        match e {
            StoreError::Stopped => {
                ApiError::new(Code::ShuttingDown, "the server is shutting down").retry_after(5)
            }
            // A connection lost: the store reconnects by itself once the
            // database answers, so the request may be tried again.
            StoreError::Unavailable(_) => ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                ..ApiError::new(
                    Code::StorageFailed,
                    "the database cannot be reached just now; try again in a moment",
                )
            }
            .retry_after(2),
            StoreError::Lost => ApiError::new(
                Code::DatabaseLost,
                "the database file was deleted or replaced; nothing can be stored until the server is restarted",
            ),
            _ => ApiError::new(
                Code::StorageFailed,
                "the database could not complete the request",
            ),
        }
    }
}

impl From<LoadError> for ApiError {
    fn from(e: LoadError) -> ApiError {
        tracing::error!(error = %e, "stored game");
        ApiError::new(Code::Internal, e.to_string())
    }
}

impl ApiError {
    fn json(&self) -> serde_json::Value {
        let mut body = json!({ "error": self.message, "code": self.code.as_str() });
        if let Some(state) = &self.state {
            body["state"] = state.clone();
        }
        body
    }

    /// The answer's body, for an answer written without the router.
    pub fn json_body(&self) -> Vec<u8> {
        self.json().to_string().into_bytes()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.json();
        let mut res = (self.status, Json(body)).into_response();
        if let Some(s) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_snake_case_and_errors_have_error_statuses() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "{c:?} twice");
            assert!(c
                .as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'));
            assert!(c.status().is_client_error() || c.status().is_server_error());
        }
    }

    #[test]
    fn a_refusal_from_outside_the_handlers_gets_a_code_of_its_status() {
        for c in [
            Code::NoEndpoint,
            Code::MethodNotAllowed,
            Code::BodyTooLarge,
            Code::UnsupportedMediaType,
            Code::BadRequest,
            Code::Internal,
            Code::RequestTimeout,
        ] {
            assert_eq!(Code::for_status(c.status()), c);
        }
    }
}
