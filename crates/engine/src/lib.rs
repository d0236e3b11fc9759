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
//! - `rules`: what is legal, and the moves in their order;
//! - `apply`: making and unmaking moves, refills, redeals; `deal`: opening deals;
//! - `text`: the position text and lblsolve's plain form; `record`: game records;
//! - `game`: undo and redo; `perft`: move-path counting.
//!
//! No I/O happens here: callers hand in text and get values back.

pub mod apply;
pub mod card;
pub mod catalogue;
pub mod deal;
pub mod game;
pub mod layout;
pub mod moves;
pub mod perft;
pub mod position;
pub mod prng;
pub mod record;
pub mod rules;
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
pub use perft::perft;
pub use position::{Position, SetupError, MAX_DEAL};
pub use record::{Record, RecordError};
pub use rules::MoveError;
pub use sequence::SequencePlace;
pub use spec::*;
pub use text::TextError;
