//! The player's language (Russian or English), and how a request chooses it:
//! the page's shell and the rules pages both ask here.

use axum::http::{header, HeaderMap};

/// A language the site speaks. Russian first: the games are Russian
/// patience games and most players speak Russian.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Ru,
    En,
}

/// The cookie the page sets when the player picks a language.
pub const COOKIE: &str = "lang";

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::Ru, Lang::En];

    /// The language's code, as in `?lang=ru` and file names (`fan.ru.md`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::En => "en",
        }
    }

    /// `ru` or `en` exactly; anything else is no language of ours.
    pub fn parse(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language of a request that did not name one: the `lang` cookie when
    /// it holds one of ours, else the browser's `Accept-Language` (Russian when
    /// it asks for Russian at least as much as for English), else English.
    pub fn of_request(headers: &HeaderMap) -> Lang {
        from_cookie(headers)
            .or_else(|| from_accept_language(headers))
            .unwrap_or(Lang::En)
    }
}

fn from_cookie(headers: &HeaderMap) -> Option<Lang> {
    crate::player::cookie(headers, COOKIE).and_then(Lang::parse)
}

/// The first of our languages by the browser's weights (`ru-RU,ru;q=0.9,en;q=0.8`);
/// a tie goes to Russian; a language weighted `q=0` is refused, not asked for.
fn from_accept_language(headers: &HeaderMap) -> Option<Lang> {
    let mut best: Option<(f32, Lang)> = None;
    let ranges = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for range in ranges {
        let mut parts = range.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let primary = tag.split('-').next().unwrap_or("").to_ascii_lowercase();
        let Some(lang) = Lang::parse(&primary) else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if q <= 0.0 {
            continue;
        }
        let better = match best {
            None => true,
            Some((bq, bl)) => q > bq || (q == bq && lang == Lang::Ru && bl != Lang::Ru),
        };
        if better {
            best = Some((q, lang));
        }
    }
    best.map(|(_, lang)| lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    fn accept(value: &str) -> Lang {
        Lang::of_request(&headers(&[(header::ACCEPT_LANGUAGE, value)]))
    }

    #[test]
    fn codes_parse_exactly() {
        assert_eq!(Lang::parse("ru"), Some(Lang::Ru));
        assert_eq!(Lang::parse("en"), Some(Lang::En));
        for bad in ["", "RU", "de", "ru-RU", "en "] {
            assert_eq!(Lang::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn accept_language_prefers_russian_when_asked_for_it() {
        assert_eq!(accept("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7"), Lang::Ru);
        assert_eq!(accept("de-DE, ru;q=0.5"), Lang::Ru);
        assert_eq!(accept("en-US,en;q=0.9,ru;q=0.8"), Lang::En);
        assert_eq!(accept("en, ru"), Lang::Ru, "a tie goes to Russian");
        assert_eq!(accept("ru;q=0, en;q=0.1"), Lang::En);
        assert_eq!(accept("de, fr;q=0.8"), Lang::En, "neither: English");
        assert_eq!(accept("garbage;;q=x,,"), Lang::En);
        assert_eq!(Lang::of_request(&HeaderMap::new()), Lang::En);
    }

    #[test]
    fn the_cookie_wins_over_the_browser_unless_it_is_not_ours() {
        let h = headers(&[
            (header::COOKIE, "patience_player=abc; lang=en"),
            (header::ACCEPT_LANGUAGE, "ru"),
        ]);
        assert_eq!(Lang::of_request(&h), Lang::En);
        let h = headers(&[
            (header::COOKIE, "lang=klingon"),
            (header::ACCEPT_LANGUAGE, "ru"),
        ]);
        assert_eq!(Lang::of_request(&h), Lang::Ru);
    }
}
