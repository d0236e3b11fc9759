//! `patience replay FILE`: check a record, print the final position and whether it is won.

use std::process::ExitCode;

use patience_engine::Record;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record file; `-` reads stdin.
    pub file: String,
}

pub fn run(a: Args) -> super::Outcome {
    let text = super::source::read_input(&a.file, patience_engine::record::MAX_RECORD)?;
    let game = Record::parse(&text)?.replay()?;
    let pos = game.position();
    print!("{}", pos.to_text());
    let status = if pos.is_won() {
        "won"
    } else if pos.is_stuck() {
        "stuck"
    } else {
        "in progress"
    };
    println!("status: {status} ({} moves)", game.moves().len());
    Ok(ExitCode::SUCCESS)
}
