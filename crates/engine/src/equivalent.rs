//! Destinations that are interchangeable: where else a legal move may go
//! with the same effect on the game.
//!
//! [`Position::legal_moves`] lists a move once, to the first of the
//! destinations that are alike (docs/games.md): two foundations of the same
//! rule holding the same cards, two empty tableau piles, two empty cells.
//! The others are legal too and mean the same, so a page that lets a player
//! drop a card must light every one of them, and only them; it asks
//! [`Position::equivalent_destinations`] rather than guessing from the kind
//! of pile.

use crate::layout::{PileId, PileKind};
use crate::moves::Move;
use crate::position::Position;

impl Position {
    /// Every destination `mv` may take in place of its own, its own
    /// included, in pile order: the piles alike to `mv`'s destination (see
    /// the module documentation) to which the same move is legal now. Empty
    /// for a deal, a redeal, or a move that is not legal here.
    pub fn equivalent_destinations(&self, mv: Move) -> Vec<PileId> {
        let Some(to) = destination(mv) else {
            return Vec::new();
        };
        if self.check(mv).is_err() {
            return Vec::new();
        }
        let l = &self.layout;
        let alike: Vec<PileId> = match l.kind(to) {
            Some(PileKind::Foundation(_)) => l
                .foundation_ids()
                .filter(|&f| self.foundations_alike(f, to))
                .collect(),
            Some(PileKind::Tableau(_)) if self.pile(to).is_empty() => l
                .tableau_ids()
                .filter(|&t| self.pile(t).is_empty())
                .collect(),
            Some(PileKind::Cell(_)) => l.cell_ids().filter(|&c| self.pile(c).is_empty()).collect(),
            _ => vec![to],
        };
        alike
            .into_iter()
            .filter(|&p| p == to || self.check(with_destination(mv, p)).is_ok())
            .collect()
    }

    /// Whether foundations `a` and `b` have the same rule and hold the same
    /// cards as far as any later move can tell (as many, the same on top).
    fn foundations_alike(&self, a: PileId, b: PileId) -> bool {
        let rule = |p: PileId| match self.layout.kind(p) {
            Some(PileKind::Foundation(i)) => self.spec.foundations.get(i as usize),
            _ => None,
        };
        let (pa, pb) = (self.pile(a), self.pile(b));
        rule(a).is_some() && rule(a) == rule(b) && pa.len() == pb.len() && pa.last() == pb.last()
    }
}

/// The pile a step or a draw goes to.
pub fn destination(mv: Move) -> Option<PileId> {
    match mv {
        Move::Step { to, .. } | Move::Draw { to, .. } => Some(to),
        Move::Deal | Move::Redeal => None,
    }
}

