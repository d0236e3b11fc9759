//! The end of a game that plays itself: every card left can go home, one
//! after another, with nothing left to decide.
//!
//! [`Position::finish_line`] plays foundation moves only, each time the
//! first one [`Position::legal_moves`] lists, and answers the line if it
//! ends with every card home. No deal, redeal, draw or tableau move is
//! played, so the line reveals nothing the player cannot see (the stock
//! stays shut) and each of its moves is one the player could make by hand.
//! The line is played through the engine, so a line returned is a win, not
//! a guess. A position where some card must first move elsewhere (a card
//! over a lower one of its suit, a stock still to deal) has no finish line.

use crate::layout::PileKind;
use crate::moves::Move;
use crate::position::Position;

impl Position {
    /// The moves that win from here by sending cards home alone (see the
    /// module documentation), or `None` when there is no such line. A won
    /// position has the empty line.
    pub fn finish_line(&self) -> Option<Vec<Move>> {
        let mut p = self.clone();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while !p.is_won() {
            p.legal_moves_into(&mut moves);
            let home = moves.iter().copied().find(|m| {
                matches!(m, Move::Step { to, .. }
                    if matches!(p.layout.kind(*to), Some(PileKind::Foundation(_))))
            })?;
            p.apply(home).ok()?;
            line.push(home);
        }
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lucie(text: &str) -> Position {
        Position::from_text(text, Some("la-belle-lucie"))
            .unwrap()
            .with_redeals_left(0)
            .unwrap()
    }

    const RANKS: [&str; 13] = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];

    /// Foundation `f` holding every card of `suit`.
    fn suit_home(f: usize, suit: &str) -> String {
        let cards: Vec<String> = RANKS.iter().map(|r| format!("{r}{suit}")).collect();
        format!("f{f}: {}\n", cards.join(" "))
    }

    #[test]
    fn cards_lying_in_their_order_finish() {
        // Each suit's lower cards above its higher ones: all go home.
        let p = lucie("KS QS JS 10S\n9S 8S 7S\n6S 5S 4S\n3S 2S AS\n");
        let line = p.finish_line().expect("a finish");
        assert_eq!(line.len(), 13);
        let mut q = p.clone();
        for m in line {
            q.apply(m).unwrap();
        }
        assert!(q.is_won());
    }

    #[test]
    fn crossed_suits_finish_when_each_card_is_freed_in_turn() {
        // The AH over the 2S, the AS over the 2H: hearts and spades alternate.
        let spades_up: Vec<String> = RANKS[2..].iter().rev().map(|r| format!("{r}S")).collect();
        let hearts_up: Vec<String> = RANKS[2..].iter().rev().map(|r| format!("{r}H")).collect();
        let text = format!(
            "game: la-belle-lucie\nredeals-used: 2\nt1: 2S AH\nt2: 2H AS\nt3: {}\nt4: {}\n{}{}",
            spades_up.join(" "),
            hearts_up.join(" "),
            suit_home(3, "D"),
            suit_home(4, "C")
        );
        let p = Position::from_text(&text, None).unwrap();
        assert_eq!(p.finish_line().map(|l| l.len()), Some(26));
    }

    #[test]
    fn a_card_over_a_lower_one_of_its_suit_needs_a_real_move() {
        // The 2S over the AS must first move to another fan: no finish.
        let p = lucie("AS 2S\n3S 4S 5S 6S 7S 8S 9S 10S JS QS KS\n");
        assert_eq!(p.finish_line(), None);
    }

    #[test]
    fn a_stock_still_to_deal_is_not_finished_for_the_player() {
        // No opening deal of a game with a stock finishes by itself, and a
        // won position finishes with nothing left to play.
        for g in crate::games() {
            let p = Position::deal(g, 1).unwrap();
            if g.has_stock {
                assert_eq!(p.finish_line(), None, "{}", g.id);
            }
        }
        let text = format!(
            "game: la-belle-lucie\n{}{}{}{}",
            suit_home(1, "S"),
            suit_home(2, "H"),
            suit_home(3, "D"),
            suit_home(4, "C")
        );
        let won = Position::from_text(&text, None).unwrap();
        assert!(won.is_won());
        assert_eq!(won.finish_line(), Some(Vec::new()));
    }
}
