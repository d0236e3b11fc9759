//! Moves and their text form.
//!
//! A move names its source and destination piles, not the card: the card is
//! whatever is on top of the source, so a record stays short and a move means
//! the same thing in any position where it is legal.

use std::fmt;

use crate::layout::{Layout, PileId};

/// One player action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The top card (or, where runs move, the run) of `from` goes to `to`.
    Step {
        /// The pile the card leaves.
        from: PileId,
        /// The pile that takes it.
        to: PileId,
    },
    /// The once-per-game draw: the covered card at `index` (0 = bottom) of
    /// fan `from` is played to `to`.
    Draw {
        /// The fan the card is drawn from.
        from: PileId,
        /// The card's depth in the fan, 0 for the bottom card.
        index: u8,
        /// The pile that takes it.
        to: PileId,
    },
    /// A click on the stock.
    Deal,
    /// Gather the table and deal it again.
    Redeal,
}

impl Move {
    /// Text form in a layout: `t3>f1`, `t3@0>t5`, `deal`, `redeal`.
    pub fn text(self, layout: &Layout) -> String {
        match self {
            Move::Step { from, to } => format!("{}>{}", layout.name(from), layout.name(to)),
            Move::Draw { from, index, to } => {
                format!("{}@{}>{}", layout.name(from), index, layout.name(to))
            }
            Move::Deal => "deal".into(),
            Move::Redeal => "redeal".into(),
        }
    }

    /// Parses the text form; the layout gives the pile names meaning.
    pub fn parse(text: &str, layout: &Layout) -> Result<Move, MoveTextError> {
        let t = text.trim();
        let bad = || MoveTextError(crate::card::shorten(t));
        match t {
            "deal" => return Ok(Move::Deal),
            "redeal" => return Ok(Move::Redeal),
            _ => {}
        }
        let (src, dst) = t.split_once('>').ok_or_else(bad)?;
        let to = layout.parse(dst).ok_or_else(bad)?;
        if let Some((pile, index)) = src.split_once('@') {
            let from = layout.parse(pile).ok_or_else(bad)?;
            let index: u8 = index.parse().map_err(|_| bad())?;
            Ok(Move::Draw { from, index, to })
        } else {
            let from = layout.parse(src).ok_or_else(bad)?;
            Ok(Move::Step { from, to })
        }
    }
}

/// A move text that names no move of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unreadable move `{0}` (expected `t3>f1`, `t3@0>t5`, `deal` or `redeal`)")]
pub struct MoveTextError(pub String);

/// Display adapter pairing a move with its layout.
pub struct MoveText<'a>(pub Move, pub &'a Layout);

impl fmt::Display for MoveText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text(self.1))
    }
}
