//! Cards safe to send home: foundation moves that no other card can ever
//! still need undone.
//!
//! A card `c` going to a foundation is safe when:
//! 1. foundations never give cards back (else `c` might be wanted back);
//! 2. every card that could ever be built onto `c` on the table (by the game's
//!    build rule) is already on a foundation, so `c` is never needed as a target;
//! 3. only one foundation takes `c` now (up to foundations of the same rule
//!    and cards, which are interchangeable), and either every other copy of
//!    `c` is home, or only foundations of that same rule can ever take a card
//!    of `c`'s suit (the two spade foundations of a two-deck game): then if a
//!    winning line sends the other copy home first, the rewritten line sends
//!    it to the twin foundation, which (2) keeps at the same card (the
//!    builders of `c` include the card below it in suit);
//!    (Nivernaise's ace-house and king-house of a suit run in opposite
//!    directions, so there the twin must be home: sending this copy up
//!    rather than down can starve the other house.)
//!
//!    3'. Or, in place of (3): `c` leaves a cell of a two-deck game, its
//!    other copy lies in another cell, and the foundation takes one fixed
//!    card next (a suit's sequence), whichever foundations take `c` now.
//!    Cell cards only ever go home (Nivernaise's flanks), cells are never
//!    gathered or refilled, and all empty cells are alike. The foundation
//!    can be finished only by a copy of `c`, so a winning line sends one copy
//!    there and the other copy to some foundation later, both from their
//!    cells. Rewritten, it plays `c` there now, drops that move, and lets
//!    the copy left in its cell make the other copy's move when the line
//!    does: nothing else could go onto that foundation meanwhile, a longer
//!    foundation only opens its partner's last card sooner, and the
//!    rewritten line never holds more cards in cells.
//! 4. leaving does not empty a pile that the game refills at once from the
//!    stock or the waste (a refill at another moment deals other cards; a
//!    stock refill is harmless once the stock is empty and no redeal is
//!    left, for then nothing fills the pile again);
//! 5. no redeal is left, or `c` is not gathered by one (a flank cell), since a
//!    redeal deals another layout when it gathers other cards.
//!
//! Then any winning line from here can be rewritten to play `c` first: drop
//! its moves of `c`; nothing is ever put onto `c` (2), nobody else takes `c`'s
//! foundation place (3), the piles empty at the same moments (4) and the
//! redeals gather the same cards (5), so every other move stays legal, and a
//! pile or cell that held `c` only offers more room. Hence playing `c` loses
//! no win ([`Safety::KeepsEveryWin`]: the solver plays such a move as the
//! only child of a position).
//!
//! A player's automatic move ([`Safety::NeededByNone`]) asks (1) to (4)
//! only: the card is still needed by no other card, but a redeal left to
//! come then shuffles a different set of cards. That is the player's own
//! deal to come, not a lost one: the redeal has not been dealt, and a card
//! no card needs is where a player would put it.

use crate::card::Card;
use crate::layout::{PileId, PileKind};
use crate::moves::Move;
use crate::position::Position;
use crate::spec::{Build, EmptyPile};

/// How safe a foundation move must be (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Safety {
    /// Every rule, (5) included: no win of this deal is lost, the later
    /// redeals deal exactly as before.
    KeepsEveryWin,
    /// Rules (1) to (4): no other card can ever still need the card.
    NeededByNone,
}

/// Copies of each card on the foundations (at most two: two decks), as two
/// card sets: the search asks at every node with a foundation move, and
/// setting bits keeps no chain of increments through memory.
#[derive(Clone, Copy)]
struct Home {
    once: u64,
    twice: u64,
}

impl Home {
    fn of(pos: &Position) -> Home {
        let mut h = Home { once: 0, twice: 0 };
        for f in pos.layout.foundation_ids() {
            for c in pos.pile(f) {
                let b = 1u64 << c.index();
                h.twice |= h.once & b;
                h.once |= b;
            }
        }
        h
    }

    fn count(self, c: Card) -> u8 {
        (self.once >> c.index() & 1) as u8 + (self.twice >> c.index() & 1) as u8
    }
}

