//! `patience perft GAME DEPTH [--deal N | --position FILE|-] [--redeals K]`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where to count from; deal 1 when neither a deal nor a position is given.
    #[command(flatten)]
    pub at: super::source::PositionArgs,
    /// Number of moves in each counted sequence.
    pub depth: u32,
    /// Also print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(a: Args) -> super::Outcome {
    let mut at = a.at;
    if at.position.is_none() {
        at.deal = at.deal.or(Some(1));
    }
    let mut pos = at.load()?;
    if a.divide {
        for (mv, n) in patience_engine::perft::divide(&mut pos, a.depth) {
            println!("{} {n}", mv.text(pos.layout()));
        }
    }
    println!("{}", patience_engine::perft(&mut pos, a.depth));
    Ok(ExitCode::SUCCESS)
}
