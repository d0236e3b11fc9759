//! The rules pages: one Markdown file a game and language, written for
//! players (`crates/server/rules/<game-id>.<lang>.md`, embedded), with the
//! measured figures filled in from the store (see [`figures`]).
//!
//! `docs/games.md` stays the developers' precise statement of the rules; these
//! pages say the same rules as a player would, with how to play them on this
//! site, tips, and questions.
//!
//! - [`lang`](crate::lang): the two languages and how a request picks one;
//! - [`figures`]: the placeholders and the figures that fill them.

pub mod figures;

use crate::embedded::{find, RULES};

pub use crate::lang::Lang;
pub use figures::{fill, Figures};

/// The section headings every page has, in this order, per language.
pub fn sections(lang: Lang) -> [&'static str; 4] {
    match lang {
        Lang::Ru => ["Как играть здесь", "Правила", "Советы", "Вопросы"],
        Lang::En => ["How to play here", "Rules", "Tips", "Questions"],
    }
}

/// The embedded page of a game in a language, placeholders unfilled.
pub fn template(game_id: &str, lang: Lang) -> Option<&'static str> {
    let bytes = find(RULES, &format!("{game_id}.{}.md", lang.code()))?;
    std::str::from_utf8(bytes).ok()
}

/// The page of a game in a language with the figures filled in.
pub fn page(game_id: &str, lang: Lang, figures: &Figures) -> Option<String> {
    template(game_id, lang).map(|t| fill(t, lang, figures))
}

#[cfg(test)]
mod tests;
