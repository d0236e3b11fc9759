//! Where a position comes from: a deal number or a position file (or stdin).

use std::io::Read;

use anyhow::{anyhow, bail, Context};
use patience_engine::{GameSpec, Move, Position, MAX_DEAL};

/// `--deal N | --position FILE|-` and `--redeals K`, shared by moves, perft and solve.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Game id (see `patience games`).
    pub game: String,
    /// Deal number (1 to 4294967295).
    #[arg(long, conflicts_with = "position")]
    pub deal: Option<u64>,
    /// A position file in position text or lblsolve's plain form; `-` reads stdin.
    #[arg(long)]
    pub position: Option<String>,
    /// Redeals left to use (at most the game's count); 0 turns them off.
    #[arg(long)]
    pub redeals: Option<u8>,
}

pub fn game(id: &str) -> anyhow::Result<&'static GameSpec> {
    patience_engine::game(id).ok_or_else(|| anyhow!("unknown game `{id}` (see `patience games`)"))
}

/// Reads a file, or stdin for `-`, refusing anything over `limit` bytes.
pub fn read_input(path: &str, limit: usize) -> anyhow::Result<String> {
    let mut buf = Vec::new();
    if path == "-" {
        std::io::stdin()
            .take(limit as u64 + 1)
            .read_to_end(&mut buf)
            .context("reading stdin")?;
    } else {
        std::fs::File::open(path)
            .with_context(|| format!("opening {path}"))?
            .take(limit as u64 + 1)
            .read_to_end(&mut buf)
            .with_context(|| format!("reading {path}"))?;
    }
    if buf.len() > limit {
        bail!("{path} is larger than {limit} bytes");
    }
    String::from_utf8(buf).map_err(|_| anyhow!("{path} is not UTF-8 text"))
}

impl PositionArgs {
    /// The position asked for, with redeals limited as `--redeals` says.
    pub fn load(&self) -> anyhow::Result<Position> {
        let spec = game(&self.game)?;
        let mut pos = match (&self.deal, &self.position) {
            (Some(d), None) => Position::deal(spec, *d)?,
            (None, Some(p)) => {
                let text = read_input(p, patience_engine::text::MAX_TEXT)?;
                Position::from_text(&text, Some(spec.id))?
            }
            (None, None) => bail!("give --deal N or --position FILE"),
            (Some(_), Some(_)) => bail!("give either --deal or --position, not both"),
        };
        if let Some(k) = self.redeals {
            // Fewer redeals than the position has left, never more: a
            // position that used two of two redeals has none to give.
            if k > pos.redeals_left() {
                bail!(
                    "--redeals {k}: the position has {} redeal(s) left ({} allows {})",
                    pos.redeals_left(),
                    spec.id,
                    spec.redeals_allowed()
                );
            }
            pos = pos
                .with_redeals_left(k)
                .map_err(|e| anyhow!("--redeals {k}: {e}"))?;
        }
        // A shuffled redeal deals by the deal number: without one it would
        // play deal 0's shuffle, which is no deal the position came from.
        if pos.missing_deal_number() {
            bail!(
                "the position has no `deal:` line, and a redeal of {} shuffles by the deal number: \
                 add `deal: N` to the text, or give --redeals 0",
                spec.id
            );
        }
        Ok(pos)
    }
}

/// Prints moves one a line in their text form.
pub fn print_moves(pos: &Position, moves: &[Move]) {
    for m in moves {
        println!("{}", m.text(pos.layout()));
    }
}

/// An inclusive range of deal numbers: `A..B`, `A..=B` or one number.
pub fn parse_deals(text: &str) -> anyhow::Result<(u64, u64)> {
    let num = |s: &str| -> anyhow::Result<u64> {
        let n: u64 = s
            .trim()
            .parse()
            .map_err(|_| anyhow!("`{}` is not a deal number", s.trim()))?;
        if !(1..=MAX_DEAL).contains(&n) {
            bail!("deal numbers run from 1 to {MAX_DEAL}, not {n}");
        }
        Ok(n)
    };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.trim_start_matches('='))?),
        None => {
            let n = num(text)?;
            (n, n)
        }
    };
    if a > b {
        bail!("the range {a}..{b} is empty");
    }
    Ok((a, b))
}
