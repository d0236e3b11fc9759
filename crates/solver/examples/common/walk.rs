//! How the hint examples walk a game: the person-like player's move, or a
//! random legal move when it sees none, so the sampled positions run from
//! the opening to the end of real-looking games.

use patience_engine::prng::SplitMix64;
use patience_engine::{Move, Position};
use patience_solver::levels::{PersonPlayer, View};

pub fn pick(pos: &Position, player: &mut PersonPlayer, rng: &mut SplitMix64) -> Option<Move> {
    if let Some(m) = player.choose(&View::of(pos)) {
        return Some(m);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}
