//! The embedded pages against the catalogue: every game has both pages, each
//! with its sections, no pile codes and nothing left unfilled.

use super::*;
use crate::embedded::RULES;

/// Figures of no particular game, so every placeholder has something to say.
fn some_figures() -> Figures {
    Figures {
        easy: 700,
        medium: 50,
        hard: 100,
        unwinnable: 100,
        unknown: 50,
    }
}

fn every_page() -> Vec<(&'static str, Lang, String)> {
    let mut out = Vec::new();
    for g in patience_engine::games() {
        for lang in Lang::ALL {
            let page = page(g.id, lang, &some_figures())
                .unwrap_or_else(|| panic!("{} has no {} page", g.id, lang.code()));
            out.push((g.id, lang, page));
        }
    }
    out
}

#[test]
fn every_game_has_a_page_in_both_languages_and_no_file_is_stray() {
    assert_eq!(every_page().len(), 2 * patience_engine::games().len());
    for (path, _) in RULES {
        if *path == "README.md" {
            continue;
        }
        let known = patience_engine::games().iter().any(|g| {
            Lang::ALL
                .iter()
                .any(|l| *path == format!("{}.{}.md", g.id, l.code()))
        });
        assert!(known, "{path} is no game's page");
    }
}

#[test]
fn every_page_has_an_introduction_then_its_sections_in_order() {
    for (game, lang, page) in every_page() {
        let headings: Vec<&str> = page
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(str::trim)
            .collect();
        assert_eq!(headings, sections(lang), "{game}.{}", lang.code());
        let intro = page.split("\n## ").next().unwrap_or("");
        assert!(
            intro.trim().len() > 100 && !intro.starts_with('#'),
            "{game}.{}: an introduction comes first",
            lang.code()
        );
    }
}

/// The text of one `## ` section.
fn section<'a>(page: &'a str, heading: &str) -> &'a str {
    let start = page.find(&format!("## {heading}\n")).unwrap() + heading.len() + 4;
    let rest = &page[start..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
fn the_rules_are_numbered_and_the_questions_are_asked() {
    for (game, lang, page) in every_page() {
        let [_, rules, tips, questions] = sections(lang);
        let numbered = section(&page, rules)
            .lines()
            .filter(|l| {
                l.split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .count();
        assert!(
            numbered >= 4,
            "{game}.{}: {numbered} numbered rules",
            lang.code()
        );
        let tips = section(&page, tips)
            .lines()
            .filter(|l| l.starts_with("- "))
            .count();
        assert!(tips >= 3, "{game}.{}: {tips} tips", lang.code());
        let asked = section(&page, questions)
            .lines()
            .filter(|l| l.starts_with("### ") && l.trim_end().ends_with('?'))
            .count();
        assert!(asked >= 2, "{game}.{}: {asked} questions", lang.code());
    }
}

#[test]
fn every_page_quotes_the_measured_figures() {
    for g in patience_engine::games() {
        for lang in Lang::ALL {
            let t = template(g.id, lang).unwrap();
            for needed in ["{{won}}", "{{won_ci}}", "{{levels}}"] {
                assert!(
                    t.contains(needed),
                    "{}.{} lacks {needed}",
                    g.id,
                    lang.code()
                );
            }
        }
    }
}

#[test]
fn no_page_names_a_pile_by_its_code_or_keeps_a_placeholder() {
    for (game, lang, page) in every_page() {
        for word in page.split(|c: char| !c.is_alphanumeric()) {
            let mut chars = word.chars();
            let code = matches!(chars.next(), Some('t' | 'f' | 'c' | 'T' | 'F' | 'C'))
                && !chars.as_str().is_empty()
                && chars.all(|c| c.is_ascii_digit());
            assert!(!code, "{game}.{}: pile code `{word}`", lang.code());
        }
        assert!(
            !page.contains("{{") && !page.contains("}}"),
            "{game}.{}: a placeholder is left",
            lang.code()
        );
        assert!(
            !page.contains('`'),
            "{game}.{}: code spans are for developers",
            lang.code()
        );
    }
}

#[test]
fn a_russian_page_is_written_in_russian_and_an_english_one_in_english() {
    for (game, lang, page) in every_page() {
        let letters = page.chars().filter(|c| c.is_alphabetic());
        let (cyrillic, all) = letters.fold((0, 0), |(c, a), ch| {
            (
                c + usize::from(('\u{400}'..='\u{4ff}').contains(&ch)),
                a + 1,
            )
        });
        let share = cyrillic as f64 / all as f64;
        match lang {
            Lang::Ru => assert!(share > 0.95, "{game}.ru: {share:.2} Cyrillic"),
            Lang::En => assert!(share < 0.02, "{game}.en: {share:.2} Cyrillic"),
        }
    }
}
