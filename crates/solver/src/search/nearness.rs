//! How near each card is to a foundation, for games whose foundations of a
//! suit build from both ends (Nivernaise's ace-house and king-house, House on
//! the Hill): the move ordering's "cards near their foundations" bonus.
//!
//! The ordering otherwise reads nearness off the rank (an ace is near home),
//! which is right when every foundation builds up from the ace, but half
//! wrong here: a king is the first card of a king-house, and a card's
//! distance is how many cards its suit's nearer house still needs before it.

use patience_engine::{Card, Position};

/// Per card index, how many cards some foundation still needs before that
/// card (0: it goes home now); `u8::MAX` when none can take it.
pub type Nearness = [u8; Card::COUNT];

/// Whether the game has a foundation building down, so that [`nearness`]
/// differs from the rank.
pub fn applies(pos: &Position) -> bool {
    pos.spec().has_a_foundation_building_down()
}

/// The nearness of every card in `pos` (see the module documentation): per
/// card, the fewest cards some foundation still takes before it, along the
/// engine's [`Position::foundation_sequence`].
pub fn nearness(pos: &Position) -> Nearness {
    let mut near = [u8::MAX; Card::COUNT];
    for f in pos.layout().foundation_ids() {
        for (d, c) in pos.foundation_sequence(f).enumerate() {
            let d = d.min(u8::MAX as usize - 1) as u8;
            near[c.index()] = near[c.index()].min(d);
        }
    }
    near
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_king_is_near_home_in_nivernaise_and_far_in_la_belle_lucie() {
        let niv = Position::deal(patience_engine::game("nivernaise").unwrap(), 1).unwrap();
        assert!(applies(&niv));
        let near = nearness(&niv);
        let king = Card::new(
            patience_engine::Rank::new(13).unwrap(),
            patience_engine::Suit::Spades,
        );
        let ace = Card::new(
            patience_engine::Rank::new(1).unwrap(),
            patience_engine::Suit::Spades,
        );
        let six = Card::new(
            patience_engine::Rank::new(6).unwrap(),
            patience_engine::Suit::Spades,
        );
        assert_eq!(near[king.index()], 0);
        assert_eq!(near[ace.index()], 0);
        assert_eq!(near[six.index()], 5);
        let lbl = Position::deal(patience_engine::game("la-belle-lucie").unwrap(), 1).unwrap();
        assert!(!applies(&lbl));
    }
}
