//! A game in play: its current position, undo and redo, and the replay of a
//! [`Record`] into one.
//!
//! The dependency runs one way: a [`Record`] is plain data and text, and this
//! module builds games from records and records from games.

use std::collections::HashSet;

use crate::apply::Undo;
use crate::deal::DealError;
use crate::moves::Move;
use crate::position::Position;
use crate::record::{Record, RecordError};
use crate::rules::MoveError;
use crate::spec::GameSpec;

/// A deal being played, with unlimited undo and redo across redeals and deals.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    played: Vec<Undo>,
    /// Moves taken back, the next to redo last.
    redo: Vec<Move>,
}

impl Game {
    /// The opening position of deal `deal`, with nothing played.
    pub fn new(spec: &'static GameSpec, deal: u64) -> Result<Game, DealError> {
        Ok(Game {
            position: Position::deal(spec, deal)?,
            played: Vec::new(),
            redo: Vec::new(),
        })
    }

    /// The position after the moves played.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays a move; a legal new move clears the redo list.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let undo = self.position.apply(mv)?;
        self.played.push(undo);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some(u) => {
                self.position.undo(&u);
                self.redo.push(u.played());
                true
            }
            None => false,
        }
    }

    /// Plays again the last move taken back; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.last().copied() {
            Some(mv) => self.play(mv).is_ok(),
            None => false,
        }
    }

    /// The moves played since the deal, first first (moves taken back are not among them).
    pub fn moves(&self) -> Vec<Move> {
        self.played.iter().map(Undo::played).collect()
    }

    /// The hash ([`Position::hash`]) of every position the game has stood in
    /// since the deal, the current one included; positions only reached by
    /// moves since taken back are not among them.
    pub fn positions_passed(&self) -> HashSet<u64> {
        let mut pos = self.position.clone();
        let mut passed = HashSet::with_capacity(self.played.len() + 1);
        passed.insert(pos.hash());
        for undo in self.played.iter().rev() {
            pos.undo(undo);
            passed.insert(pos.hash());
        }
        passed
    }

    /// Moves that [`Game::redo`] would play, in the order it would play them.
    pub fn redo_moves(&self) -> Vec<Move> {
        self.redo.iter().rev().copied().collect()
    }

    /// Replaces the redo list (when a stored game is loaded); moves first to redo first.
    pub fn set_redo(&mut self, moves: Vec<Move>) {
        self.redo = moves.into_iter().rev().collect();
    }

    /// The record of the moves played: replaying it gives this position again.
    pub fn record(&self) -> Record {
        Record {
            game: self.position.spec(),
            deal: self.position.deal_number(),
            moves: self.moves(),
        }
    }
}

impl Record {
    /// Plays every move from the deal; the first illegal one is named with its
    /// index (0-based).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.game, self.deal)?;
        for (index, &mv) in self.moves.iter().enumerate() {
            let text = mv.text(game.position().layout());
            game.play(mv)
                .map_err(|error| RecordError::Illegal { index, text, error })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;

    #[test]
    fn names_the_first_illegal_move() {
        let g = catalogue::game("la-belle-lucie").unwrap();
        let mut game = Game::new(g, 3).unwrap();
        let first = game.position().legal_moves()[0];
        game.play(first).unwrap();
        let mut rec = game.record();
        rec.moves.push(Move::Redeal);
        rec.moves.push(Move::Redeal);
        rec.moves.push(Move::Redeal);
        let text = rec.to_text();
        let err = Record::parse(&text).unwrap().replay().unwrap_err();
        match err {
            RecordError::Illegal { index, .. } => assert_eq!(index, 3),
            e => panic!("{e}"),
        }
    }

    #[test]
    fn positions_passed_are_those_replayed_and_not_those_taken_back() {
        let g = catalogue::game("fan").unwrap();
        let mut game = Game::new(g, 5).unwrap();
        let mut hashes = vec![game.position().hash()];
        for _ in 0..6 {
            let m = game.position().legal_moves()[0];
            game.play(m).unwrap();
            hashes.push(game.position().hash());
        }
        assert!(game.undo());
        let gone = hashes.pop().unwrap();
        let passed = game.positions_passed();
        assert!(hashes.iter().all(|h| passed.contains(h)));
        assert!(!passed.contains(&gone) || hashes.contains(&gone));
        // An independent count: the record replayed from the deal.
        let mut p = Position::deal(g, 5).unwrap();
        let mut replayed = std::collections::HashSet::from([p.hash()]);
        for m in game.moves() {
            p.apply(m).unwrap();
            replayed.insert(p.hash());
        }
        assert_eq!(passed, replayed);
    }
}
