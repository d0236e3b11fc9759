//! `patience perft GAME DEPTH [--deal N | --position FILE|-] [--redeals K]`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game id.
    pub game: String,
    /// Number of moves in each counted sequence.
    pub depth: u32,
    /// Deal number (default 1 when no position is given).
    #[arg(long, conflicts_with = "position")]
    pub deal: Option<u64>,
    /// A position file; `-` reads stdin.
    #[arg(long)]
    pub position: Option<String>,
    /// Redeals left to use; 0 turns them off.
    #[arg(long)]
    pub redeals: Option<u8>,
    /// Also print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(a: Args) -> super::Outcome {
    let at = super::source::PositionArgs {
        game: a.game,
        deal: a.deal.or(a.position.is_none().then_some(1)),
        position: a.position,
        redeals: a.redeals,
    };
    let mut pos = at.load()?;
    if a.divide {
        for (mv, n) in patience_engine::perft::divide(&mut pos, a.depth) {
            println!("{} {n}", mv.text(pos.layout()));
        }
    }
    println!("{}", patience_engine::perft(&mut pos, a.depth));
    Ok(ExitCode::SUCCESS)
}
