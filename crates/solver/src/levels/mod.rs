//! Levels: how hard a deal is for people, measured by a person-like player.
//!
//! - [`view`]: what a person sees of a position (no stock order, no deal number).
//! - [`person`]: the person-like player, which plays from a view only, by a
//!   documented strategy, never undoing; seeded, so N runs give a win rate.
//! - `glance`: what the person-like player reads off one position, each
//!   answer worked out once.
//! - [`follow`]: the hint-follower, which plays whatever the hint says (a
//!   comparison for `patience play`; it takes no part in the levels).
//! - [`grade`]: one deal in, one level out (Easy, Medium, Hard, Unwinnable,
//!   Unknown), from the solver's verdict and the person-like player's runs;
//!   and the hunt, which looks for deals of chosen levels and stops a deal's
//!   runs once they rule those levels out.

pub mod follow;
mod glance;
pub mod grade;
pub mod person;
pub mod view;

pub use follow::{follow_hints, FollowEnd, Followed};
pub use grade::{
    could_be, grade_deal, grade_position, grade_with_verdict, hunt, Grade, GradeConfig, Hunted,
    Level, LevelOfEvidence, SolverVerdict,
};
pub use person::{
    move_limit, play_as, play_like_a_person, play_recorded, PersonGame, PersonPlayer, LOOKAHEAD,
};
pub use view::View;

#[cfg(test)]
mod tests;
