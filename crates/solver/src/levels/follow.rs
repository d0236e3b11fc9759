//! The hint-follower: presses the hint button and plays what it shows.
//!
//! It plays the hint's move whether the hint is a solution's first move or a
//! heuristic one, until the game is won, the hint has nothing to offer (no
//! win, no move), a position comes back (a heuristic going round in circles
//! would otherwise spend its budget forever), or a move limit is reached.

use std::collections::HashSet;

use patience_engine::Position;
use serde::Serialize;

use crate::{hint_with_plan, Budget, Hint};

/// Why the hint-follower stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowEnd {
    Won,
    /// The hint said no win is possible from here.
    NoWin,
    /// The hint had no move (stuck).
    NoMove,
    /// A position came back.
    Cycle,
    /// The move limit was reached.
    MoveLimit,
}

/// The hint-follower's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Followed {
    pub end: FollowEnd,
    pub moves: usize,
    /// How many of the hints played were heuristic rather than a solution's.
    pub heuristic_moves: usize,
    /// Cards on the foundations at the end.
    pub home: usize,
}

impl Followed {
    pub fn won(&self) -> bool {
        self.end == FollowEnd::Won
    }
}

/// Follows the hint from `pos`, each hint searched within `budget`.
pub fn follow_hints(pos: &Position, budget: &Budget, max_moves: usize) -> Followed {
    let mut pos = pos.clone();
    let mut seen = HashSet::new();
    let mut moves = 0;
    let mut heuristic_moves = 0;
    // The site keeps the line a hint came from, so the follower does too.
    let mut plan = crate::Plan::default();
    let end = loop {
        if pos.is_won() {
            break FollowEnd::Won;
        }
        if !seen.insert(pos.hash()) {
            break FollowEnd::Cycle;
        }
        if moves >= max_moves {
            break FollowEnd::MoveLimit;
        }
        let mv = match hint_with_plan(&pos, budget, &mut plan, &seen) {
            Hint::Solution(m) => m,
            Hint::Heuristic(m) => {
                heuristic_moves += 1;
                m
            }
            Hint::NoWin => break FollowEnd::NoWin,
            Hint::None => break FollowEnd::NoMove,
        };
        if pos.apply(mv).is_err() {
            // A hint the engine refuses is a solver defect; the game ends there.
            break FollowEnd::NoMove;
        }
        moves += 1;
    };
    Followed {
        end,
        moves,
        heuristic_moves,
        home: pos.foundation_cards(),
    }
}
