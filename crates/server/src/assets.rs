//! The page's files, served from the binary: `web/index.html` for every page
//! route (the page reads the route itself), and `web/<path>` under `/static/`.
//!
//! The shell is served in the player's language: `<html lang>` and the few
//! words of its first paint come from the same message catalogue the page
//! uses (`web/i18n/{lang}.json`), chosen by the `lang` cookie the page's
//! РУ / EN switch sets, else by `Accept-Language`. The address never changes
//! with the language.
//!
//! Caching: the shell names the page's files under `/static/b-<build>/`,
//! `<build>` a digest of every embedded web file, and the modules import
//! each other by relative paths, so all of them carry it. Those answers are
//! cached for a year (`immutable`): a repeat visit asks again only for the
//! shell, which carries an `ETag` and is answered `304 Not Modified` when
//! it has not changed, and for the API. A new build changes the digest, so
//! its files are new addresses. Files asked for without the digest (or with
//! another build's) are served with an `ETag` and `no-cache`. Every answer
//! is compressed (brotli or gzip, as the browser accepts) by
//! [`compression`].

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use patience_engine::prng::{fnv1a64, mix64};

use crate::embedded::{find, WEB};
use crate::lang::Lang;

/// Shown when the build had no `web/index.html`, so that a bare server still says something useful.
const NO_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Patience</title>\
<p>The page was not built into this server (no web/index.html). The API is at <a href=/api/games>/api/games</a>.</p>";

/// `/` and every page route: the one page, in the player's language.
pub async fn index(uri: Uri, headers: HeaderMap) -> Response {
    let Some(template) = find(WEB, "index.html") else {
        return file_response(
            NO_PAGE.as_bytes().to_vec(),
            "text/html; charset=utf-8",
            "no-cache",
            None,
        );
    };
    let lang = Lang::of_request(&headers).code();
    let catalogue = find(WEB, &format!("i18n/{lang}.json"))
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    let shell = Shell {
        lang,
        catalogue: &catalogue,
        page: page_module(uri.path()),
    };
    let page = fill_shell(&String::from_utf8_lossy(template), &shell);
    let tag = etag(page.as_bytes());
    if not_modified(&headers, &tag) {
        return unchanged(&tag);
    }
    let mut res = file_response(
        page.into_bytes(),
        "text/html; charset=utf-8",
        "no-cache",
        Some(&tag),
    );
    res.headers_mut().insert(
        header::VARY,
        HeaderValue::from_static("Cookie, Accept-Language"),
    );
    res
}

/// The build's part of the page's file addresses: `b-` and a digest of
/// every embedded web file.
pub fn build() -> &'static str {
    static BUILD: OnceLock<String> = OnceLock::new();
    BUILD.get_or_init(|| {
        let mut h = 0u64;
        for (path, bytes) in WEB {
            h = mix64(h ^ fnv1a64(path.as_bytes()));
            h = mix64(h ^ fnv1a64(bytes));
        }
        format!("b-{:012x}", h >> 16)
    })
}

/// A weak validator of a body: the same for its compressed forms.
fn etag(body: &[u8]) -> String {
    format!("W/\"{:016x}\"", mix64(fnv1a64(body)))
}

/// Whether the request's `If-None-Match` names `tag`.
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == tag || t.trim() == "*")
}

fn unchanged(tag: &str) -> Response {
    let mut res = StatusCode::NOT_MODIFIED.into_response();
    if let Ok(v) = HeaderValue::from_str(tag) {
        res.headers_mut().insert(header::ETAG, v);
    }
    res
}

/// The compression of every answer: brotli or gzip, as the request's
/// `Accept-Encoding` prefers, for text of 32 bytes or more (tower-http's
/// default choice: images other than SVG and event streams are left alone).
pub fn compression() -> tower_http::compression::CompressionLayer {
    tower_http::compression::CompressionLayer::new()
}

/// What the shell is filled with: the language, its catalogue, and the
/// module that draws the page asked for.
struct Shell<'a> {
    lang: &'a str,
    catalogue: &'a serde_json::Value,
    page: &'static str,
}

/// The module that draws the page at `path` (`web/app.js` imports it when
/// the page is shown): the table for a game, else the page's own.
fn page_module(path: &str) -> &'static str {
    match path.split('/').find(|s| !s.is_empty()).unwrap_or("") {
        "" => "home.js",
        "play" | "game" => "table.js",
        "rules" => "rules.js",
        "daily" => "daily.js",
        "deal" => "records.js",
        "stats" => "stats.js",
        "winnability" => "winnability.js",
        _ => "app.js",
    }
}

/// The modules `file` imports statically (`... from './x.js'`), by path in `web/`.
fn static_imports(file: &str) -> Vec<String> {
    let text = find(WEB, file)
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
    let mut out = Vec::new();
    for part in text.split("from './").skip(1) {
        if let Some(end) = part.find('\'') {
            let name = &part[..end];
            out.push(if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            });
        }
    }
    out
}

/// `app.js` and the page's module with everything they import, `app.js`'s
/// first, each level before the next: the modules a first visit needs
/// before the page can draw, in the order they are best asked for.
fn modules_for(page: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for root in ["app.js", page] {
        let mut queue = std::collections::VecDeque::from([root.to_string()]);
        while let Some(file) = queue.pop_front() {
            if seen.contains(&file) || find(WEB, &file).is_none() {
                continue;
            }
            queue.extend(static_imports(&file));
            seen.push(file);
        }
    }
    seen
}

