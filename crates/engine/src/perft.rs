//! Perft: the number of move sequences of an exact length, as chess engines
//! count them. It checks move generation and make/unmake against each other:
//! any mistake in either changes the count.

use crate::position::Position;

/// Move sequences of exactly `depth` moves from `pos` (a redeal counts as a move).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for mv in moves {
        let Ok(undo) = pos.apply(mv) else { continue };
        n += perft(pos, depth - 1);
        pos.undo(&undo);
    }
    n
}

/// Perft per first move, for finding where two generators disagree.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(crate::moves::Move, u64)> {
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        let Ok(undo) = pos.apply(mv) else { continue };
        out.push((mv, perft(pos, depth.saturating_sub(1))));
        pos.undo(&undo);
    }
    out
}
