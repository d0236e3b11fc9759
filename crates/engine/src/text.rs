//! The position text form, and the plain fan form lblsolve reads.
//!
//! Position text: a header of `key: value` lines, then one pile a line, its
//! name, a colon, and its cards bottom first:
//!
//! ```text
//! game: la-belle-lucie
//! deal: 1
//! redeals-used: 0
//! draw-used: no
//! t1: 7C KD 2H
//! f1: AS 2S
//! ```
//!
//! Piles not listed are empty. The stock is listed bottom first too, so its
//! last card is the next one dealt. Without a `deal:` line (or with `deal: 0`)
//! the deal is unknown: see [`Position::missing_deal_number`] for what that
//! means for a redeal that shuffles.
//!
//! Plain form (section 1 games): one fan per line, cards separated by spaces;
//! every card not listed is on the foundations. Its deal is unknown.

use std::fmt::Write;

use crate::card::{shorten, Card, CardError};
use crate::catalogue;
use crate::layout::PileKind;
use crate::position::{Position, SetupError, MAX_DEAL};
use crate::spec::{Direction, GameSpec};

/// Longest position text accepted; a longer one is refused before it is read.
pub const MAX_TEXT: usize = 64 * 1024;

/// Why a position text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Nothing but blanks and comments.
    #[error("the text is empty")]
    Empty,
    /// Longer than [`MAX_TEXT`] bytes; the text is not read.
    #[error("the text is {0} bytes; at most {MAX_TEXT} are read")]
    TooLong(usize),
    /// A line that cannot be read.
    #[error("line {line}: {message}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A game id the catalogue does not hold (quoted, shortened).
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    /// Neither the text nor the caller names the game.
    #[error("no game named: give one (a `game:` line, or the command's GAME)")]
    NoGame,
    /// The text names another game than the caller asked for.
    #[error("the text names game `{text}` but `{given}` was asked for")]
    GameMismatch {
        /// The game the text names.
        text: String,
        /// The game the caller asked for.
        given: String,
    },
    /// A card that cannot be read.
    #[error("line {line}: {source}")]
    Card {
        /// The line's number, from 1.
        line: usize,
        /// Why the card cannot be read.
        source: CardError,
    },
    /// The piles read do not make a position of the game.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// The plain form was given for a game with piles other than fans and foundations.
    #[error("the plain fan form is for the fan games of rule book section 1, not `{0}`")]
    PlainNotSupported(&'static str),
    /// Cards neither listed nor able to be on the foundations (listed).
    #[error("these cards are neither in the fans nor can they be on the foundations: {0}")]
    NotOnFoundations(String),
    /// More fans listed than the game has (listed, allowed).
    #[error("{0} fans listed but the game has {1}")]
    TooManyFans(usize, usize),
}

