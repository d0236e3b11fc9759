//! Why a redeal cannot be taken now, in words a page can show on a
//! disabled button.

use crate::position::Position;
use crate::spec::Gather;

/// The reason [`Position::redeal_refusal`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedealRefusal {
    /// The game has no redeals at all.
    NoneInGame,
    /// Every redeal of the game has been taken.
    AllUsed,
    /// The game redeals only once the stock is empty (Nivernaise).
    StockNotEmpty,
    /// No card is left on the table to gather.
    TableEmpty,
}

impl RedealRefusal {
    /// A stable word for the reason: `none-in-game`, `all-used`,
    /// `stock-not-empty`, `table-empty`.
    pub fn code(self) -> &'static str {
        match self {
            RedealRefusal::NoneInGame => "none-in-game",
            RedealRefusal::AllUsed => "all-used",
            RedealRefusal::StockNotEmpty => "stock-not-empty",
            RedealRefusal::TableEmpty => "table-empty",
        }
    }
}

impl Position {
    /// Why a redeal is not legal now, or `None` when it is: the first of
    /// the reasons in [`RedealRefusal`]'s order that holds.
    pub fn redeal_refusal(&self) -> Option<RedealRefusal> {
        let r = &self.spec.redeals;
        if r.count == 0 {
            Some(RedealRefusal::NoneInGame)
        } else if self.redeals_used >= r.count {
            Some(RedealRefusal::AllUsed)
        } else if r.needs_empty_stock && !self.stock().is_empty() {
            Some(RedealRefusal::StockNotEmpty)
        } else if self.layout.tableau_ids().all(|t| self.pile(t).is_empty()) {
            Some(RedealRefusal::TableEmpty)
        } else {
            None
        }
    }

    /// Whether redeals are left that shuffle by the deal number
    /// ([`Gather::Shuffled`]) while the position has none: a position text
    /// without a `deal:` line (or with `deal: 0`), or the plain fan form.
    ///
    /// Such a position still redeals, by the shuffle of deal 0, which is no
    /// deal anyone was dealt: it serves studies of the shuffle itself. Input
    /// that stands for a real game (the command line's `--position`) is
    /// refused when this holds.
    pub fn missing_deal_number(&self) -> bool {
        self.deal == 0
            && self.spec.redeals.gather == Gather::Shuffled
            && self.redeals_used < self.spec.redeals.count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    #[test]
    fn the_reason_is_given_exactly_when_a_redeal_is_not_legal() {
        use crate::prng::SplitMix64;
        let mut seen = std::collections::HashSet::new();
        for g in crate::games() {
            for deal in 1..=4 {
                let mut p = Position::deal(g, deal).unwrap();
                let mut rng = SplitMix64::new(deal);
                for _ in 0..400 {
                    let refusal = p.redeal_refusal();
                    assert_eq!(refusal.is_none(), p.check(Move::Redeal).is_ok(), "{}", g.id);
                    seen.extend(refusal);
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.apply(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        for r in [
            RedealRefusal::NoneInGame,
            RedealRefusal::AllUsed,
            RedealRefusal::StockNotEmpty,
        ] {
            assert!(seen.contains(&r), "{r:?} never seen");
        }
    }

    /// A text without a `deal:` line lacks the number a shuffled redeal
    /// needs, while a redeal is left; a numbered one does not.
    #[test]
    fn a_shuffled_redeal_needs_the_deal_number() {
        let unknown = Position::from_text("KS QS\nJS\n", Some("la-belle-lucie")).unwrap();
        assert_eq!(unknown.deal_number(), 0);
        assert!(unknown.missing_deal_number());

        let numbered =
            Position::from_text(&unknown.to_text().replace("deal: 0", "deal: 5"), None).unwrap();
        assert_eq!(numbered.deal_number(), 5);
        assert!(!numbered.missing_deal_number());

        // No redeals left: nothing is missing.
        let spent = unknown.with_redeals_left(0).unwrap();
        assert!(!spent.missing_deal_number());
    }

    #[test]
    fn a_redeal_without_a_shuffle_needs_no_deal_number() {
        // Bredulia gathers the fans in order: the deal number plays no part.
        let dealt = Position::deal(crate::game("bredulia").unwrap(), 3).unwrap();
        assert_eq!(dealt.redeal_refusal(), None);
        let text = dealt.to_text().replace("deal: 3\n", "");
        let unknown = Position::from_text(&text, None).unwrap();
        assert_eq!(unknown.deal_number(), 0);
        assert!(!unknown.missing_deal_number());
    }

    #[test]
    fn nivernaise_waits_for_its_stock_and_fan_has_none() {
        let niv = Position::deal(crate::game("nivernaise").unwrap(), 1).unwrap();
        assert_eq!(niv.redeal_refusal(), Some(RedealRefusal::StockNotEmpty));
        let fan = Position::deal(crate::game("fan").unwrap(), 1).unwrap();
        assert_eq!(fan.redeal_refusal(), Some(RedealRefusal::NoneInGame));
        let lucie = Position::deal(crate::game("la-belle-lucie").unwrap(), 1).unwrap();
        assert_eq!(lucie.redeal_refusal(), None);
        assert_eq!(RedealRefusal::StockNotEmpty.code(), "stock-not-empty");
    }
}
