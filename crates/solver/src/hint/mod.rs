//! The hint: the first move of a solution where the search finds one, the
//! move of a winning line kept between hints ([`kept_line`]) while the
//! player stays on it, where the search runs out the first move of a
//! person-like game that wins ([`played_line`]), and else a heuristic move
//! ([`heuristic`]).

pub mod heuristic;
pub mod kept_line;
pub mod played_line;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use patience_engine::Position;

use crate::{solve, Budget, Hint, Outcome, Plan};

/// The search's share of a hint's time: three quarters. The person-like
/// games, if the search runs out, have what is left.
pub fn search_share(time: Duration) -> Duration {
    time * 3 / 4
}

/// The hint for `pos`: a search within `budget`, then the fallbacks of
/// [`played_line`] and [`heuristic`] if the budget runs out.
pub fn hint(pos: &Position, budget: &Budget) -> Hint {
    hint_with_plan(pos, budget, &mut Plan::default(), &HashSet::new())
}

/// As [`hint`], but keeping the winning line found between calls, so that a
/// player (or the hint-follower) who follows the hints walks one line to the
/// win instead of being sent back and forth between two (see [`kept_line`]),
/// in a game that has stood in the positions `passed` (by hash): a heuristic
/// move leads back to one of them only when no move leads elsewhere.
pub fn hint_with_plan(
    pos: &Position,
    budget: &Budget,
    plan: &mut Plan,
    passed: &HashSet<u64>,
) -> Hint {
    if pos.is_won() || pos.legal_moves().is_empty() {
        return Hint::None;
    }
    if let Some(m) = plan.next(pos) {
        return Hint::Solution(m);
    }
    let deadline = budget.time.map(|t| Instant::now() + t);
    let search = Budget {
        time: budget.time.map(search_share),
        ..budget.clone()
    };
    let report = solve(pos, &search);
    match report.outcome {
        Outcome::Win(moves) => {
            plan.remember(pos, &moves);
            moves.first().map_or(Hint::None, |&m| Hint::Solution(m))
        }
        Outcome::NoWin => Hint::NoWin,
        Outcome::Unknown(_) => {
            if let Some(moves) = played_line::find(pos, deadline) {
                plan.remember(pos, &moves);
                return moves.first().map_or(Hint::None, |&m| Hint::Solution(m));
            }
            let lead = if report.best_cards > pos.foundation_cards() {
                &report.best_line[..]
            } else {
                &[]
            };
            heuristic::choose(pos, lead, passed).map_or(Hint::None, Hint::Heuristic)
        }
    }
}