impl Position {
    /// A foundation move among `moves` (this position's
    /// [`Position::legal_moves`]) that is safe at level `safety`, if there
    /// is one: the first in the list's order.
    pub fn safe_home_move(&self, moves: &[Move], safety: Safety) -> Option<Move> {
        let spec = self.spec;
        if spec.foundation_returns {
            return None;
        }
        let layout = &self.layout;
        let is_foundation = |p| matches!(layout.kind(p), Some(PileKind::Foundation(_)));
        let mut counts: Option<Home> = None;
        for &mv in moves {
            let Move::Step { from, to } = mv else {
                continue;
            };
            if !is_foundation(to) {
                continue;
            }
            let Some(c) = self.top(from) else { continue };
            // (5) a redeal would gather it.
            let gathered = matches!(layout.kind(from), Some(PileKind::Tableau(_)));
            if safety == Safety::KeepsEveryWin && gathered && self.redeals_left() > 0 {
                continue;
            }
            // (4) emptying a pile the game refills at once (from the stock, only
            // while it holds cards: nothing ever fills it again with no redeal left).
            let stock_empty = self.stock().is_empty();
            let refills = match layout.kind(from) {
                Some(PileKind::Tableau(_)) => match spec.empty_pile {
                    EmptyPile::Stays | EmptyPile::TakesKing => false,
                    EmptyPile::TakesStockCard | EmptyPile::TakesThreeStockCards => !stock_empty,
                    EmptyPile::TakesWasteThenStockThenAny => true,
                },
                Some(PileKind::Waste) => spec.empty_pile == EmptyPile::TakesWasteThenStockThenAny,
                _ => false,
            };
            if refills && self.pile(from).len() < 2 {
                continue;
            }
            // (3') both copies wait in cells: either may take this place, whichever
            // foundations take the card.
            if self.twin_in_a_cell(from, c, to) {
                let n = counts.get_or_insert_with(|| Home::of(self));
                if self.builders_of(c).all(|b| n.count(b) == spec.decks) {
                    return Some(mv);
                }
            }
            // Only one foundation (up to interchangeable ones) takes it.
            let takers = moves
                .iter()
                .filter(
                    |m| matches!(m, Move::Step { from: f, to: t } if *f == from && is_foundation(*t)),
                )
                .count();
            if takers != 1 {
                continue;
            }
            let n = *counts.get_or_insert_with(|| Home::of(self));
            let decks = spec.decks;
            // (3) the other copies are home, or only foundations like this one
            // can ever take the card; (2) nothing can be built onto it.
            let twin_ok = matches!(spec.build, Build::DownInSuit | Build::UpOrDownInSuit)
                && self.only_alike_take(to, c);
            if n.count(c) + 1 != decks && !twin_ok {
                continue;
            }
            if self.builders_of(c).all(|b| n.count(b) == decks) {
                return Some(mv);
            }
        }
        None
    }

    /// Whether every foundation that could ever take a card of `c`'s suit has
    /// the same rule as foundation `to` (the two spade foundations of a
    /// two-deck game, say).
    fn only_alike_take(&self, to: PileId, c: Card) -> bool {
        let rules = &self.spec.foundations;
        let Some(PileKind::Foundation(i)) = self.layout.kind(to) else {
            return false;
        };
        let rule = &rules[i as usize];
        rules
            .iter()
            .all(|r| r == rule || r.suit.is_some_and(|s| s != c.suit()))
    }

