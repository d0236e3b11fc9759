//! Request bodies: JSON read by us so that every refusal — too large,
//! truncated, malformed, wrong shape — is a 4xx with `{"error", "code"}`.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::{ApiError, Code};

/// Largest request body accepted (413 past it).
pub const MAX_BODY: usize = 64 * 1024;

/// A JSON body; an empty body reads as `{}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    Code::BodyTooLarge,
                    format!("the request body is over {} KiB", MAX_BODY / 1024),
                )
            } else {
                ApiError::new(
                    Code::MalformedBody,
                    format!(
                        "the request body could not be read: {}",
                        rejection.body_text()
                    ),
                )
            }
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(text)
            .map(JsonBody)
            .map_err(|e| ApiError::new(Code::MalformedBody, format!("malformed JSON body: {e}")))
    }
}
