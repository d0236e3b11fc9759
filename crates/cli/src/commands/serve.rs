//! `patience serve`: runs the site until SIGINT or SIGTERM.

use std::net::IpAddr;
use std::process::ExitCode;

use patience_store::Location;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub addr: IpAddr,
    /// Port to listen on; 0 picks a free one (the line printed on start names it).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The store holding games and statistics: a SQLite file, or a
    /// PostgreSQL database by URL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME`),
    /// which any number of servers may share. A SQLite file is created on a
    /// first run (neither it nor its `.lock` file exists); one that is
    /// missing beside its lock file was lost, and the server refuses to
    /// start unless given `--create`. A PostgreSQL database gets its tables
    /// on first use.
    #[arg(long, default_value = "patience.db")]
    pub db: Location,
    /// Create the database even though its lock file says one was used here.
    #[arg(long)]
    pub create: bool,
    /// The site is reached over HTTPS through a proxy that terminates TLS:
    /// the player cookie is then `Secure` (named `__Host-patience_player`).
    #[arg(long)]
    pub behind_tls_proxy: bool,
}

pub fn run(a: Args) -> super::Outcome {
    // Logs go to stderr; stdout carries only the `listening on` line.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(patience_server::serve(patience_server::Config {
        addr: a.addr,
        port: a.port,
        behind_tls_proxy: a.behind_tls_proxy,
        create: a.create,
        ..patience_server::Config::local(a.db)
    }))?;
    Ok(ExitCode::SUCCESS)
}
