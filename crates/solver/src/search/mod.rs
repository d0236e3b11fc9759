//! The searches the passes run: the depth-first search ([`depth_first`]),
//! its last deals searched apart ([`last_deal`]), the beam ([`beam`]) and
//! the randomised playouts ([`playout`]), with the move ordering they share
//! ([`order`], [`nearness`]), and where a depth-first search spends its
//! positions, counted when built with the `profile` feature ([`profile`]).
//!
//! The types here describe one depth-first search: what it is for
//! ([`Mode`]), how it runs ([`Settings`]) and what it found ([`Found`]).

pub mod beam;
pub mod depth_first;
pub mod last_deal;
pub mod nearness;
pub mod order;
pub mod playout;
pub mod profile;

use std::time::Duration;

use patience_engine::Move;

use crate::{Budget, Limit};

pub use depth_first::run;

/// What the search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Find a win or prove there is none.
    Solve,
    /// Most foundation cards reachable without a redeal.
    Best,
}

/// How the search runs.
#[derive(Clone, Debug)]
pub struct Settings {
    pub budget: Budget,
    pub mode: Mode,
    /// Use the dominances of [`crate::prune`] and the suit-blind key of
    /// [`crate::key::suit_blind`] (off only to test them).
    pub dominances: bool,
    /// Try only this many of each position's best-ordered moves: a quick,
    /// incomplete probe for a win (its exhaustion proves nothing). With
    /// `last_pass_nodes` it narrows the deals before the last only: a last
    /// pass searched apart tries every move.
    pub width: Option<usize>,
    /// Search each last pass (the positions after a redeal that leaves none)
    /// apart, with at most this many positions; one left unfinished makes
    /// the search's exhaustion prove nothing (see [`crate::search::last_deal`]).
    /// `None`: every last pass is part of the one search.
    pub last_pass_nodes: Option<u64>,
    /// With `last_pass_nodes`: search only the last passes whose number (in
    /// the order the search reaches them, from 0) is `offset` modulo `every`,
    /// and leave the others unfinished: neighbouring last passes tend to be
    /// alike, so a sample spread over the earlier deals wins sooner.
    pub last_pass_sample: (u64, u64),
    /// With the dominances, also ask the piles' order test
    /// ([`crate::prune::pile_order`]) after each card turned from the stock,
    /// the move that buries the waste. It costs a search several times its
    /// speed, so `solve_with` asks it only in its last full search, after the
    /// passes that look for a win.
    pub piles_order: bool,
    /// The same for the stock's order test ([`crate::prune::stock_order`]),
    /// asked before the piles' order test.
    pub stock_order: bool,
}

impl Settings {
    /// A complete search for a win within `budget`: every move, every last
    /// pass part of the one search.
    pub fn full(budget: Budget, dominances: bool) -> Settings {
        Settings {
            budget,
            mode: Mode::Solve,
            dominances,
            width: None,
            last_pass_nodes: None,
            last_pass_sample: (1, 0),
            piles_order: false,
            stock_order: false,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// A won position was reached by these moves.
    Won(Vec<Move>),
    /// The stack emptied: everything reachable was searched.
    Exhausted,
    /// A budget ran out.
    Spent(Limit),
}

/// Everything a search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub end: End,
    pub nodes: u64,
    pub elapsed: Duration,
    pub peak_entries: usize,
    /// The most cards on the foundations in any position reached.
    pub best_cards: usize,
    /// The line that reached them.
    pub best_line: Vec<Move>,
}
