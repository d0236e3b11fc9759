//! Players' display names: what a record shows instead of «anonymous». A
//! name is bounded and plain text (no markup, no control or direction
//! characters), checked by [`DisplayName::parse`], so the store holds no
//! other; the page still shows it escaped.

use rusqlite::{params, OptionalExtension};

use crate::error::StoreError;
use crate::Store;

/// The longest display name, in characters.
pub const NAME_MAX: usize = 24;

/// A display name that passed [`DisplayName::parse`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct DisplayName(String);

/// Why a display name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name is at most {NAME_MAX} characters")]
    TooLong,
    #[error("a name is plain text: no `<`, `>`, control or direction characters")]
    NotPlain,
}

impl DisplayName {
    /// The name as it will be shown: spaces at the ends dropped and runs of
    /// spaces made one; `None` for a name left empty (no name: anonymous).
    pub fn parse(text: &str) -> Result<Option<DisplayName>, NameError> {
        let mut out = String::new();
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        if out.chars().any(|c| !plain(c)) {
            return Err(NameError::NotPlain);
        }
        if out.chars().count() > NAME_MAX {
            return Err(NameError::TooLong);
        }
        Ok((!out.is_empty()).then_some(DisplayName(out)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A character a name may hold: not markup, not a control character, and
/// not one of the invisible characters that change the direction or the
/// joining of the text around them.
fn plain(c: char) -> bool {
    !(c == '<'
        || c == '>'
        || c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'))
}

impl Store {
    /// Sets the player's display name, or clears it with `None`.
    pub fn set_name(
        &self,
        player: &str,
        name: Option<&DisplayName>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        match name {
            Some(n) => self
                .conn
                .prepare_cached(
                    "INSERT INTO player_names (player, name, updated_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT (player) DO UPDATE SET name = excluded.name, updated_ms = excluded.updated_ms",
                )?
                .execute(params![player, n.as_str(), now_ms])?,
            None => self
                .conn
                .prepare_cached("DELETE FROM player_names WHERE player = ?1")?
                .execute([player])?,
        };
        Ok(())
    }

    /// The player's display name, if one is set (a stored one that no longer
    /// passes [`DisplayName::parse`] reads as none).
    pub fn name_of(&self, player: &str) -> Result<Option<DisplayName>, StoreError> {
        let stored: Option<String> = self
            .conn
            .prepare_cached("SELECT name FROM player_names WHERE player = ?1")?
            .query_row([player], |r| r.get(0))
            .optional()?;
        Ok(stored.and_then(|s| DisplayName::parse(&s).ok().flatten()))
    }

    /// Whether the player has any stored game (a player exists once a game does).
    pub fn has_games(&self, player: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM games WHERE player = ?1 LIMIT 1")?
            .query_row([player], |_| Ok(()))
            .optional()?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    #[test]
    fn names_are_trimmed_bounded_and_plain() {
        let ok = |s: &str| DisplayName::parse(s).unwrap().map(|n| n.0);
        assert_eq!(ok("  Анна   К. "), Some("Анна К.".into()));
        assert_eq!(ok("   "), None);
        assert_eq!(ok(&"я".repeat(NAME_MAX)), Some("я".repeat(NAME_MAX)));
        assert_eq!(
            DisplayName::parse(&"я".repeat(NAME_MAX + 1)),
            Err(NameError::TooLong)
        );
        for bad in ["<b>x</b>", "a>b", "a\u{0007}", "ab\u{202E}cd", "x\u{200B}y"] {
            assert_eq!(DisplayName::parse(bad), Err(NameError::NotPlain), "{bad:?}");
        }
    }

    #[test]
    fn a_name_is_set_replaced_and_cleared() {
        let (_dir, store) = temp_store();
        let n = |s: &str| DisplayName::parse(s).unwrap().unwrap();
        assert_eq!(store.name_of("p").unwrap(), None);
        store.set_name("p", Some(&n("Ann")), 1).unwrap();
        store.set_name("p", Some(&n("Анна")), 2).unwrap();
        assert_eq!(store.name_of("p").unwrap(), Some(n("Анна")));
        assert_eq!(store.name_of("q").unwrap(), None);
        store.set_name("p", None, 3).unwrap();
        assert_eq!(store.name_of("p").unwrap(), None);
    }
}
