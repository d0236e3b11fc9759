//! `patience deal GAME N`: the opening position text.

use std::process::ExitCode;

use patience_engine::Position;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id.
    pub game: String,
    /// Deal number.
    pub deal: u64,
}

pub fn run(a: Args) -> super::Outcome {
    let spec = super::source::game(&a.game)?;
    print!("{}", Position::deal(spec, a.deal)?.to_text());
    Ok(ExitCode::SUCCESS)
}
