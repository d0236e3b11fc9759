//! The measured figures a rules page quotes, and the placeholders that put
//! them into its text.
//!
//! The pages never type a figure: they say `{{won}}`, and the server fills
//! it from the graded deals in the store, so the page and the store can never
//! disagree. A deal counts as won when its level is Easy, Medium or Hard (a
//! win is known), as lost when the solver proved that no win exists, and as
//! undecided when the solver's budget ran out: the win rate is therefore a
//! lower bound, and the pages say so.
//!
//! Placeholders: `{{deals}}` (graded deals), `{{won}}` (share won),
//! `{{won_ci}}` (its 95% Wilson interval), `{{lost}}`, `{{unknown}}`,
//! `{{easy}}`, `{{medium}}`, `{{hard}}` (shares of the graded deals), and
//! `{{levels}}`, on a line of its own: a table of the levels' deals and shares.

use patience_solver::levels::Level;
use patience_solver::stats::wilson;

use crate::lang::Lang;

/// How many graded deals of one game each level holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub easy: u64,
    pub medium: u64,
    pub hard: u64,
    pub unwinnable: u64,
    pub unknown: u64,
}

impl Figures {
    /// From the store's `(level, deals)` counts.
    pub fn from_counts(counts: &[(Level, u64)]) -> Figures {
        let mut f = Figures::default();
        for (level, n) in counts {
            let slot = match level {
                Level::Easy => &mut f.easy,
                Level::Medium => &mut f.medium,
                Level::Hard => &mut f.hard,
                Level::Unwinnable => &mut f.unwinnable,
                Level::Unknown => &mut f.unknown,
            };
            *slot += n;
        }
        f
    }

    pub fn deals(&self) -> u64 {
        self.easy + self.medium + self.hard + self.unwinnable + self.unknown
    }

    /// Deals with a known win.
    pub fn won(&self) -> u64 {
        self.easy + self.medium + self.hard
    }
}

