//! The page's files, served from the binary: `web/index.html` for every page
//! route (the page reads the route itself), and `web/<path>` under `/static/`.

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::embedded::{find, WEB};

/// Shown when the build had no `web/index.html`, so that a bare server still says something useful.
const NO_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Patience</title>\
<p>The page was not built into this server (no web/index.html). The API is at <a href=/api/games>/api/games</a>.</p>";

/// `/`, `/play/...`, `/game/...`, `/rules/...`: the one page.
pub async fn index() -> Response {
    let body: &'static [u8] = find(WEB, "index.html").unwrap_or(NO_PAGE.as_bytes());
    file_response(body, "text/html; charset=utf-8", "no-cache")
}

/// `/static/{*path}`: a file of `web/`.
pub async fn static_file(Path(path): Path<String>) -> Response {
    if path.split('/').any(|seg| seg.is_empty() || seg == "..") {
        return StatusCode::NOT_FOUND.into_response();
    }
    match find(WEB, &path) {
        // The page's files are few and small; `no-cache` revalidates them so a new build is seen at once.
        Some(body) => file_response(body, content_type(&path), "no-cache"),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

fn file_response(body: &'static [u8], kind: &'static str, cache: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response()
}

/// The media type by file extension; unknown ones are served as bytes.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_files_get_their_media_types() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("css/table.CSS"), "text/css; charset=utf-8");
        assert_eq!(content_type("cards.svg"), "image/svg+xml");
        assert_eq!(content_type("LICENSE"), "application/octet-stream");
    }
}
