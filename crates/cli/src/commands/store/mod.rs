//! `patience store`: work on a site's store as a whole, the server stopped.
//! One module a subcommand: `copy` (a SQLite site into PostgreSQL).

pub mod copy;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Copy a SQLite site (every player, game, move and grade) into a
    /// PostgreSQL database, then check the counts and replay every game there.
    Copy(copy::Args),
}

pub fn run(a: Args) -> super::Outcome {
    match a.command {
        Command::Copy(a) => copy::run(a),
    }
}
