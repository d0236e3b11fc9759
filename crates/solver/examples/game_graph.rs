//! Counts a deal's game graph the way Freecell Solver (fc-solve) does, to
//! check that our engine plays the same game as that anchor (docs/solver.md,
//! "Freecell Solver").
//!
//! `cargo run --release -p patience-solver --example game_graph -- GAME [--skip-lone] DEAL...`
//!
//! For each deal, with no redeal left, an exhaustive depth-first search over
//! the engine's legal moves, without the solver's dominances or ordering,
//! counts the distinct positions reached, the start included, with the fans
//! taken as a set (fc-solve sorts its stacks). It stops at a win, where the
//! count depends on the order moves are tried, so only losses compare: there
//! the count must equal fc-solve's "Total number of states checked".
//! `--skip-lone` leaves out the one move fc-solve never makes when emptied
//! stacks stay empty: the only card of a fan onto another fan.

use std::collections::HashSet;
use std::process::ExitCode;

use patience_engine::{game, Move, PileId, PileKind, Position, Undo};

/// The position with the fans as a sorted set; other piles by height (in
/// these games they are the foundations, and their height says everything).
fn key(pos: &Position) -> Vec<u8> {
    let mut fans: Vec<Vec<u8>> = Vec::new();
    let mut rest: Vec<u8> = Vec::new();
    for (i, pile) in pos.piles().iter().enumerate() {
        let tableau = matches!(pos.kind(PileId(i as u8)), Some(PileKind::Tableau(_)));
        if tableau && !pile.is_empty() {
            fans.push(pile.iter().map(|c| c.index() as u8).collect());
        } else if !tableau {
            rest.push(pile.len() as u8);
        }
    }
    fans.sort();
    let mut out = rest;
    for fan in fans {
        out.push(u8::MAX);
        out.extend(fan);
    }
    out
}

/// Whether `mv` takes the only card of a fan to another fan.
fn lone_to_fan(pos: &Position, mv: Move) -> bool {
    let fan = |id| matches!(pos.kind(id), Some(PileKind::Tableau(_)));
    matches!(mv, Move::Step { from, to } if fan(from) && fan(to) && pos.pile(from).len() == 1)
}

/// Distinct positions reached (start included), and whether a win was found.
fn count(start: &Position, skip_lone: bool) -> (usize, bool) {
    let mut pos = start.clone();
    let mut seen = HashSet::from([key(&pos)]);
    // One frame per position on the path: its moves, the next to try, and
    // the undo that leads back to its parent. An explicit stack, since a
    // path can be thousands of moves long.
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves);
    let mut stack: Vec<(Vec<Move>, usize, Option<Undo>)> = vec![(moves, 0, None)];
    while let Some((moves, next, _)) = stack.last_mut() {
        let Some(&mv) = moves.get(*next) else {
            if let Some((_, _, Some(undo))) = stack.pop() {
                pos.undo(&undo);
            }
            continue;
        };
        *next += 1;
        if skip_lone && lone_to_fan(&pos, mv) {
            continue;
        }
        let Ok(undo) = pos.apply(mv) else { continue };
        if !seen.insert(key(&pos)) {
            pos.undo(&undo);
            continue;
        }
        if pos.is_won() {
            return (seen.len(), true);
        }
        let mut children = Vec::new();
        pos.legal_moves_into(&mut children);
        stack.push((children, 0, Some(undo)));
    }
    (seen.len(), false)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(spec) = args.first().and_then(|id| game(id)) else {
        eprintln!("usage: game_graph GAME [--skip-lone] DEAL...");
        return ExitCode::from(2);
    };
    let skip_lone = args.iter().any(|a| a == "--skip-lone");
    for arg in args.iter().skip(1).filter(|a| *a != "--skip-lone") {
        let start = arg
            .parse()
            .ok()
            .and_then(|d| Position::deal(spec, d).ok())
            .and_then(|p| p.with_redeals_left(0).ok());
        let Some(start) = start else {
            eprintln!("not a deal of {}: {arg}", spec.id);
            return ExitCode::from(2);
        };
        let (positions, won) = count(&start, skip_lone);
        let end = if won { "win found" } else { "no win" };
        println!("{} deal {arg}: {positions} positions, {end}", spec.id);
    }
    ExitCode::SUCCESS
}