impl Position {
    /// The position text form (see the module documentation).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "game: {}", self.spec.id);
        let _ = writeln!(s, "deal: {}", self.deal);
        let _ = writeln!(s, "redeals-used: {}", self.redeals_used);
        if self.spec.draw != crate::spec::Draw::Never {
            let _ = writeln!(
                s,
                "draw-used: {}",
                if self.draw_used { "yes" } else { "no" }
            );
        }
        for id in self.layout.ids() {
            let _ = write!(s, "{}:", self.layout.name(id));
            for c in self.pile(id) {
                let _ = write!(s, " {c}");
            }
            s.push('\n');
        }
        s
    }

    /// Reads a position text, or, when no line has a colon, the plain fan form.
    /// `game` names the game where the text does not.
    pub fn from_text(text: &str, game: Option<&str>) -> Result<Position, TextError> {
        if text.len() > MAX_TEXT {
            return Err(TextError::TooLong(text.len()));
        }
        if text.trim().is_empty() {
            return Err(TextError::Empty);
        }
        let given = match game {
            Some(id) => {
                Some(catalogue::game(id).ok_or_else(|| TextError::UnknownGame(shorten(id)))?)
            }
            None => None,
        };
        let meaningful = |l: &&str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
        if !text.lines().filter(meaningful).any(|l| l.contains(':')) {
            return from_plain(text, given.ok_or(TextError::NoGame)?);
        }
        let mut spec = given;
        let mut deal = 0u64;
        let mut redeals = 0u8;
        let mut draw = false;
        let mut piles: Vec<(usize, &str, &str)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let err = |m: String| TextError::Line {
                line: n,
                message: m,
            };
            if !meaningful(&line) {
                continue;
            }
            let (key, value) = line.split_once(':').ok_or_else(|| {
                err(format!(
                    "expected `name: value`, got `{}`",
                    shorten(line.trim())
                ))
            })?;
            let (key, value) = (key.trim(), value.trim());
            match key {
                "game" => {
                    let g = catalogue::game(value)
                        .ok_or_else(|| TextError::UnknownGame(shorten(value)))?;
                    if let Some(s) = spec.filter(|s| s.id != g.id) {
                        return Err(TextError::GameMismatch {
                            text: g.id.into(),
                            given: s.id.into(),
                        });
                    }
                    spec = Some(g);
                }
                "deal" => {
                    deal = value
                        .parse()
                        .ok()
                        .filter(|d| *d <= MAX_DEAL)
                        .ok_or_else(|| err(format!("bad deal number `{}`", shorten(value))))?
                }
                "redeals-used" => {
                    redeals = value
                        .parse()
                        .map_err(|_| err(format!("bad redeal count `{}`", shorten(value))))?
                }
                "draw-used" => {
                    draw = match value {
                        "yes" => true,
                        "no" => false,
                        _ => {
                            return Err(err(format!(
                                "draw-used is `yes` or `no`, not `{}`",
                                shorten(value)
                            )))
                        }
                    }
                }
                _ => piles.push((n, key, value)),
            }
        }
        let spec = spec.ok_or(TextError::NoGame)?;
        let layout = crate::layout::Layout::of(spec);
        let mut cards: Vec<Option<Vec<Card>>> = vec![None; layout.piles as usize];
        for (n, key, value) in piles {
            let err = |m: String| TextError::Line {
                line: n,
                message: m,
            };
            let id = layout
                .parse(key)
                .ok_or_else(|| err(format!("no pile `{}` in {}", shorten(key), spec.id)))?;
            if cards[id.index()].is_some() {
                return Err(err(format!("pile {key} is listed twice")));
            }
            cards[id.index()] = Some(parse_cards(value, n)?);
        }
        let piles = cards.into_iter().map(Option::unwrap_or_default).collect();
        Ok(Position::from_parts(spec, deal, piles, redeals, draw)?)
    }
}

fn parse_cards(text: &str, line: usize) -> Result<Vec<Card>, TextError> {
    let mut v = Vec::new();
    for word in text.split_whitespace() {
        if v.len() > 128 {
            return Err(TextError::Line {
                line,
                message: "more cards in one pile than any game holds".into(),
            });
        }
        v.push(Card::parse(word).map_err(|source| TextError::Card { line, source })?);
    }
    Ok(v)
}

/// Whether a game can be read from the plain fan form: only fans and foundations.
pub fn reads_plain_form(spec: &GameSpec) -> bool {
    spec.reserve == 0 && spec.cells == 0 && !spec.has_stock && spec.waste == 0 && !spec.krug_bases
}

