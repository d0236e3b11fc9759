//! The `patience` command: serve the site, and the research tools (deal,
//! moves, replay, perft, solve, survey, play, grade) and the database's
//! backup (store). Each subcommand lives in its
//! own module under `commands/`.

mod commands;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "patience",
    version,
    about = "Fan-family patience games: play, solve, survey"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games: id and names.
    Games,
    /// Print the opening position of a deal.
    Deal(commands::deal::Args),
    /// List the legal moves, one a line.
    Moves(commands::moves::Args),
    /// Check a game record and print its final position.
    Replay(commands::replay::Args),
    /// Count move sequences of exactly DEPTH moves (from deal 1 unless --deal or --position is given).
    Perft(commands::perft::Args),
    /// Solve a deal or a position.
    Solve(commands::solve::Args),
    /// Solve a range of deals in parallel and summarise.
    Survey(commands::survey::Args),
    /// Play deals with the person-like player or the hint-follower; win rate with its 95% interval.
    Play(commands::play::Args),
    /// Grade deals into levels (Easy, Medium, Hard, Unwinnable).
    Grade(commands::grade::Args),
    /// Run the web site.
    Serve(commands::serve::Args),
    /// Work on a site's store as a whole: copy it to PostgreSQL, back a
    /// SQLite database up or put a backup back in place.
    Store(commands::store::Args),
}

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games => commands::games::run(),
        Command::Deal(a) => commands::deal::run(a),
        Command::Moves(a) => commands::moves::run(a),
        Command::Replay(a) => commands::replay::run(a),
        Command::Perft(a) => commands::perft::run(a),
        Command::Solve(a) => commands::solve::run(a),
        Command::Survey(a) => commands::survey::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Grade(a) => commands::grade::run(a),
        Command::Serve(a) => commands::serve::run(a),
        Command::Store(a) => commands::store::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", chain_text(&e));
            std::process::ExitCode::from(2)
        }
    }
}

/// The error and its causes, joined by ": ", each said once: most of the
/// workspace's errors already end their message with their source's, so
/// anyhow's `{:#}` would repeat it.
fn chain_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let said = cause.to_string();
        if text.ends_with(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// Rust ignores SIGPIPE, so `println!` into a closed pipe (`patience games | head`)
/// panics. A command-line tool should instead end quietly, as `cat` does.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread
    // starts has no memory-safety preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
