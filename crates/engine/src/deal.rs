//! The opening deal of a game from its deal number.
//!
//! The pack is the game's cards sorted (see [`GameSpec::pack`]), shuffled by
//! [`SplitMix64::for_shuffle`] with redeal index 0. Cards are then dealt from
//! the front of the shuffled pack: Krug's bases first, then the reserve, the
//! tableau pile by pile (each pile bottom card first), the flank cells, the
//! waste, and what is left becomes the stock, its first card on top.

use crate::card::{Card, Rank};
use crate::layout::{Layout, PileId};
use crate::position::{Position, MAX_DEAL};
use crate::prng::SplitMix64;
use crate::spec::{AcesOut, GameSpec};

/// A deal number outside `1..=MAX_DEAL`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("deal number {0} is out of range (deals run from 1 to {MAX_DEAL})")]
pub struct DealError(pub u64);

impl Position {
    /// The opening position of deal `deal` of a game.
    pub fn deal(spec: &'static GameSpec, deal: u64) -> Result<Position, DealError> {
        if !(1..=MAX_DEAL).contains(&deal) {
            return Err(DealError(deal));
        }
        let layout = Layout::of(spec);
        let mut pos = Position {
            spec,
            layout,
            deal,
            piles: vec![Vec::new(); layout.piles as usize],
            redeals_used: 0,
            draw_used: false,
            hash: 0,
            dealt_hash: 0,
            tables: crate::tables::RuleTables::for_spec(spec),
            tops: [0; crate::position::MAX_TABLEAU],
        };
        let mut pack = spec.pack();
        if spec.aces_out == AcesOut::BeforeDeal {
            pack.retain(|c| c.rank() != Rank::ACE);
            pos.aces_to_foundations(spec.pack().into_iter().filter(|c| c.rank() == Rank::ACE));
        }
        SplitMix64::for_shuffle(spec.id, deal, 0).shuffle(&mut pack);
        let mut pack: std::collections::VecDeque<Card> = pack.into();
        if spec.krug_bases {
            let mut bases: Vec<Card> = Vec::new();
            while bases.len() < 4 {
                let Some(c) = pack.pop_front() else { break };
                if bases.iter().any(|b| b.suit() == c.suit()) {
                    pack.push_back(c);
                } else {
                    bases.push(c);
                    pos.piles[layout.foundation(c.suit().index() as u8).index()].push(c);
                }
            }
        }
        if let Some(r) = layout.reserve {
            pos.piles[r.index()].extend(pack.drain(..spec.reserve as usize));
        }
        let tableau_cards =
            (spec.tableau_piles as usize * spec.tableau_fan_size as usize).min(pack.len());
        let cards: Vec<Card> = pack.drain(..tableau_cards).collect();
        deal_fans(&mut pos, &cards, spec.tableau_fan_size as usize);
        for c in layout.cell_ids() {
            if let Some(card) = pack.pop_front() {
                pos.piles[c.index()].push(card);
            }
        }
        if let Some(w) = layout.waste {
            pos.piles[w.index()].extend(pack.drain(..(spec.waste as usize).min(pack.len())));
        }
        if let Some(s) = layout.stock {
            pos.piles[s.index()].extend(pack.drain(..).rev());
        }
        debug_assert!(pack.is_empty(), "every card dealt");
        if spec.aces_out == AcesOut::AfterDeal {
            let mut aces = Vec::new();
            for t in layout.tableau_ids() {
                pos.piles[t.index()].retain(|c| {
                    let ace = c.rank() == Rank::ACE;
                    if ace {
                        aces.push(*c);
                    }
                    !ace
                });
            }
            pos.aces_to_foundations(aces.into_iter());
        }
        pos.sync_tops();
        pos.recompute_hash();
        Ok(pos)
    }

    /// Puts each ace on the first empty foundation of its suit.
    fn aces_to_foundations(&mut self, aces: impl Iterator<Item = Card>) {
        for ace in aces {
            if let Some(f) = self.layout.foundation_ids().find(|&f| {
                self.piles[f.index()].is_empty()
                    && self.spec.foundations[(f.0 - self.layout.tableau) as usize].suit
                        == Some(ace.suit())
            }) {
                self.piles[f.index()].push(ace);
            }
        }
    }
}

/// Deals `cards` in order into the tableau in fans of `size`, pile by pile,
/// each fan bottom card first; what the tableau cannot hold goes to the stock
/// (its first card on top). Clears the tableau first. The hash is left stale.
pub(crate) fn deal_fans(pos: &mut Position, cards: &[Card], size: usize) {
    let layout = pos.layout;
    for t in layout.tableau_ids() {
        pos.piles[t.index()].clear();
    }
    let size = size.max(1);
    let dealt = cards.len().min(size * layout.tableau as usize);
    for (t, chunk) in layout.tableau_ids().zip(cards[..dealt].chunks(size)) {
        pos.piles[t.index()].extend_from_slice(chunk);
    }
    let rest = &cards[dealt..];
    match layout.stock {
        Some(s) => {
            pos.piles[s.index()].clear();
            pos.piles[s.index()].extend(rest.iter().rev());
        }
        None => {
            let last = PileId(layout.tableau.saturating_sub(1));
            pos.piles[last.index()].extend_from_slice(rest);
        }
    }
}
