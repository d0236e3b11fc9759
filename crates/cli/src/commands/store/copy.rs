//! `patience store copy --from patience.db --to postgres://…`: moves a site
//! from SQLite to PostgreSQL. The SQLite file is taken as its server's owner
//! would (so no server may be running on it), the target must be empty
//! unless `--replace` is given (which empties it first), and every row is
//! written as it is, every table of the schema (`patience_store::export::TABLES`):
//! players' games with their moves, redo lists, versions, first wins and
//! hint records, grades with their details, ruled-out deals, the library
//! files loaded, display names and the deals of the days. A store with a
//! table the copy does not know is refused before anything is written.
//! Then the copy is checked: every table holds as many rows on both sides,
//! every game reads back the same, and every game on the target replays
//! through the engine as it does on the source.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use patience_engine::{Layout, Move, Record};
use patience_store::export::{unknown_tables, POSTGRES_ONLY};
use patience_store::owner::{Creation, Owner};
use patience_store::{Location, PgStore, Store, StoredGame};

/// Games written a transaction.
const PAGE: u32 = 500;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite file of the site (its server stopped).
    #[arg(long)]
    pub from: PathBuf,
    /// The PostgreSQL database to copy into (`postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME`).
    #[arg(long)]
    pub to: String,
    /// Empty the target first when it holds anything.
    #[arg(long)]
    pub replace: bool,
}

pub fn run(a: Args) -> crate::commands::Outcome {
    let Location::Postgres(url) = Location::parse(&a.to) else {
        bail!("--to must be a PostgreSQL URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME)");
    };
    if !a.from.exists() {
        bail!("{} does not exist", a.from.display());
    }
    let _owner = Owner::take(&a.from, Creation::FirstRun)
        .with_context(|| format!("taking {} (stop its server first)", a.from.display()))?;
    let source = Store::open(&a.from).with_context(|| format!("opening {}", a.from.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let target = runtime.block_on(PgStore::open(&url, 2))?;
    let shown = patience_store::location::without_password(&url);
    let unknown = unknown_tables(&source.tables()?, &[]);
    if !unknown.is_empty() {
        bail!(
            "{} has tables this copy does not know: {}",
            a.from.display(),
            unknown.join(", ")
        );
    }
    let unknown = unknown_tables(&runtime.block_on(target.tables())?, POSTGRES_ONLY);
    if !unknown.is_empty() {
        bail!(
            "{shown} has tables this copy does not know: {}",
            unknown.join(", ")
        );
    }
    let before = runtime.block_on(target.counts())?;
    if !before.is_empty() {
        if !a.replace {
            bail!("{shown} is not empty ({before}): give --replace to empty it first");
        }
        runtime.block_on(target.clear())?;
    }
    let mut after = 0;
    loop {
        let (rows, last) = source.games_page(after, PAGE)?;
        if rows.is_empty() {
            break;
        }
        runtime.block_on(target.import_games(&rows))?;
        after = last;
    }
    runtime.block_on(target.import_grades(
        &source.grade_rows()?,
        &source.ruled_out_rows()?,
        &source.library_file_rows()?,
    ))?;
    runtime.block_on(target.import_site(&source.name_rows()?, &source.daily_rows()?))?;
    let (from, to) = (source.counts()?, runtime.block_on(target.counts())?);
    if from != to {
        bail!("the copy's rows differ: {from} in the file, {to} in PostgreSQL");
    }
    // Every game reads back as the file holds it, in the same order, and replays.
    let (mut after_source, mut after_target) = (0, 0);
    let (mut replayed, mut unplayable) = (0u64, 0u64);
    loop {
        let (mine, a_last) = source.games_page(after_source, PAGE)?;
        let (theirs, b_last) = runtime.block_on(target.games_page(after_target, PAGE))?;
        if mine != theirs {
            bail!("a game reads back differently in PostgreSQL (after row {after_source})");
        }
        if mine.is_empty() {
            break;
        }
        for row in &theirs {
            match replay(&row.game) {
                Ok(()) => replayed += 1,
                Err(e) => {
                    // The same game in the file (it read back equal) does
                    // not replay either: it is copied as it is, and named.
                    eprintln!("warning: a stored game does not replay: {e}");
                    unplayable += 1;
                }
            }
        }
        (after_source, after_target) = (a_last, b_last);
    }
    println!(
        "copied rows: {to}; the counts match, every game reads back the same, \
         {replayed} replay through the engine{}",
        if unplayable > 0 {
            format!(" ({unplayable} do not, as in the file)")
        } else {
            String::new()
        }
    );
    Ok(std::process::ExitCode::SUCCESS)
}

/// Replays a stored game through the engine, its redo list included.
fn replay(g: &StoredGame) -> anyhow::Result<()> {
    let spec = patience_engine::game(&g.game)
        .ok_or_else(|| anyhow!("{}: unknown game {}", g.uid, g.game))?;
    let layout = Layout::of(spec);
    let parse = |text: &str| -> anyhow::Result<Vec<Move>> {
        text.split_whitespace()
            .map(|w| Move::parse(w, &layout).map_err(|e| anyhow!("{}: {e}", g.uid)))
            .collect()
    };
    let mut moves = parse(&g.moves)?;
    moves.extend(parse(&g.redo)?);
    Record {
        game: spec,
        deal: g.deal,
        moves,
    }
    .replay()
    .map_err(|e| anyhow!("{}: {e}", g.uid))?;
    Ok(())
}
