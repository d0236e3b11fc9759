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
    /// The site's date (Moscow), YYYY-MM-DD, instead of the clock's: the
    /// deal of the day and the calendar follow it (for tests).
    #[arg(long, value_parser = parse_day)]
    pub today: Option<patience_server::daily::Date>,
}

fn parse_day(text: &str) -> Result<patience_server::daily::Date, String> {
    patience_server::daily::parse_day(text)
        .ok_or_else(|| format!("`{text}` is not a date (YYYY-MM-DD)"))
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
    give_back_freed_memory();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(patience_server::serve(patience_server::Config {
        addr: a.addr,
        port: a.port,
        behind_tls_proxy: a.behind_tls_proxy,
        create: a.create,
        clock: a.today.map_or(
            patience_server::daily::Clock::System,
            patience_server::daily::Clock::Fixed,
        ),
        ..patience_server::Config::local(a.db)
    }))?;
    Ok(ExitCode::SUCCESS)
}

/// How often freed memory is handed back to the system.
const GIVE_BACK_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// glibc keeps memory freed in its arenas for reuse: after a flood of
/// connections (each with buffers of up to the 32 KiB head limit) the
/// server would keep the flood's size for good. `malloc_trim(0)` returns
/// every free page of every arena to the system (`madvise`); it runs every
/// few seconds on a thread of its own, costing a walk of the free lists.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    let _ = std::thread::Builder::new()
        .name("memory-trim".into())
        .spawn(|| loop {
            std::thread::sleep(GIVE_BACK_EVERY);
            // SAFETY: malloc_trim only releases free memory of the
            // allocator's own arenas; it has no preconditions.
            unsafe {
                libc::malloc_trim(0);
            }
        });
}
