//! Defences every answer gets, whatever its route.
//!
//! - [`same_origin_json`]: a state-changing request must come from the site's
//!   own page. Another site's page can make a browser send a form (`text/plain`,
//!   `application/x-www-form-urlencoded`, `multipart/form-data`) to any address
//!   without asking; it cannot send `Content-Type: application/json` across
//!   origins without a CORS preflight, which this server never grants. So
//!   such a request must declare JSON (415 otherwise), and when the browser
//!   says where it comes from (`Origin`, `Sec-Fetch-Site`) that must be this
//!   site (403 otherwise). A request with neither header (curl, scripts) is
//!   not a browser acting for someone else and passes.
//! - [`headers`]: a content security policy that allows only the site's own
//!   files and forbids framing (no clickjacking), plus `nosniff` and a referrer
//!   policy.
//! - [`json_errors`]: refusals made outside the handlers (the router's 405,
//!   a path that does not decode) get the same JSON shape and codes as the
//!   handlers' own.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, Code};

/// The content security policy of every answer. Scripts come only from the
/// site; styles may be inline because the page places every card with a
/// style attribute (the SVG faces and the board's geometry), which carries no
/// script.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// Whether a request may change something (every method but the safe ones).
fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Refuses state-changing requests from other sites, and bodies not declared JSON.
pub async fn same_origin_json(req: Request, next: Next) -> Response {
    if changes_state(req.method()) {
        if let Err(e) = check_same_origin(req.headers(), req.uri().authority().map(|a| a.as_str()))
        {
            return e.into_response();
        }
        if !declares_json(req.headers()) {
            return ApiError::new(
                Code::UnsupportedMediaType,
                "the request body must be sent as Content-Type: application/json",
            )
            .into_response();
        }
    }
    next.run(req).await
}

/// `Sec-Fetch-Site` must be `same-origin` (or `none`: typed by the user),
/// and `Origin`, when sent, must name the host the request was sent to.
fn check_same_origin(headers: &HeaderMap, authority: Option<&str>) -> Result<(), ApiError> {
    let refuse = || {
        ApiError::new(
            Code::CrossSite,
            "a request from another site cannot change anything here",
        )
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().map_err(|_| refuse())?;
        if !matches!(site, "same-origin" | "none") {
            return Err(refuse());
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| refuse())?;
        // An absolute-form target names the host; the Host header is then ignored.
        let host = authority
            .or_else(|| headers.get(header::HOST).and_then(|h| h.to_str().ok()))
            .ok_or_else(refuse)?;
        let origin_host = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .ok_or_else(refuse)?;
        if !origin_host.eq_ignore_ascii_case(host) {
            return Err(refuse());
        }
    }
    Ok(())
}

/// `Content-Type: application/json`, with or without parameters (`; charset=utf-8`).
fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// Adds the security headers to every answer.
pub async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    add_headers(res.headers_mut());
    res
}

/// The security headers, for answers made before the router too.
pub fn add_headers(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
}

/// The longest refusal text kept from an answer made outside the handlers.
const REFUSAL_TEXT: usize = 1024;

/// Turns an error answer under `/api` that is not JSON into `{"error", "code"}`.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api");
    let res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !api || is_json || !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, REFUSAL_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let code = Code::for_status(status);
    let message = if text.is_empty() || status.is_server_error() {
        status
            .canonical_reason()
            .unwrap_or("request refused")
            .to_lowercase()
    } else {
        text
    };
    let mut out = ApiError::new(code, message)
        .with_status(status)
        .into_response();
    if let Some(allow) = parts.headers.get(header::ALLOW) {
        out.headers_mut().insert(header::ALLOW, allow.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_the_sites_own_origin_passes() {
        let ok = |pairs: &[(&'static str, &'static str)]| {
            check_same_origin(&headers(pairs), None).is_ok()
        };
        assert!(ok(&[]), "curl sends neither header");
        assert!(ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ]));
        assert!(ok(&[
            ("host", "example.org"),
            ("origin", "https://example.org")
        ]));
        assert!(ok(&[("sec-fetch-site", "same-origin")]));
        assert!(!ok(&[("sec-fetch-site", "cross-site")]));
        assert!(!ok(&[("sec-fetch-site", "same-site")]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://localhost:8080")
        ]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:9090")
        ]));
        assert!(!ok(&[("host", "127.0.0.1:8080"), ("origin", "null")]));
        assert!(
            !ok(&[("origin", "http://127.0.0.1:8080")]),
            "no host to compare"
        );
    }

    #[test]
    fn json_is_recognised_with_parameters_and_only_json() {
        let json = |v: &'static str| declares_json(&headers(&[("content-type", v)]));
        assert!(json("application/json"));
        assert!(json("application/json; charset=utf-8"));
        assert!(json("Application/JSON"));
        assert!(!json("text/plain"));
        assert!(!json("application/x-www-form-urlencoded"));
        assert!(!json("multipart/form-data; boundary=x"));
        assert!(!json("application/jsonp"));
        assert!(!declares_json(&HeaderMap::new()));
    }
}
