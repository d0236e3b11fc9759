//! `patience store`: work on a server's database file with the server
//! stopped or running, one subcommand a module.

pub mod backup;

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Copy the database into a new file, as one consistent moment (a
    /// running server goes on meanwhile).
    Backup(backup::BackupArgs),
    /// Put a backup in place of the database (no server may be using it);
    /// whatever was there is moved aside, never deleted.
    Restore(backup::RestoreArgs),
}

pub fn run(a: Args) -> super::Outcome {
    match a.command {
        Command::Backup(b) => backup::backup(b),
        Command::Restore(r) => backup::restore(r),
    }
    .map(|()| ExitCode::SUCCESS)
}
