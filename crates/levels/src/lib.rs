//! The levels a deal may have and a graded deal's record: the words the
//! solver's grading, the store, the library files and the site share, so
//! none of them stands above another to name a level.
//!
//! How a level is decided from a deal's evidence is the grading's business
//! (`patience_solver::levels::grade`); this crate only names the levels and
//! holds what is kept of a grade.

use std::fmt;

use serde::Serialize;

/// How hard a deal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Unwinnable,
    Unknown,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unwinnable,
        Level::Unknown,
    ];

    /// The word used in the library files and the store: `easy`, `medium`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unwinnable => "unwinnable",
            Level::Unknown => "unknown",
        }
    }

    pub fn parse(word: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == word.trim())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The person-like player's record on one deal: `wins` of `runs` games,
/// with `runs > 0` and `wins <= runs` (so no such record can say more wins
/// than games). Answered to the page as `{"wins": k, "runs": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PersonWins {
    wins: u32,
    runs: u32,
}

impl PersonWins {
    /// `None` unless `runs > 0` and `wins <= runs`.
    pub fn new(wins: u32, runs: u32) -> Option<PersonWins> {
        (runs > 0 && wins <= runs).then_some(PersonWins { wins, runs })
    }

    pub fn wins(self) -> u32 {
        self.wins
    }

    pub fn runs(self) -> u32 {
        self.runs
    }
}

/// One graded deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealGrade {
    pub deal: u64,
    pub level: Level,
    /// The person-like player's wins, when it played the deal (it is not
    /// played on a deal known to have no win, and older grades lack it).
    pub person: Option<PersonWins>,
}

impl DealGrade {
    /// A grade without the person-like player's record.
    pub fn level_only(deal: u64, level: Level) -> DealGrade {
        DealGrade {
            deal,
            level,
            person: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_back_from_their_words_and_nothing_else_reads() {
        for l in Level::ALL {
            assert_eq!(Level::parse(l.as_str()), Some(l));
            assert_eq!(Level::parse(&format!(" {l}\n")), Some(l));
        }
        assert_eq!(Level::parse("trivial"), None);
        assert_eq!(Level::parse("Easy"), None);
    }

    #[test]
    fn person_wins_never_say_more_wins_than_runs() {
        assert_eq!(PersonWins::new(3, 2), None);
        assert_eq!(PersonWins::new(0, 0), None);
        assert_eq!(
            PersonWins::new(2, 2).map(|p| (p.wins(), p.runs())),
            Some((2, 2))
        );
    }
}
