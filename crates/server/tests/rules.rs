//! The rules pages through a real server: the language a request gets, the
//! refusal of an unknown one, and the figures filled from the store.

mod common;

use common::{temp_db, Player, Server};
use reqwest::StatusCode;
use serde_json::Value;

/// Headers a request carries, as (name, value).
type Headers<'a> = &'a [(&'a str, &'a str)];

async fn rules(server: &Server, query: &str, headers: &[(&str, &str)]) -> (StatusCode, Value) {
    let mut req = reqwest::Client::new().get(format!(
        "{}/api/games/la-belle-lucie/rules{query}",
        server.url
    ));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

#[tokio::test]
async fn the_language_comes_from_the_query_then_the_cookie_then_the_browser() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let cases: [(&str, Headers, &str); 6] = [
        ("?lang=en", &[("accept-language", "ru-RU,ru")], "en"),
        ("?lang=ru", &[("cookie", "lang=en")], "ru"),
        (
            "",
            &[("cookie", "lang=en"), ("accept-language", "ru")],
            "en",
        ),
        ("", &[("accept-language", "ru-RU,ru;q=0.9,en;q=0.8")], "ru"),
        ("", &[("accept-language", "en-US,en;q=0.9,ru;q=0.5")], "en"),
        ("", &[], "en"),
    ];
    for (query, headers, want) in cases {
        let (status, page) = rules(&server, query, headers).await;
        assert_eq!(status, StatusCode::OK, "{query} {headers:?}: {page}");
        assert_eq!(page["lang"], want, "{query} {headers:?}");
        assert_eq!(page["id"], "la-belle-lucie");
        let heading = if want == "ru" {
            "## Правила"
        } else {
            "## Rules"
        };
        assert!(page["markdown"].as_str().unwrap().contains(heading));
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_language_is_refused_with_a_code() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    for query in ["?lang=de", "?lang=", "?lang=RU", "?lang=ru&lang=en"] {
        let (status, body) = rules(&server, query, &[]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["code"], "bad_request", "{query}");
        assert!(body["error"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let mut p = Player::new(&server.url);
    let (status, body) = p.get("/api/games/no-such-game/rules?lang=ru").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "unknown_game");
    server.stop().await;
}

/// The share of a library file's deals with a known win, as a page shows it.
fn shipped_win_share(game: &str) -> (f64, usize) {
    let path = format!(
        "{}/../../data/library/{game}.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let levels: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    let won = levels
        .iter()
        .filter(|l| matches!(**l, "easy" | "medium" | "hard"))
        .count();
    (100.0 * won as f64 / levels.len() as f64, levels.len())
}

#[tokio::test]
async fn the_win_rate_is_the_store_s_in_each_language_s_numbers() {
    let db = temp_db();
    let server = Server::start_with(common::shipped(&db.path)).await;
    let (share, deals) = shipped_win_share("la-belle-lucie");
    assert!(deals >= 1000, "the library's La Belle Lucie deals: {deals}");
    // Thousands grouped as each language writes them: "2,500", "2 500".
    let grouped = |sep: &str| format!("{}{sep}{:03}", deals / 1000, deals % 1000);
    let (_, en) = rules(&server, "?lang=en", &[]).await;
    let en = en["markdown"].as_str().unwrap();
    assert!(en.contains(&format!("{share:.1}%")), "{en}");
    assert!(en.contains(&grouped(",")), "{en}");
    let (_, ru) = rules(&server, "?lang=ru", &[]).await;
    let ru = ru["markdown"].as_str().unwrap();
    let ru_share = format!("{share:.1}").replace('.', ",");
    assert!(ru.contains(&format!("{ru_share}\u{a0}%")), "{ru}");
    assert!(ru.contains(&grouped("\u{a0}")), "{ru}");
    for page in [en, ru] {
        assert!(!page.contains("{{"), "{page}");
        assert!(page.contains("\n| "), "the levels table is there");
    }
    server.stop().await;
}
