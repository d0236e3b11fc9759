//! `patience moves GAME [--deal N | --position FILE|-] [--redeals K]`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub at: super::source::PositionArgs,
}

pub fn run(a: Args) -> super::Outcome {
    let pos = a.at.load()?;
    super::source::print_moves(&pos, &pos.legal_moves());
    Ok(ExitCode::SUCCESS)
}
