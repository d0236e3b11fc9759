//! The game record: game id, deal number and the moves, in a text form that
//! round-trips. Replaying one through the rules ([`Record::replay`]) lives in
//! [`game`](mod@crate::game), which builds on this module.
//!
//! ```text
//! game: la-belle-lucie
//! deal: 17
//! moves: t3>f1 t5>t2 redeal
//! ```
//!
//! Moves may continue over further `moves:` lines. Lines starting with `#` are
//! comments.

use crate::card::shorten;
use crate::catalogue;
use crate::deal::DealError;
use crate::moves::Move;
use crate::position::MAX_DEAL;
use crate::rules::MoveError;
use crate::spec::GameSpec;
use crate::text::MAX_TEXT;

/// A game as `(game, deal number, moves)`: all that determines it.
#[derive(Clone, Debug)]
pub struct Record {
    /// The game played.
    pub game: &'static GameSpec,
    /// The deal number, from 1 to [`MAX_DEAL`].
    pub deal: u64,
    /// The moves in the order played; [`Record::replay`] checks them.
    pub moves: Vec<Move>,
}

impl PartialEq for Record {
    fn eq(&self, other: &Self) -> bool {
        self.game.id == other.game.id && self.deal == other.deal && self.moves == other.moves
    }
}
impl Eq for Record {}

/// Longest record text accepted.
pub const MAX_RECORD: usize = 4 * MAX_TEXT;

/// Why a record text cannot be read or replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Nothing but blanks and comments.
    #[error("the record is empty")]
    Empty,
    /// Longer than [`MAX_RECORD`] bytes; the text is not read.
    #[error("the record is {0} bytes; at most {MAX_RECORD} are read")]
    TooLong(usize),
    /// A line that cannot be read.
    #[error("line {line}: {message}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// No `game:` line.
    #[error("the record has no `game:` line")]
    NoGame,
    /// No `deal:` line.
    #[error("the record has no `deal:` line")]
    NoDeal,
    /// A game id the catalogue does not hold (quoted, shortened).
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    /// The deal number is out of range.
    #[error(transparent)]
    Deal(#[from] DealError),
    /// A move that is not legal where it is played.
    #[error("move {index} ({text}) is illegal: {error}")]
    Illegal {
        /// The move's place in the record, from 0.
        index: usize,
        /// The move's text.
        text: String,
        /// Why it is illegal.
        error: MoveError,
    },
}

impl Record {
    /// A record of deal `deal` with no moves yet.
    pub fn new(game: &'static GameSpec, deal: u64) -> Record {
        Record {
            game,
            deal,
            moves: Vec::new(),
        }
    }

    /// The text form; [`Record::parse`] reads it back to an equal record.
    pub fn to_text(&self) -> String {
        let layout = crate::layout::Layout::of(self.game);
        let mut s = format!("game: {}\ndeal: {}\n", self.game.id, self.deal);
        for chunk in self.moves.chunks(16) {
            let words: Vec<String> = chunk.iter().map(|m| m.text(&layout)).collect();
            s.push_str("moves: ");
            s.push_str(&words.join(" "));
            s.push('\n');
        }
        s
    }

    /// Reads a record's text. Moves are read, not yet checked: [`Record::replay`] checks them.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD {
            return Err(RecordError::TooLong(text.len()));
        }
        if text.trim().is_empty() {
            return Err(RecordError::Empty);
        }
        let mut game = None;
        let mut deal = None;
        let mut moves = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| RecordError::Line {
                line: i + 1,
                message: m,
            };
            let (key, value) = line.split_once(':').ok_or_else(|| {
                err(format!(
                    "expected `game:`, `deal:` or `moves:`, got `{}`",
                    shorten(line)
                ))
            })?;
            let value = value.trim();
            match key.trim() {
                "game" => {
                    game = Some(
                        catalogue::game(value)
                            .ok_or_else(|| RecordError::UnknownGame(shorten(value)))?,
                    )
                }
                "deal" => {
                    let d: u64 = value
                        .parse()
                        .map_err(|_| err(format!("bad deal number `{}`", shorten(value))))?;
                    if !(1..=MAX_DEAL).contains(&d) {
                        return Err(DealError(d).into());
                    }
                    deal = Some(d)
                }
                "moves" => {
                    let g: &GameSpec = game.ok_or_else(|| err("`moves:` before `game:`".into()))?;
                    let layout = crate::layout::Layout::of(g);
                    for word in value.split_whitespace() {
                        moves.push(Move::parse(word, &layout).map_err(|e| err(e.to_string()))?);
                    }
                }
                other => return Err(err(format!("unknown key `{}`", shorten(other)))),
            }
        }
        Ok(Record {
            game: game.ok_or(RecordError::NoGame)?,
            deal: deal.ok_or(RecordError::NoDeal)?,
            moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_records_are_refused_with_a_reason() {
        for (text, needle) in [
            ("", "empty"),
            ("game: la-belle-lucie", "deal"),
            ("deal: 3", "game"),
            ("game: nope\ndeal: 1", "unknown game"),
            ("game: fan\ndeal: 0", "out of range"),
            ("game: fan\ndeal: x", "bad deal"),
            ("game: fan\ndeal: 1\nmoves: t1>", "unreadable move"),
            ("game: fan\ndeal: 1\nmoves: t99>f1", "unreadable move"),
            ("garbage", "expected"),
        ] {
            let err = Record::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