/// `mv` sent to `to` instead (a deal or a redeal stays as it is).
pub fn with_destination(mv: Move, to: PileId) -> Move {
    match mv {
        Move::Step { from, .. } => Move::Step { from, to },
        Move::Draw { from, index, .. } => Move::Draw { from, index, to },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &Position, piles: &[PileId]) -> Vec<String> {
        piles
            .iter()
            .map(|&x| p.layout.name(x).to_string())
            .collect()
    }

    fn mv(p: &Position, text: &str) -> Move {
        Move::parse(text, &p.layout).unwrap()
    }

    #[test]
    fn two_deck_aces_go_to_either_empty_foundation_of_their_suit() {
        // House in the Woods: f1..f4 and f5..f8 are the suits twice over, ace up.
        let spec = crate::game("house-in-the-woods").unwrap();
        let p = (1..200)
            .map(|d| Position::deal(spec, d).unwrap())
            .find(|p| {
                p.legal_moves().iter().any(|m| {
                    matches!(m, Move::Step { from, to } if p.top(*from).map(|c| c.rank().number()) == Some(1) && p.layout.name(*to).to_string() == "f1")
                })
            })
            .expect("a deal with the ace of spades on top");
        let m = *p
            .legal_moves()
            .iter()
            .find(|m| matches!(m, Move::Step { to, .. } if p.layout.name(*to).to_string() == "f1"))
            .unwrap();
        assert_eq!(names(&p, &p.equivalent_destinations(m)), ["f1", "f5"]);
    }

    #[test]
    fn a_nivernaise_ace_has_one_foundation() {
        // The ace-house of its suit; the king-house takes its ace only last.
        let spec = crate::game("nivernaise").unwrap();
        for d in 1..50 {
            let p = Position::deal(spec, d).unwrap();
            for m in p.legal_moves() {
                if let Move::Step { from, .. } = m {
                    if p.top(from).map(|c| c.rank().number()) == Some(1) {
                        assert_eq!(p.equivalent_destinations(m).len(), 1, "deal {d}");
                    }
                }
            }
        }
    }

    /// Hearts, diamonds and clubs complete on `f2..f4`.
    fn other_suits_home() -> String {
        ["H", "D", "C"]
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ranks = [
                    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                ];
                let cards: Vec<String> = ranks.iter().map(|r| format!("{r}{s}")).collect();
                format!("f{}: {}\n", i + 2, cards.join(" "))
            })
            .collect()
    }

    #[test]
    fn a_fan_king_goes_to_any_empty_fan_and_a_foundation_is_not_one() {
        // Fan: an emptied fan takes a king. Fans 1, 3 and 5 hold cards.
        let p = Position::from_text(
            &format!(
                "game: fan\nt1: AS KS\nt3: 2S 3S 4S 5S 6S 7S 8S 9S 10S QS\nt5: JS\n{}",
                other_suits_home()
            ),
            None,
        )
        .unwrap();
        let all = p.equivalent_destinations(mv(&p, "t1>t2"));
        let empty: Vec<String> = [2, 4]
            .into_iter()
            .chain(6..=18)
            .map(|i| format!("t{i}"))
            .collect();
        assert_eq!(names(&p, &all), empty);
        assert_eq!(all, p.equivalent_destinations(mv(&p, "t1>t4")));
        // Onto a card: that card alone.
        assert_eq!(
            names(&p, &p.equivalent_destinations(mv(&p, "t5>t3"))),
            ["t3"]
        );
        // Illegal moves and deals have none.
        assert!(p.equivalent_destinations(mv(&p, "t3>t2")).is_empty());
        assert!(p.equivalent_destinations(Move::Deal).is_empty());
    }

    #[test]
    fn foundations_holding_different_cards_are_not_alike() {
        // House in the Woods, two spade foundations at different heights.
        let spec = crate::game("house-in-the-woods").unwrap();
        let mut p = Position::deal(spec, 1).unwrap();
        let f1 = p.layout.foundation(0);
        let f5 = p.layout.foundation(4);
        // Only foundations of the same rule with the same top can be alike.
        assert!(p.foundations_alike(f1, f5));
        assert!(!p.foundations_alike(f1, p.layout.foundation(1)));
        p.piles[f1.index()].push("AS".parse().unwrap());
        assert!(!p.foundations_alike(f1, f5));
    }

    /// Along random games of every game: each listed move's destinations
    /// start with its own, are all legal, all of one kind, and a move to
    /// any of them leaves positions that differ only by which pile is which.
    #[test]
    fn every_equivalent_destination_is_legal_and_alike() {
        use crate::prng::SplitMix64;
        let mut extra = 0;
        for g in crate::games() {
            for deal in 1..=6 {
                let mut p = Position::deal(g, deal).unwrap();
                let mut rng = SplitMix64::new(deal);
                for _ in 0..300 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let all = p.equivalent_destinations(m);
                        if let Some(to) = destination(m) {
                            assert!(all.contains(&to), "{} {m:?}", g.id);
                            for &d in &all {
                                let other = with_destination(m, d);
                                assert!(p.check(other).is_ok(), "{} {other:?}", g.id);
                                let kind = |x| std::mem::discriminant(&p.layout.kind(x).unwrap());
                                assert_eq!(kind(d), kind(to));
                                // The same number of cards home and moved.
                                let mut a = p.clone();
                                let mut b = p.clone();
                                a.apply(m).unwrap();
                                b.apply(other).unwrap();
                                assert_eq!(a.foundation_cards(), b.foundation_cards());
                                assert_eq!(
                                    a.legal_moves().len(),
                                    b.legal_moves().len(),
                                    "{} {m:?} {other:?}",
                                    g.id
                                );
                            }
                            extra += all.len() - 1;
                        } else {
                            assert!(all.is_empty());
                        }
                    }
                    p.apply(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        assert!(extra > 100, "{extra}");
    }
}
