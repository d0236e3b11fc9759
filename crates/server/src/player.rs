//! Players: an unguessable 128-bit random token in the cookie `patience_player`
//! (`__Host-patience_player`, `Secure`, when the site is served over HTTPS).
//! There are no accounts; whoever holds the token is the player.
//!
//! A request without the cookie runs as a new player, but the cookie naming
//! that player is only set when the request created a game (201): an error,
//! a read, or another site's request can never replace a player's cookie.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use rand::RngCore;

/// The cookie's name over plain HTTP.
pub const COOKIE: &str = "patience_player";
/// The cookie's name over HTTPS: the prefix makes browsers require `Secure`,
/// `Path=/` and no `Domain`, so no other host can plant one.
pub const SECURE_COOKIE: &str = "__Host-patience_player";

/// How the player cookie is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CookiePolicy {
    /// The site is reached over HTTPS (a TLS proxy in front of it).
    pub secure: bool,
}

impl CookiePolicy {
    pub fn name(self) -> &'static str {
        if self.secure {
            SECURE_COOKIE
        } else {
            COOKIE
        }
    }

    /// The `Set-Cookie` value naming `player`.
    pub fn set_cookie(self, player: &Player) -> HeaderValue {
        let secure = if self.secure { "; Secure" } else { "" };
        let cookie = format!(
            "{}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000{secure}",
            self.name(),
            player.as_str()
        );
        HeaderValue::from_str(&cookie).expect("a cookie of hex digits and fixed words")
    }
}

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

/// The player named by the request's cookie `name`, if a valid one is there.
fn from_cookies(req: &Request, name: &str) -> Option<Player> {
    cookie(req.headers(), name).and_then(Player::parse)
}

/// Middleware for the routes that need a player: puts the [`Player`] in the
/// request's extensions, a new one when the request names none. The cookie is
/// set only when a new player's request created a game, or (over HTTPS) to
/// move a player's plain cookie to the secure name after any success.
pub async fn identify(
    State(policy): State<CookiePolicy>,
    mut req: Request,
    next: Next,
) -> Response {
    let named = from_cookies(&req, policy.name());
    let plain = if named.is_none() && policy.secure {
        from_cookies(&req, COOKIE)
    } else {
        None
    };
    let (player, set) = match (named, plain) {
        (Some(p), _) => (p, None),
        (None, Some(p)) => (p, Some(SetWhen::Success)),
        (None, None) => (Player::new(), Some(SetWhen::Created)),
    };
    req.extensions_mut().insert(player.clone());
    let mut res = next.run(req).await;
    let set = match set {
        Some(SetWhen::Created) => res.status() == StatusCode::CREATED,
        Some(SetWhen::Success) => res.status().is_success(),
        None => false,
    };
    if set {
        res.headers_mut()
            .append(header::SET_COOKIE, policy.set_cookie(&player));
    }
    res
}

/// When a request's answer carries the player's cookie.
enum SetWhen {
    /// A new player: only once a game exists for it.
    Created,
    /// A known player under the plain name, moved to the secure one.
    Success,
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
        assert_eq!(from_cookies(&req, COOKIE), Some(p));
        assert_eq!(from_cookies(&req, SECURE_COOKIE), None);
    }

    #[test]
    fn the_secure_cookie_has_the_host_prefix_and_secure() {
        let p = Player::new();
        let plain = CookiePolicy { secure: false }.set_cookie(&p);
        let plain = plain.to_str().unwrap();
        assert!(plain.starts_with("patience_player=") && !plain.contains("Secure"));
        let secure = CookiePolicy { secure: true }.set_cookie(&p);
        let secure = secure.to_str().unwrap();
        assert!(secure.starts_with("__Host-patience_player="), "{secure}");
        assert!(secure.contains("; Secure") && secure.contains("Path=/"));
        assert!(!secure.contains("Domain"));
    }
}
