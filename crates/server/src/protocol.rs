//! What RFC 9112 asks of a request before it is routed, and the API's JSON
//! for the answers the HTTP parser gives by itself.
//!
//! - A request head is at most [`HEAD_LIMIT`]: past it the parser answers
//!   431 (so a flood of unfinished heads holds little memory).
//! - `Transfer-Encoding` must be `chunked` alone: any other coding (and a
//!   list such as `identity, chunked`, which a proxy may frame differently,
//!   the way to smuggle a request) is 501 and the connection is closed
//!   without reading further.
//! - An HTTP/1.1 request carries exactly one valid `Host` (HTTP/1.0 at most
//!   one): otherwise 400.
//! - The parser's own refusals (a malformed request line or header, a head
//!   too large, a URI too long) are answered `{"error", "code"}` with their
//!   status, like every other refusal, and close the connection.

use axum::body::Bytes;
use axum::http::request::Parts;
use axum::http::uri::Authority;
use axum::http::{header, StatusCode, Version};

use crate::error::{ApiError, Code};

/// The largest request head read (request line and headers): four times
/// what the usual proxies allow a header line, far past any browser's.
pub const HEAD_LIMIT: usize = 32 * 1024;

/// Refuses a request that RFC 9112 says must not be served.
pub fn check(parts: &Parts) -> Result<(), ApiError> {
    let codings: Vec<String> = parts
        .headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("?").split(','))
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    if !codings.is_empty() && codings != ["chunked"] {
        return Err(ApiError::new(
            Code::BadRequest,
            format!(
                "the transfer coding `{}` is not supported: only `chunked` alone is",
                codings.join(", ").chars().take(60).collect::<String>()
            ),
        )
        .with_status(StatusCode::NOT_IMPLEMENTED));
    }
    let hosts: Vec<_> = parts.headers.get_all(header::HOST).iter().collect();
    let needs_host = parts.version == Version::HTTP_11;
    match hosts.as_slice() {
        [] if needs_host => Err(ApiError::new(
            Code::BadRequest,
            "an HTTP/1.1 request must carry a Host header",
        )),
        [] => Ok(()),
        [host] => host
            .to_str()
            .ok()
            .filter(|h| !h.contains('@'))
            .and_then(|h| h.parse::<Authority>().ok())
            .map(|_| ())
            .ok_or_else(|| ApiError::new(Code::BadRequest, "the Host header names no host")),
        _ => Err(ApiError::new(
            Code::BadRequest,
            "a request must carry one Host header, not several",
        )),
    }
}

/// The parser's own answer as the API gives it: `head`, the bytes hyper
/// writes when it could not parse a request (a status line and
/// `content-length: 0`), made the same status with a JSON body, closing the
/// connection. `None` for anything else.
pub fn parser_refusal(head: &[u8]) -> Option<Bytes> {
    if head.len() > 512 || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let status_line = text.strip_prefix("HTTP/1.1 ")?;
    let status = StatusCode::from_bytes(status_line.get(..3)?.as_bytes()).ok()?;
    if !(status.is_client_error() || status.is_server_error())
        || !text
            .to_ascii_lowercase()
            .contains("\r\ncontent-length: 0\r\n")
    {
        return None;
    }
    let message = match status {
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            format!("the request head is over {} KiB", HEAD_LIMIT / 1024)
        }
        StatusCode::URI_TOO_LONG => "the request's address is too long".to_string(),
        _ => "the request could not be read as HTTP/1.1".to_string(),
    };
    let body = ApiError::new(Code::for_status(status), message)
        .with_status(status)
        .json_body();
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         x-content-type-options: nosniff\r\nconnection: close\r\n\r\n",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some(Bytes::from(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(version: Version, headers: &[(&str, &str)]) -> Parts {
        let mut req = Request::builder().uri("/api/games").version(version);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.body(()).unwrap().into_parts().0
    }

    #[test]
    fn only_chunked_alone_is_a_transfer_coding() {
        let status = |te: &str| {
            check(&parts(
                Version::HTTP_11,
                &[("host", "x"), ("transfer-encoding", te)],
            ))
            .err()
            .map(|e| e.status.as_u16())
        };
        assert_eq!(status("chunked"), None);
        assert_eq!(status("Chunked"), None);
        assert_eq!(status("identity, chunked"), Some(501));
        assert_eq!(status("gzip, chunked"), Some(501));
        assert_eq!(status("chunked, chunked"), Some(501));
        assert_eq!(status("identity"), Some(501));
    }

    #[test]
    fn http_1_1_needs_exactly_one_valid_host() {
        let ok = |v, h: &[(&str, &str)]| check(&parts(v, h)).is_ok();
        assert!(ok(Version::HTTP_11, &[("host", "127.0.0.1:8080")]));
        assert!(ok(Version::HTTP_11, &[("host", "example.org")]));
        assert!(!ok(Version::HTTP_11, &[]));
        assert!(ok(Version::HTTP_10, &[]));
        assert!(!ok(Version::HTTP_11, &[("host", "a"), ("host", "b")]));
        assert!(!ok(Version::HTTP_10, &[("host", "a"), ("host", "a")]));
        assert!(!ok(Version::HTTP_11, &[("host", "a b")]));
        assert!(!ok(Version::HTTP_11, &[("host", "a/b")]));
        assert!(!ok(Version::HTTP_11, &[("host", "user@a")]));
    }

    #[test]
    fn the_parsers_empty_answers_become_json_and_nothing_else_does() {
        let out = parser_refusal(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n",
        )
        .unwrap();
        let text = String::from_utf8(out.to_vec()).unwrap();
        assert!(text.starts_with("HTTP/1.1 431 "), "{text}");
        assert!(text.contains("connection: close"), "{text}");
        assert!(text.contains(r#""code":"bad_request""#), "{text}");
        assert!(parser_refusal(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(
            parser_refusal(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n").is_none()
        );
        assert!(
            parser_refusal(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{").is_none()
        );
    }
}
