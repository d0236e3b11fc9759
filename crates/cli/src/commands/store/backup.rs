//! `patience store backup` and `patience store restore`: the one way to
//! back a database up and put it back that never mixes two moments (see
//! `patience_store::backup`).

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The server's database.
    #[arg(long, default_value = "patience.db")]
    pub db: PathBuf,
    /// The backup file to make; it must not exist.
    pub out: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// The server's database, to be replaced.
    #[arg(long, default_value = "patience.db")]
    pub db: PathBuf,
    /// A file made by `patience store backup`.
    pub backup: PathBuf,
}

pub fn backup(a: BackupArgs) -> anyhow::Result<()> {
    let copied = patience_store::backup::backup(&a.db, &a.out)?;
    println!(
        "backed up {} to {}: {} games, {} bytes",
        a.db.display(),
        a.out.display(),
        copied.games,
        copied.bytes
    );
    Ok(())
}

pub fn restore(a: RestoreArgs) -> anyhow::Result<()> {
    let restored = patience_store::backup::restore(&a.backup, &a.db)?;
    for (from, to) in &restored.moved {
        println!("moved {} aside to {}", from.display(), to.display());
    }
    println!(
        "restored {} from {}: {} games",
        a.db.display(),
        a.backup.display(),
        restored.games
    );
    Ok(())
}
