//! `patience store`: work on a site's store as a whole. One module a
//! subcommand: `copy` (a SQLite site into PostgreSQL, the server stopped),
//! `backup` (backup and restore of a SQLite database).

pub mod backup;
pub mod copy;

use std::process::ExitCode;

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
    /// Copy a SQLite database into a new file, as one consistent moment (a
    /// running server goes on meanwhile).
    Backup(backup::BackupArgs),
    /// Put a SQLite backup in place of the database (no server may be using
    /// it); whatever was there is moved aside, never deleted.
    Restore(backup::RestoreArgs),
}

pub fn run(a: Args) -> super::Outcome {
    match a.command {
        Command::Copy(a) => copy::run(a),
        Command::Backup(b) => backup::backup(b).map(|()| ExitCode::SUCCESS),
        Command::Restore(r) => backup::restore(r).map(|()| ExitCode::SUCCESS),
    }
}
