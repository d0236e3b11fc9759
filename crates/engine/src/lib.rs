//! The rules of the fan family of patience games, and nothing else.
//!
//! Every game of the rule book (`docs/games.md`) is data — a [`GameSpec`] in
//! the [`catalogue`] — read by one engine. A game is fully determined by
//! `(game id, deal number, moves)`: [`Position::deal`] lays out a deal through
//! the documented generator in [`prng`], [`Position::legal_moves`] lists moves
//! in one deterministic order, [`Position::apply`] plays one (or refuses it and
//! changes nothing), and [`Position::undo`] restores the exact position and
//! hash. [`Record`] is the saved form of a game; [`Game`] adds undo and redo.
//!
//! Where things are:
//! - `card`: cards and their text; `spec` and `catalogue`: the games as data;
//! - `layout`: pile ids and names; `position`: the state and its hash;
//! - `tables`: the build and foundation rules as functions of two cards, and
//!   the per-game bitmask tables derived from them for fast move generation;
//! - `sequence`: the rule questions asked of one card (what it builds on and
//!   what builds on it, what must go home before it, its place in its
//!   suit's foundation sequence);
//! - `rules`: what is legal, and the moves in their order;
//! - `apply`: making and unmaking moves, refills, redeals; `deal`: opening deals;
//! - `text`: the position text and lblsolve's plain form; `record`: game records;
//! - `game`: undo and redo; `perft`: move-path counting;
//! - `equivalent`: the interchangeable destinations of a move; `safe_home`:
//!   foundation moves no other card can ever still need undone (the solver's
//!   dominance and the player's automatic moves); `finish`: the end that plays
//!   itself; `redeal`: why a redeal is refused.
//!
//! No I/O happens here: callers hand in text and get values back.
//!
//! ```
//! use patience_engine::{game, perft, Move, Position};
//!
//! // Deal 1 of La Belle Lucie: seventeen fans of three cards and a lone one.
//! // (This deal and the counts below are pinned by the golden and perft tests.)
//! let spec = game("la-belle-lucie").unwrap();
//! let mut pos = Position::deal(spec, 1).unwrap();
//! assert!(pos.to_text().contains("\nt5: 6C 3S AC\n"));
//!
//! // Its legal moves, in the engine's order: the ace of clubs goes home
//! // first, and the redeal is among the four.
//! let moves = pos.legal_moves();
//! assert_eq!(moves.len(), 4);
//! assert_eq!(moves[0].text(pos.layout()), "t5>f4");
//! assert!(moves.contains(&Move::Redeal));
//!
//! // Apply one; an illegal move is refused and changes nothing.
//! let before = pos.clone();
//! let bad = Move::parse("t1>f1", pos.layout()).unwrap();
//! assert!(pos.apply(bad).is_err());
//! assert_eq!(pos, before);
//! pos.apply(moves[0]).unwrap();
//! assert_eq!(pos.foundation_cards(), 1);
//!
//! // Perft: move sequences of exactly three moves from the deal.
//! let mut start = Position::deal(spec, 1).unwrap();
//! assert_eq!(perft(&mut start, 3), 83);
//! ```

#![warn(missing_docs)]

pub mod apply;
pub mod card;
pub mod catalogue;
pub mod deal;
pub mod equivalent;
pub mod finish;
pub mod game;
pub mod layout;
pub mod moves;
pub mod packed;
pub mod perft;
pub mod position;
pub mod prng;
pub mod questions;
pub mod record;
pub mod redeal;
pub mod rules;
mod runs;
pub mod safe_home;
mod sequence;
pub mod spec;
mod tables;
pub mod text;

pub use apply::Undo;
pub use card::{Card, CardError, Colour, Rank, Suit};
pub use catalogue::{game, games};
pub use deal::DealError;
pub use game::Game;
pub use layout::{Layout, PileId, PileKind};
pub use moves::Move;
pub use packed::Packed;
pub use perft::perft;
pub use position::{Position, SetupError, MAX_DEAL};
pub use questions::{EmptiedFan, InOrderGather};
pub use record::{Record, RecordError};
pub use redeal::RedealRefusal;
pub use rules::{HomeCards, MoveError};
pub use runs::SuitPlaces;
pub use safe_home::Safety;
pub use sequence::SequencePlace;
pub use spec::*;
pub use text::TextError;
