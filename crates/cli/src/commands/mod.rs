//! One module a subcommand; shared argument helpers in `source`.

pub mod deal;
pub mod games;
pub mod grade;
pub mod moves;
pub mod perft;
pub mod play;
pub mod replay;
pub mod serve;
pub mod solve;
pub mod source;
pub mod store;
pub mod survey;

/// What every subcommand returns: an exit code, or an error printed as `error: …`.
pub type Outcome = anyhow::Result<std::process::ExitCode>;