/// `template` with every placeholder of the module documentation filled in
/// `lang`. A placeholder of no known name is left as written (the tests fail
/// on any that remains).
pub fn fill(template: &str, lang: Lang, f: &Figures) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let start = 0;
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            rest = &rest[start..];
            break;
        };
        match value(after[..end].trim(), lang, f) {
            Some(v) => out.push_str(&v),
            None => out.push_str(&rest[start..start + 2 + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

fn value(name: &str, lang: Lang, f: &Figures) -> Option<String> {
    let n = f.deals();
    Some(match name {
        "deals" => number(n, lang),
        "won" => share(f.won(), n, lang),
        "won_ci" => interval(f.won(), n, lang),
        "lost" => share(f.unwinnable, n, lang),
        "unknown" => share(f.unknown, n, lang),
        "easy" => share(f.easy, n, lang),
        "medium" => share(f.medium, n, lang),
        "hard" => share(f.hard, n, lang),
        "levels" => levels_table(f, lang),
        _ => return None,
    })
}

/// Shown for a share of no deals at all.
const NO_DATA: &str = "—";

/// A count with the thousands grouped: `20 000` (a no-break space) or `20,000`.
pub fn number(n: u64, lang: Lang) -> String {
    let sep = match lang {
        Lang::Ru => '\u{a0}',
        Lang::En => ',',
    };
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// One decimal in the language's way: `95,1` or `95.1`.
fn decimal(fraction: f64, lang: Lang) -> String {
    let s = format!("{:.1}", 100.0 * fraction);
    match lang {
        Lang::Ru => s.replace('.', ","),
        Lang::En => s,
    }
}

fn percent_sign(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "\u{a0}%",
        Lang::En => "%",
    }
}

/// `k` of `n` as a percentage with one decimal. A share that is neither none
/// nor all never rounds to `0.0%` or `100.0%`: it reads "under 0.1%" or
/// "over 99.9%".
pub fn share(k: u64, n: u64, lang: Lang) -> String {
    if n == 0 {
        return NO_DATA.to_string();
    }
    let p = k as f64 / n as f64;
    let pct = percent_sign(lang);
    if k > 0 && p < 0.0005 {
        return match lang {
            Lang::Ru => format!("меньше 0,1{pct}"),
            Lang::En => format!("under 0.1{pct}"),
        };
    }
    if k < n && p >= 0.9995 {
        return match lang {
            Lang::Ru => format!("больше 99,9{pct}"),
            Lang::En => format!("over 99.9{pct}"),
        };
    }
    format!("{}{pct}", decimal(p, lang))
}

/// The 95% Wilson interval of `k` of `n`: `94,8–95,4 %` or `94.8–95.4%`.
pub fn interval(k: u64, n: u64, lang: Lang) -> String {
    if n == 0 {
        return NO_DATA.to_string();
    }
    let (lo, hi) = wilson(k, n);
    format!(
        "{}–{}{}",
        decimal(lo, lang),
        decimal(hi, lang),
        percent_sign(lang)
    )
}

/// A Markdown table: each level, its deals and its share of the graded deals.
fn levels_table(f: &Figures, lang: Lang) -> String {
    let (head, names) = match lang {
        Lang::Ru => (
            ["Уровень", "Раскладов", "Доля"],
            ["Лёгкий", "Средний", "Сложный", "Выигрыша нет", "Не решён"],
        ),
        Lang::En => (
            ["Level", "Deals", "Share"],
            ["Easy", "Medium", "Hard", "No win possible", "Undecided"],
        ),
    };
    let counts = [f.easy, f.medium, f.hard, f.unwinnable, f.unknown];
    let n = f.deals();
    let mut out = format!("| {} | {} | {} |\n|---|---|---|", head[0], head[1], head[2]);
    for (name, k) in names.iter().zip(counts) {
        out.push_str(&format!(
            "\n| {name} | {} | {} |",
            number(k, lang),
            share(k, n, lang)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lucie() -> Figures {
        // La Belle Lucie's library, deals 1..20000.
        Figures {
            easy: 18233,
            medium: 0,
            hard: 851,
            unwinnable: 363,
            unknown: 553,
        }
    }

    #[test]
    fn counts_come_from_the_store_s_levels() {
        let counts = [(Level::Easy, 5), (Level::Hard, 2), (Level::Unknown, 1)];
        let f = Figures::from_counts(&counts);
        assert_eq!((f.deals(), f.won()), (8, 7));
        assert_eq!((f.easy, f.hard, f.unknown), (5, 2, 1));
    }

    #[test]
    fn numbers_are_grouped_per_language() {
        assert_eq!(number(20000, Lang::Ru), "20\u{a0}000");
        assert_eq!(number(20000, Lang::En), "20,000");
        assert_eq!(number(1234567, Lang::En), "1,234,567");
        assert_eq!(number(999, Lang::Ru), "999");
        assert_eq!(number(0, Lang::En), "0");
    }

    #[test]
    fn shares_use_the_language_s_decimal_mark_and_never_round_to_none_or_all() {
        assert_eq!(share(19084, 20000, Lang::Ru), "95,4\u{a0}%");
        assert_eq!(share(19084, 20000, Lang::En), "95.4%");
        assert_eq!(share(0, 20000, Lang::En), "0.0%");
        assert_eq!(share(3, 20000, Lang::En), "under 0.1%");
        assert_eq!(share(19997, 20000, Lang::Ru), "больше 99,9\u{a0}%");
        assert_eq!(share(20000, 20000, Lang::En), "100.0%");
        assert_eq!(share(0, 0, Lang::En), NO_DATA);
    }

    #[test]
    fn the_interval_is_wilson_s() {
        // 10 of 100: 5.52%..17.44%.
        assert_eq!(interval(10, 100, Lang::En), "5.5–17.4%");
        assert_eq!(interval(10, 100, Lang::Ru), "5,5–17,4\u{a0}%");
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_are_left() {
        let f = lucie();
        let text = fill(
            "{{deals}} deals, {{won}} won ({{won_ci}}), {{lost}} lost, {{ nope }}, {{easy}}",
            Lang::En,
            &f,
        );
        assert_eq!(
            text,
            "20,000 deals, 95.4% won (95.1–95.7%), 1.8% lost, {{ nope }}, 91.2%"
        );
        assert_eq!(fill("a {{won", Lang::En, &f), "a {{won");
    }

    #[test]
    fn the_levels_table_lists_every_level_in_the_language() {
        let ru = fill("{{levels}}", Lang::Ru, &lucie());
        assert!(ru.starts_with("| Уровень | Раскладов | Доля |\n|---|---|---|\n"));
        assert!(
            ru.contains("| Лёгкий | 18\u{a0}233 | 91,2\u{a0}% |"),
            "{ru}"
        );
        assert!(ru.contains("| Средний | 0 | 0,0\u{a0}% |"), "{ru}");
        assert_eq!(ru.lines().count(), 7);
        let en = fill("{{levels}}", Lang::En, &lucie());
        assert!(en.contains("| No win possible | 363 | 1.8% |"), "{en}");
    }
}