fn from_plain(text: &str, spec: &'static GameSpec) -> Result<Position, TextError> {
    if !reads_plain_form(spec) {
        return Err(TextError::PlainNotSupported(spec.id));
    }
    let layout = crate::layout::Layout::of(spec);
    let mut piles: Vec<Vec<Card>> = vec![Vec::new(); layout.piles as usize];
    let mut fans = 0;
    let mut counts = [0usize; Card::COUNT];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cards = parse_cards(&line.replace(',', " "), i + 1)?;
        if fans >= layout.tableau as usize {
            return Err(TextError::TooManyFans(fans + 1, layout.tableau as usize));
        }
        for c in &cards {
            if !spec.holds(*c) {
                return Err(SetupError::ForeignCard { card: *c }.into());
            }
            counts[c.index()] += 1;
            if counts[c.index()] > spec.decks as usize {
                return Err(SetupError::TooMany {
                    card: *c,
                    count: counts[c.index()],
                    decks: spec.decks,
                }
                .into());
            }
        }
        piles[fans] = cards;
        fans += 1;
    }
    // Missing cards go to the foundations: each foundation takes, in its
    // direction, as many of its suit's missing cards in sequence as there are.
    let mut missing = [0usize; Card::COUNT];
    for c in spec.pack() {
        missing[c.index()] += 1;
    }
    for (i, n) in counts.iter().enumerate() {
        missing[i] -= n;
    }
    let mut order: Vec<_> = spec.ranks.ranks().into_iter().collect();
    for (fi, rule) in spec.foundations.iter().enumerate() {
        let Some(suit) = rule.suit else { continue };
        let pile = &mut piles[layout.foundation(fi as u8).index()];
        let seq: Vec<_> = match rule.direction {
            Direction::Up => order.clone(),
            Direction::Down => {
                order.reverse();
                let s = order.clone();
                order.reverse();
                s
            }
        };
        for rank in seq.into_iter().take(rule.capacity as usize) {
            let c = Card::new(rank, suit);
            if missing[c.index()] == 0 {
                break;
            }
            missing[c.index()] -= 1;
            pile.push(c);
        }
    }
    let left: Vec<String> = spec
        .pack()
        .into_iter()
        .filter(|c| {
            let m = &mut missing[c.index()];
            let has = *m > 0;
            *m = m.saturating_sub(1);
            has
        })
        .map(|c| c.to_string())
        .collect();
    if !left.is_empty() {
        return Err(TextError::NotOnFoundations(left.join(" ")));
    }
    let _ = PileKind::Stock;
    Ok(Position::from_parts(spec, 0, piles, 0, false)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{game, games};

    #[test]
    fn position_text_round_trips_for_every_game() {
        for g in games() {
            let p = Position::deal(g, 7).unwrap();
            let back = Position::from_text(&p.to_text(), None).unwrap();
            assert_eq!(back, p, "{}", g.id);
            assert_eq!(back.hash(), p.hash());
        }
    }

    #[test]
    fn plain_form_puts_unlisted_cards_on_the_foundations() {
        let g = game("la-belle-lucie").unwrap();
        let mut fans = Vec::new();
        for suit in ["S", "H", "D", "C"] {
            let line: Vec<String> = (3..=13)
                .rev()
                .map(|r| Card::new(crate::card::Rank::new(r).unwrap(), suit_of(suit)).to_string())
                .collect();
            fans.push(line.join(" "));
        }
        let text = fans.join("\n").replace("10", "T");
        let p = Position::from_text(&text, Some("la-belle-lucie")).unwrap();
        assert_eq!(p.foundation_cards(), 8);
        assert_eq!(p.pile(p.layout().foundation(0)).len(), 2);
        let _ = g;
    }

    fn suit_of(s: &str) -> crate::card::Suit {
        Card::parse(&format!("A{s}")).unwrap().suit()
    }

    #[test]
    fn plain_form_refuses_cards_that_cannot_be_on_foundations() {
        // 2S missing but AS listed: 2S cannot be on a foundation.
        let all: Vec<String> = game("la-belle-lucie")
            .unwrap()
            .pack()
            .into_iter()
            .filter(|c| c.to_string() != "2S")
            .map(|c| c.to_string())
            .collect();
        let text = all
            .chunks(3)
            .map(|c| c.join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        let err = Position::from_text(&text, Some("la-belle-lucie")).unwrap_err();
        assert!(err.to_string().contains("2S"), "{err}");
    }

    #[test]
    fn bad_texts_give_messages_not_panics() {
        let cases: Vec<(String, &str)> = vec![
            ("".into(), "empty"),
            ("game: nope".into(), "unknown game"),
            ("game: fan\nt1: AS AS".into(), "2 times"),
            ("game: fan\nt1: ZZ".into(), "unknown card"),
            ("game: fan\nt99: AS".into(), "no pile"),
            ("game: fan\nt1: AS".into(), "missing"),
            ("game: fan\ndeal: -1".into(), "deal"),
            ("KH 2S 8S\nQQ".into(), "unknown card"),
            ("x".repeat(10 * 1024 * 1024), "bytes"),
        ];
        for (text, needle) in cases {
            let err = Position::from_text(&text, Some("fan"))
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{err:?} should mention {needle}");
            assert!(err.len() < 300);
        }
    }
}