    /// Whether `c`, in cell `from` and going to foundation `to`, has its other
    /// copy in another cell, in a two-deck game whose cell cards can only go
    /// home, where `to` takes one fixed card next (a suit's sequence), so some
    /// copy of `c` must fill `to`'s next place in any win (rule 3').
    pub fn twin_in_a_cell(&self, from: PileId, c: Card, to: PileId) -> bool {
        let layout = &self.layout;
        if self.spec.decks != 2 || !matches!(layout.kind(from), Some(PileKind::Cell(_))) {
            return false;
        }
        let Some(PileKind::Foundation(i)) = layout.kind(to) else {
            return false;
        };
        let rule = &self.spec.foundations[i as usize];
        if rule.suit.is_none() || rule.alternate_colours || rule.wraps {
            return false;
        }
        layout
            .cell_ids()
            .any(|cell| cell != from && self.top(cell) == Some(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, game: &str, redeals_left: u8) -> Position {
        Position::from_text(text, Some(game))
            .unwrap()
            .with_redeals_left(redeals_left)
            .unwrap()
    }

    fn card(p: &Position, mv: Option<Move>) -> Option<String> {
        match mv? {
            Move::Step { from, .. } => p.top(from).map(|c| c.to_string()),
            _ => None,
        }
    }

    #[test]
    fn a_card_nothing_builds_on_goes_home_in_the_last_deal() {
        // La Belle Lucie, last deal: the spades left, the ace on top of fan 1.
        let p = at(
            "KS AS\n2S 3S 4S\n5S 6S 7S\n8S 9S 10S\nJS QS\n",
            "la-belle-lucie",
            0,
        );
        let moves = p.legal_moves();
        // The ace: nothing builds onto an ace in a down-in-suit game.
        assert_eq!(
            card(&p, p.safe_home_move(&moves, Safety::KeepsEveryWin)).as_deref(),
            Some("AS")
        );
    }

    #[test]
    fn a_card_a_lower_one_still_needs_stays() {
        // Last deal; AH 2H and AC home. The 2C and the 3H may go home, and
        // the card built onto each (the AC, the 2H) is home: both are safe.
        let text = "game: la-belle-lucie\nredeals-used: 2\n\
            t1: 4C 3C\nt2: 2C\nt3: KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H\n\
            f1: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS\nf2: AH 2H\n\
            f3: AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD\nf4: AC\n\
            t4: KC QC JC 10C 9C 8C 7C 6C 5C\n";
        let p = Position::from_text(text, None).unwrap();
        let moves = p.legal_moves();
        let safe = p.safe_home_move(&moves, Safety::KeepsEveryWin);
        // The first safe move in the list's order.
        assert_eq!(card(&p, safe).as_deref(), Some("2C"));
        // Without the 2C move, the 3H is next; the 3C (its builder 2C still
        // out) never is.
        let rest: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| card(&p, Some(*m)).as_deref() != Some("2C"))
            .collect();
        assert_eq!(
            card(&p, p.safe_home_move(&rest, Safety::KeepsEveryWin)).as_deref(),
            Some("3H")
        );
    }

    #[test]
    fn a_redeal_to_come_forbids_only_the_strict_level() {
        let text = "KS 2S\n3S\n4S 5S 6S\n7S 8S 9S\n10S JS QS\n";
        let p = at(text, "la-belle-lucie", 1);
        let moves = p.legal_moves();
        assert_eq!(p.safe_home_move(&moves, Safety::KeepsEveryWin), None);
        assert_eq!(
            card(&p, p.safe_home_move(&moves, Safety::NeededByNone)).as_deref(),
            Some("2S")
        );
    }

    #[test]
    fn foundations_that_give_cards_back_have_no_safe_move() {
        // Blondes and Brunettes: a card home may be wanted back.
        let spec = crate::game("blondes-and-brunettes").unwrap();
        for d in 1..30 {
            let p = Position::deal(spec, d).unwrap();
            assert_eq!(
                p.safe_home_move(&p.legal_moves(), Safety::NeededByNone),
                None
            );
        }
    }

    #[test]
    fn in_two_decks_the_first_copy_goes_home_only_with_twin_foundations() {
        // House in the Woods, last deal: an ace on top goes home (only the two
        // ace-foundations of its suit ever take it). House on the Hill: a
        // king-house of the suit could take it later, so it is not forced.
        let woods = crate::game("house-in-the-woods").unwrap();
        let mut forced = 0;
        for d in 1..=20 {
            let p = Position::deal(woods, d)
                .unwrap()
                .with_redeals_left(0)
                .unwrap();
            if let Some(mv) = p.safe_home_move(&p.legal_moves(), Safety::KeepsEveryWin) {
                assert_eq!(card(&p, Some(mv)).map(|c| c.starts_with('A')), Some(true));
                forced += 1;
            }
        }
        assert!(forced > 0);
        let hill = crate::game("house-on-the-hill").unwrap();
        for d in 1..=20 {
            let p = Position::deal(hill, d)
                .unwrap()
                .with_redeals_left(0)
                .unwrap();
            assert_eq!(
                p.safe_home_move(&p.legal_moves(), Safety::KeepsEveryWin),
                None
            );
        }
    }

    #[test]
    fn a_card_that_empties_a_refilled_fan_waits() {
        // Novomanernaya refills an emptied fan from the stock at once: a lone
        // fan card going home while the stock holds cards is never automatic.
        let spec = crate::game("novomanernaya").unwrap();
        for d in 1..40 {
            let p = Position::deal(spec, d).unwrap();
            let moves = p.legal_moves();
            for level in [Safety::KeepsEveryWin, Safety::NeededByNone] {
                if let Some(Move::Step { from, .. }) = p.safe_home_move(&moves, level) {
                    assert!(p.pile(from).len() >= 2 || p.stock().is_empty(), "deal {d}");
                }
            }
        }
    }
}
