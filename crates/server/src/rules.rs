//! The rules pages: one `## <game-id>` section of `docs/games.md` per game.

use crate::embedded::GAMES_MD;

/// The markdown of a game's section, heading included; `None` when the rule book has none.
pub fn section(game_id: &str) -> Option<&'static str> {
    section_of(GAMES_MD, game_id)
}

fn section_of<'a>(book: &'a str, game_id: &str) -> Option<&'a str> {
    let mut start = None;
    let mut offset = 0;
    for line in book.split_inclusive('\n') {
        let heading = line.strip_prefix("## ").map(str::trim);
        match (start, heading) {
            (None, Some(h)) if h == game_id => start = Some(offset),
            (Some(s), Some(_)) => return Some(book[s..offset].trim_end()),
            _ => {}
        }
        offset += line.len();
    }
    start.map(|s| book[s..].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_runs_to_the_next_game_heading() {
        let book =
            "# The games\n\n## fan\n\nKings fill spaces.\n### Play\nx\n\n## fan-layout\n\nOther.\n";
        assert_eq!(
            section_of(book, "fan"),
            Some("## fan\n\nKings fill spaces.\n### Play\nx")
        );
        assert_eq!(
            section_of(book, "fan-layout"),
            Some("## fan-layout\n\nOther.")
        );
        assert_eq!(section_of(book, "fa"), None);
    }

    #[test]
    fn the_embedded_book_has_la_belle_lucie() {
        assert!(section("la-belle-lucie").is_some_and(|s| s.starts_with("## la-belle-lucie")));
    }
}
