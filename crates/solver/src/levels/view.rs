//! What a person at the table sees of a position, and nothing more.
//!
//! A [`View`] is built from a [`Position`] by copying only face-up cards: the
//! tableau, the foundations, the flank cells, the reserve and the waste (every
//! waste card was face up when it was turned, so a person has seen it). Of the
//! face-down stock it keeps only the count, and it drops the deal number, which
//! is what decides future redeal shuffles. Code that only holds a `View`
//! therefore cannot read a hidden card: that is the whole point of the type.
//!
//! A person still knows which cards exist, so the *set* of unseen cards is
//! fair knowledge; [`View::imagine`] turns a view back into a [`Position`]
//! whose stock holds those unseen cards in a fixed sorted order and whose deal
//! number is 0. Rules can then be asked of the engine (which moves are legal,
//! which foundation takes a card) without writing them again here; cards that
//! such an imagined position deals out of its stock are inventions and must be
//! treated as unknown by whoever looks ahead.

use patience_engine::{Card, GameSpec, Layout, PileId, PileKind, Position};

/// The face-up part of a position.
#[derive(Clone, Debug)]
pub struct View {
    spec: &'static GameSpec,
    layout: Layout,
    /// Every pile but the stock, which is left empty here.
    piles: Vec<Vec<Card>>,
    stock_count: usize,
    redeals_used: u8,
    draw_used: bool,
}

impl PartialEq for View {
    fn eq(&self, other: &Self) -> bool {
        self.spec.id == other.spec.id
            && self.piles == other.piles
            && self.stock_count == other.stock_count
            && self.redeals_used == other.redeals_used
            && self.draw_used == other.draw_used
    }
}
impl Eq for View {}

impl View {
    /// What a person sees of `pos`.
    pub fn of(pos: &Position) -> View {
        let layout = *pos.layout();
        let piles = layout
            .ids()
            .map(|id| match layout.kind(id) {
                Some(PileKind::Stock) | None => Vec::new(),
                Some(_) => pos.pile(id).to_vec(),
            })
            .collect();
        View {
            spec: pos.spec(),
            layout,
            piles,
            stock_count: pos.stock_len(),
            redeals_used: pos.redeals_used(),
            draw_used: pos.draw_used(),
        }
    }

    pub fn spec(&self) -> &'static GameSpec {
        self.spec
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The face-up cards of a pile, bottom first; always empty for the stock.
    pub fn pile(&self, id: PileId) -> &[Card] {
        self.piles.get(id.index()).map_or(&[], Vec::as_slice)
    }

    /// How many cards lie face down in the stock.
    pub fn stock_count(&self) -> usize {
        self.stock_count
    }

    pub fn redeals_left(&self) -> u8 {
        self.spec
            .redeals_allowed()
            .saturating_sub(self.redeals_used)
    }

    /// The cards a person cannot see: the pack minus every face-up card, sorted.
    /// They are the stock's cards, in an order nobody at the table knows.
    pub fn unseen(&self) -> Vec<Card> {
        let mut counts = [0usize; Card::COUNT];
        for &c in self.piles.iter().flatten() {
            counts[c.index()] += 1;
        }
        let mut out = Vec::with_capacity(self.stock_count);
        for c in self.spec.pack() {
            if counts[c.index()] > 0 {
                counts[c.index()] -= 1;
            } else {
                out.push(c);
            }
        }
        out
    }

    /// A position that agrees with this view in every face-up card, with the
    /// unseen cards as its stock in sorted order and deal number 0 (so that it
    /// knows nothing about future shuffles either). `None` only if the view
    /// was not made from a real position, which [`View::of`] rules out.
    pub fn imagine(&self) -> Option<Position> {
        let mut piles = self.piles.clone();
        if let Some(s) = self.layout.stock {
            piles[s.index()] = self.unseen();
        }
        Position::from_parts(self.spec, 0, piles, self.redeals_used, self.draw_used).ok()
    }

    /// A key that tells apart views a person could tell apart (FNV-1a over
    /// the face-up piles, the stock count and the counters).
    pub fn key(&self) -> u64 {
        face_up_key(
            self.piles.iter().map(Vec::as_slice),
            self.stock_count,
            self.redeals_used,
            self.draw_used,
        )
    }

    /// The [`View::key`] of `View::of(pos)`, without building the view.
    pub fn key_of(pos: &Position) -> u64 {
        let layout = pos.layout();
        face_up_key(
            layout.ids().map(|id| match layout.kind(id) {
                Some(PileKind::Stock) | None => &[][..],
                Some(_) => pos.pile(id),
            }),
            pos.stock_len(),
            pos.redeals_used(),
            pos.draw_used(),
        )
    }
}

fn face_up_key<'a>(
    piles: impl Iterator<Item = &'a [Card]>,
    stock_count: usize,
    redeals_used: u8,
    draw_used: bool,
) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: u64| {
        h ^= b;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    };
    for pile in piles {
        eat(0xFF);
        for c in pile {
            eat(c.index() as u64);
        }
    }
    eat(stock_count as u64);
    eat(redeals_used as u64);
    eat(draw_used as u64);
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_engine::game;

    #[test]
    fn the_stock_is_only_a_count_and_imagining_keeps_every_face_up_card() {
        let spec = game("nivernaise").unwrap();
        let pos = Position::deal(spec, 7).unwrap();
        let v = View::of(&pos);
        let s = pos.layout().stock.unwrap();
        assert_eq!(v.pile(s), &[] as &[Card]);
        assert_eq!(v.stock_count(), pos.pile(s).len());
        let mut stock = pos.pile(s).to_vec();
        stock.sort();
        assert_eq!(v.unseen(), stock);
        let imagined = v.imagine().unwrap();
        assert_eq!(View::of(&imagined), v);
        assert_eq!(View::key_of(&pos), v.key());
        assert_eq!(View::key_of(&imagined), v.key());
        assert_eq!(imagined.legal_moves(), pos.legal_moves());
        assert_eq!(imagined.deal_number(), 0);
    }
}
