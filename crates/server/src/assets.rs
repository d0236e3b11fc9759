//! The page's files, served from the binary: `web/index.html` for every page
//! route (the page reads the route itself), and `web/<path>` under `/static/`.
//!
//! The shell is served in the player's language: `<html lang>` and the few
//! words of its first paint come from the same message catalogue the page
//! uses (`web/i18n/{lang}.json`), chosen by the `lang` cookie the page's
//! РУ / EN switch sets, else by `Accept-Language`. The address never changes
//! with the language.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::embedded::{find, WEB};

/// Shown when the build had no `web/index.html`, so that a bare server still says something useful.
const NO_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Patience</title>\
<p>The page was not built into this server (no web/index.html). The API is at <a href=/api/games>/api/games</a>.</p>";

/// The page's languages; the first is the one for a browser that asks for neither.
const LANGUAGES: [&str; 2] = ["en", "ru"];

/// `/`, `/play/...`, `/game/...`, `/rules/...`: the one page, in the player's language.
pub async fn index(headers: HeaderMap) -> Response {
    let Some(template) = find(WEB, "index.html") else {
        return file_response(NO_PAGE.as_bytes(), "text/html; charset=utf-8", "no-cache");
    };
    let lang = language(
        headers.get(header::COOKIE).and_then(|v| v.to_str().ok()),
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    let catalogue = find(WEB, &format!("i18n/{lang}.json"))
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    let page = fill_shell(&String::from_utf8_lossy(template), lang, &catalogue);
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::VARY,
                HeaderValue::from_static("Cookie, Accept-Language"),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        page,
    )
        .into_response()
}

/// The page's language: the `lang` cookie when it names one, else the first
/// language of `Accept-Language` (by its weights) that the page speaks, else English.
pub fn language(cookie: Option<&str>, accept: Option<&str>) -> &'static str {
    let chosen = cookie
        .into_iter()
        .flat_map(|c| c.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == "lang").then(|| known(value))?
        });
    if let Some(lang) = chosen {
        return lang;
    }
    let mut asked: Vec<(f32, usize, &'static str)> = accept
        .unwrap_or("")
        .split(',')
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.trim().split(';');
            let tag = parts.next()?.trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let primary = tag.split('-').next()?.to_ascii_lowercase();
            Some((q, i, known(&primary)?))
        })
        .filter(|(q, _, _)| *q > 0.0)
        .collect();
    asked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    asked.first().map_or(LANGUAGES[0], |a| a.2)
}

fn known(tag: &str) -> Option<&'static str> {
    LANGUAGES
        .into_iter()
        .find(|l| l.eq_ignore_ascii_case(tag.trim()))
}

/// The shell with `{{lang}}` and every `{{t:key}}` filled in, HTML-escaped,
/// from the catalogue; a key it lacks leaves the text empty, never the key.
fn fill_shell(template: &str, lang: &str, catalogue: &serde_json::Value) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let token = &rest[start + 2..start + len];
        let text = match token.strip_prefix("t:") {
            Some(key) => catalogue.get(key).and_then(|v| v.as_str()).unwrap_or(""),
            None if token == "lang" => lang,
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

    #[test]
    fn the_cookie_choice_wins_over_the_browser() {
        assert_eq!(
            language(Some("uid=x; lang=ru"), Some("en-US,en;q=0.9")),
            "ru"
        );
        assert_eq!(language(Some("lang=en"), Some("ru-RU,ru;q=0.9")), "en");
        // A cookie naming no language of ours is ignored.
        assert_eq!(language(Some("lang=de"), Some("ru")), "ru");
    }

    #[test]
    fn accept_language_picks_russian_or_english_by_weight() {
        assert_eq!(language(None, Some("ru-RU,ru;q=0.9,en;q=0.8")), "ru");
        assert_eq!(language(None, Some("de-DE,ru;q=0.5,en;q=0.7")), "en");
        assert_eq!(language(None, Some("de-DE,ru;q=0.5")), "ru");
        assert_eq!(language(None, Some("fr-FR,de")), "en");
        assert_eq!(language(None, Some("ru;q=0")), "en");
        assert_eq!(language(None, None), "en");
    }

    #[test]
    fn the_shell_is_filled_from_the_catalogue_and_escaped() {
        let cat = serde_json::json!({"site.title": "Пасьянсы <b>"});
        let page = fill_shell(
            "<html lang=\"{{lang}}\"><title>{{t:site.title}}</title>{{t:missing}}.",
            "ru",
            &cat,
        );
        assert_eq!(page, "<html lang=\"ru\"><title>Пасьянсы &lt;b&gt;</title>.");
    }

    #[test]
    fn every_shell_word_exists_in_both_catalogues() {
        let shell = String::from_utf8_lossy(find(WEB, "index.html").expect("the page is embedded"));
        for lang in LANGUAGES {
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