/// The shell with `{{lang}}` and every `{{t:key}}` filled in, HTML-escaped,
/// from the catalogue; a key it lacks leaves the text empty, never the key.
/// `{{css}}` is the style sheet itself and `{{catalogue}}` the language's
/// catalogue as JSON, so a first visit asks for neither; `{{preload}}`
/// names the modules the page needs.
fn fill_shell(template: &str, shell: &Shell) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let token = &rest[start + 2..start + len];
        let text = match token.strip_prefix("t:") {
            Some(key) => shell
                .catalogue
                .get(key)
                .and_then(|v| v.as_str())
                .unwrap_or(""),
            None if token == "lang" => shell.lang,
            // The modules this page needs, so a first visit fetches them at
            // once rather than one import level at a time.
            None if token == "preload" => {
                for path in modules_for(shell.page) {
                    out.push_str("<link rel=\"modulepreload\" href=\"/static/");
                    out.push_str(build());
                    out.push('/');
                    escape_into(&mut out, &path);
                    out.push_str("\">\n");
                }
                ""
            }
            // Raw text inside `<style>`: the page's own file, which never closes the element.
            None if token == "css" => {
                let css = find(WEB, "style.css")
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default();
                out.push_str(&css.replace("</", "<\\/"));
                ""
            }
            // Raw text inside `<script type="application/json">`: `<` escaped, so it never closes the element.
            None if token == "catalogue" => {
                out.push_str(&shell.catalogue.to_string().replace('<', "\\u003c"));
                ""
            }
            None if token == "static" => {
                out.push_str("/static/");
                out.push_str(build());
                ""
            }
            None => "",
        };
        escape_into(&mut out, text);
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// `/static/{*path}`: a file of `web/`, under the build's digest or not.
pub async fn static_file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    if path.split('/').any(|seg| seg.is_empty() || seg == "..") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let (file, cache) = match path.split_once('/') {
        Some((b, rest)) if b == build() => (rest, "public, max-age=31536000, immutable"),
        // Another build's address (a page loaded before a restart): today's file, revalidated.
        Some((b, rest)) if b.starts_with("b-") => (rest, "no-cache"),
        _ => (path.as_str(), "no-cache"),
    };
    match find(WEB, file) {
        Some(body) => {
            let tag = etag(body);
            if not_modified(&headers, &tag) {
                return unchanged(&tag);
            }
            file_response(body.to_vec(), content_type(file), cache, Some(&tag))
        }
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

fn file_response(
    body: Vec<u8>,
    kind: &'static str,
    cache: &'static str,
    tag: Option<&str>,
) -> Response {
    let mut res = (
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
        .into_response();
    if let Some(v) = tag.and_then(|t| HeaderValue::from_str(t).ok()) {
        res.headers_mut().insert(header::ETAG, v);
    }
    res
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

    #[test]
    fn the_shell_is_filled_from_the_catalogue_and_escaped() {
        let cat = serde_json::json!({"site.title": "Пасьянсы <b>"});
        let shell = Shell {
            lang: "ru",
            catalogue: &cat,
            page: "app.js",
        };
        let page = fill_shell(
            "<html lang=\"{{lang}}\"><title>{{t:site.title}}</title>{{t:missing}}.",
            &shell,
        );
        assert_eq!(page, "<html lang=\"ru\"><title>Пасьянсы &lt;b&gt;</title>.");
        let data = fill_shell("<script>{{catalogue}}</script>", &shell);
        assert_eq!(
            data,
            "<script>{\"site.title\":\"Пасьянсы \\u003cb>\"}</script>"
        );
    }

    #[test]
    fn a_page_preloads_the_modules_it_imports_and_no_other_page_s() {
        let table = modules_for(page_module("/play/fan/3"));
        for m in ["app.js", "table.js", "layout.js", "i18n.js", "api.js"] {
            assert!(
                table.iter().any(|f| f == m),
                "table page lacks {m}: {table:?}"
            );
        }
        for m in ["home.js", "stats.js", "charts.js", "markdown.js"] {
            assert!(
                !table.iter().any(|f| f == m),
                "table page preloads {m}: {table:?}"
            );
        }
        let home = modules_for(page_module("/"));
        assert!(home.iter().any(|f| f == "home.js"), "{home:?}");
        assert!(modules_for(page_module("/stats"))
            .iter()
            .any(|f| f == "charts.js"));
    }

    #[test]
    fn every_shell_word_exists_in_both_catalogues() {
        let shell = String::from_utf8_lossy(find(WEB, "index.html").expect("the page is embedded"));
        for lang in Lang::ALL.map(Lang::code) {
            let cat: serde_json::Value =
                serde_json::from_slice(find(WEB, &format!("i18n/{lang}.json")).unwrap()).unwrap();
            for key in shell
                .split("{{t:")
                .skip(1)
                .map(|s| &s[..s.find("}}").unwrap()])
            {
                let word = cat.get(key).and_then(|v| v.as_str()).unwrap_or("");
                assert!(!word.is_empty(), "{lang}: {key}");
            }
        }
    }
}
