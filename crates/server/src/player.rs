//! Players: an unguessable 128-bit random token in the cookie `patience_player`.
//! There are no accounts; whoever holds the token is the player.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use rand::RngCore;

pub const COOKIE: &str = "patience_player";

/// A player's token: 32 lowercase hex digits. Only the server makes new ones.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player(String);

impl Player {
    /// A fresh token from the operating system's random source.
    pub fn new() -> Player {
        Player(random_hex128())
    }

    /// A token as the cookie carries it; anything but 32 lowercase hex digits is refused.
    pub fn parse(text: &str) -> Option<Player> {
        is_hex128(text).then(|| Player(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

/// 128 random bits as hex: player tokens and game uids.
pub fn random_hex128() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `text` is 32 lowercase hex digits.
pub fn is_hex128(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The value of the first cookie called `name` in the request's headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.trim())
}

/// The player named by the request's cookies, if any valid one is there.
fn from_cookies(req: &Request) -> Option<Player> {
    cookie(req.headers(), COOKIE).and_then(Player::parse)
}

/// Middleware for the routes that need a player: puts the [`Player`] in the
/// request's extensions, making one (and setting the cookie) when there is none.
pub async fn identify(mut req: Request, next: Next) -> Response {
    let (player, fresh) = match from_cookies(&req) {
        Some(p) => (p, false),
        None => (Player::new(), true),
    };
    req.extensions_mut().insert(player.clone());
    let mut res = next.run(req).await;
    if fresh {
        let cookie = format!(
            "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000",
            player.as_str()
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_distinct() {
        let a = Player::new();
        let b = Player::new();
        assert!(is_hex128(a.as_str()));
        assert_ne!(a, b);
        assert_eq!(Player::parse(a.as_str()), Some(a));
    }

    #[test]
    fn foreign_tokens_are_refused() {
        for t in [
            "",
            "abc",
            &"A".repeat(32),
            &"g".repeat(32),
            &"0".repeat(33),
            "ж",
        ] {
            assert_eq!(Player::parse(t), None, "{t:?}");
        }
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let p = Player::new();
        let req = Request::builder()
            .header(header::COOKIE, format!("a=1; {COOKIE}={}; b=2", p.as_str()))
            .body(axum::body::Body::empty())
            .unwrap();
        assert_eq!(from_cookies(&req), Some(p));
    }
}
