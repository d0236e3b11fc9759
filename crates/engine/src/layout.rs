//! Pile ids and what kind of pile each one is.
//!
//! Every position of a game has the same piles in the same order: tableau,
//! foundations, flank cells, reserve, waste, stock. A [`PileId`] is an index
//! into that order; [`Layout`] says which kind stands at an index and gives the
//! pile its text name (`t1`, `f2`, `c3`, `r`, `w`, `s`).

use std::fmt;

use crate::spec::{GameSpec, StockAction};

/// Index of a pile within a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PileId(pub u8);

impl PileId {
    /// The pile's place in [`Position::piles`](crate::Position::piles).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a pile is, with its number among its kind (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PileKind {
    /// A fan, a column or a line pile.
    Tableau(u8),
    /// A foundation, built from its opening rank.
    Foundation(u8),
    /// A flank cell of Nivernaise.
    Cell(u8),
    /// The face-up reserve of Blondes and Brunettes.
    Reserve,
    /// Where stock cards are turned to, one at a time.
    Waste,
    /// The cards not dealt to the table, face down, next card last.
    Stock,
}

/// Where each kind of pile stands in a game's pile order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of tableau piles; they come first, from id 0.
    pub tableau: u8,
    /// Number of foundations; they follow the tableau.
    pub foundations: u8,
    /// Number of flank cells; they follow the foundations.
    pub cells: u8,
    /// The reserve's id, when the game has one.
    pub reserve: Option<PileId>,
    /// The waste's id, when the game has one.
    pub waste: Option<PileId>,
    /// The stock's id, when the game has one.
    pub stock: Option<PileId>,
    /// Number of piles in all; every id is below it.
    pub piles: u8,
}

impl Layout {
    /// The layout of a game: its piles in their fixed order.
    pub fn of(spec: &GameSpec) -> Layout {
        let mut next = spec.tableau_piles + spec.foundations.len() as u8 + spec.cells;
        let mut take = |present: bool| {
            present.then(|| {
                next += 1;
                PileId(next - 1)
            })
        };
        let reserve = take(spec.reserve > 0);
        let waste = take(spec.waste > 0 || spec.stock_action == StockAction::OneToWaste);
        let stock = take(spec.has_stock);
        Layout {
            tableau: spec.tableau_piles,
            foundations: spec.foundations.len() as u8,
            cells: spec.cells,
            reserve,
            waste,
            stock,
            piles: next,
        }
    }

    /// Tableau pile `i` (0-based).
    pub fn tableau(&self, i: u8) -> PileId {
        PileId(i)
    }

    /// Foundation `i` (0-based).
    pub fn foundation(&self, i: u8) -> PileId {
        PileId(self.tableau + i)
    }

    /// Flank cell `i` (0-based).
    pub fn cell(&self, i: u8) -> PileId {
        PileId(self.tableau + self.foundations + i)
    }

    /// The tableau piles in order.
    pub fn tableau_ids(&self) -> impl Iterator<Item = PileId> {
        (0..self.tableau).map(PileId)
    }

    /// The foundations in order.
    pub fn foundation_ids(&self) -> impl Iterator<Item = PileId> {
        let first = self.tableau;
        (first..first + self.foundations).map(PileId)
    }

    /// The flank cells in order.
    pub fn cell_ids(&self) -> impl Iterator<Item = PileId> {
        let first = self.tableau + self.foundations;
        (first..first + self.cells).map(PileId)
    }

    /// Every pile in order.
    pub fn ids(&self) -> impl Iterator<Item = PileId> {
        (0..self.piles).map(PileId)
    }

    /// The kind of pile at `id`, or `None` when the game has no such pile.
    pub fn kind(&self, id: PileId) -> Option<PileKind> {
        let i = id.0;
        let f = self.tableau;
        let c = f + self.foundations;
        let r = c + self.cells;
        Some(if i < f {
            PileKind::Tableau(i)
        } else if i < c {
            PileKind::Foundation(i - f)
        } else if i < r {
            PileKind::Cell(i - c)
        } else if Some(id) == self.reserve {
            PileKind::Reserve
        } else if Some(id) == self.waste {
            PileKind::Waste
        } else if Some(id) == self.stock {
            PileKind::Stock
        } else {
            return None;
        })
    }

    /// The text name: `t1`, `f1`, `c1`, `r`, `w`, `s` (numbers from 1).
    pub fn name(&self, id: PileId) -> PileName {
        PileName(self.kind(id))
    }

    /// The pile a text name stands for in this layout.
    pub fn parse(&self, name: &str) -> Option<PileId> {
        let name = name.trim();
        let (letter, rest) = name.split_at(name.char_indices().nth(1).map_or(name.len(), |x| x.0));
        let number = || -> Option<u8> {
            let n: u8 = rest.parse().ok()?;
            n.checked_sub(1)
        };
        match letter {
            "t" if rest.len() <= 3 => number()
                .filter(|&n| n < self.tableau)
                .map(|n| self.tableau(n)),
            "f" if rest.len() <= 3 => number()
                .filter(|&n| n < self.foundations)
                .map(|n| self.foundation(n)),
            "c" if rest.len() <= 3 => number().filter(|&n| n < self.cells).map(|n| self.cell(n)),
            "r" if rest.is_empty() => self.reserve,
            "w" if rest.is_empty() => self.waste,
            "s" if rest.is_empty() => self.stock,
            _ => None,
        }
    }
}

/// Display helper for a pile's text name.
pub struct PileName(Option<PileKind>);

impl fmt::Display for PileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(PileKind::Tableau(i)) => write!(f, "t{}", i + 1),
            Some(PileKind::Foundation(i)) => write!(f, "f{}", i + 1),
            Some(PileKind::Cell(i)) => write!(f, "c{}", i + 1),
            Some(PileKind::Reserve) => f.write_str("r"),
            Some(PileKind::Waste) => f.write_str("w"),
            Some(PileKind::Stock) => f.write_str("s"),
            None => f.write_str("?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::games;

    #[test]
    fn every_pile_name_parses_back_to_its_pile() {
        for g in games() {
            let l = Layout::of(g);
            for id in l.ids() {
                let name = l.name(id).to_string();
                assert_eq!(l.parse(&name), Some(id), "{} {name}", g.id);
            }
            assert_eq!(l.parse("t0"), None);
            assert_eq!(l.parse("t999"), None);
            assert_eq!(l.parse(""), None);
            assert_eq!(l.parse("ж1"), None);
        }
    }
}
