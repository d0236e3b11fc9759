//! A player's statistics per game, worked out from the stored games, so they
//! can never disagree with them.
//!
//! Counted games are those with at least one move. A won game extends the
//! streak; an unfinished game followed by a later game of the same kind was
//! abandoned and ends it; the newest unfinished game is still in play and
//! changes nothing yet.
//!
//! Starting a deal over is not a second game: an unwon game whose next
//! counted game of the same kind is the same deal (the player pressed
//! «Начать заново», or opened the deal's link again) is one attempt with
//! that next game. It is not counted by itself, so it neither adds a game
//! played nor ends the streak; a hint served in it makes the attempt's win
//! a win with hints. A won game is finished: playing its deal again is a
//! new game.
//!
//! A game counts once, by its first win: a player may undo after winning
//! (to look back, or to try another line) and win again, but that game stays
//! one win, and its best time and moves are those of the first win, so
//! replaying a known ending cannot improve them.
//!
//! A game won after a hint was served counts as won (and in the streak) but
//! is a win with hints: `won_without_hints` leaves it out, and so do the best
//! time and moves, which only unaided wins set. A win of a game stored
//! before hints were recorded (schema 3) may have had hints: it counts as
//! won, in `won_hints_unknown`, and sets no best either.

use serde::Serialize;

use patience_store::PlayedGame;

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameStats {
    pub game: &'static str,
    pub played: u64,
    pub won: u64,
    pub won_without_hints: u64,
    /// Wins of games stored before hints were recorded.
    pub won_hints_unknown: u64,
    pub current_streak: u64,
    pub best_streak: u64,
    pub best_time_ms: Option<i64>,
    pub best_moves: Option<u64>,
}

/// One entry per game of the catalogue, in catalogue order.
pub fn per_game(history: &[PlayedGame]) -> Vec<GameStats> {
    patience_engine::games()
        .iter()
        .map(|spec| {
            let mut s = GameStats {
                game: spec.id,
                played: 0,
                won: 0,
                won_without_hints: 0,
                won_hints_unknown: 0,
                current_streak: 0,
                best_streak: 0,
                best_time_ms: None,
                best_moves: None,
            };
            let all = counted(history);
            let games: Vec<&PlayedGame> = all.iter().filter(|g| g.game == spec.id).collect();
            for (i, g) in games.iter().enumerate() {
                s.played += 1;
                if let Some(win) = g.first_win {
                    s.won += 1;
                    s.current_streak += 1;
                    s.best_streak = s.best_streak.max(s.current_streak);
                    if g.hinted {
                        continue;
                    }
                    if !g.hints_known {
                        s.won_hints_unknown += 1;
                        continue;
                    }
                    s.won_without_hints += 1;
                    s.best_time_ms = Some(
                        s.best_time_ms
                            .map_or(win.elapsed_ms, |t| t.min(win.elapsed_ms)),
                    );
                    s.best_moves = Some(s.best_moves.map_or(win.moves, |m| m.min(win.moves)));
                } else if i + 1 < games.len() {
                    s.current_streak = 0;
                }
            }
            s
        })
        .collect()
}

/// The games statistics count, oldest first: those with a move or a win,
/// each unwon game started over on the same deal folded into the game that
/// started it over (see the module's words).
fn counted(history: &[PlayedGame]) -> Vec<PlayedGame> {
    let touched: Vec<&PlayedGame> = history
        .iter()
        .filter(|g| g.move_count > 0 || g.first_win.is_some())
        .collect();
    // For each game, whether the next touched game of its kind is its deal.
    let mut next_deal: std::collections::HashMap<&str, u64> = Default::default();
    let mut restarted = vec![false; touched.len()];
    for (i, g) in touched.iter().enumerate().rev() {
        restarted[i] = g.first_win.is_none() && next_deal.get(g.game.as_str()) == Some(&g.deal);
        next_deal.insert(&g.game, g.deal);
    }
    // What an attempt's earlier games carry into its last one, per kind.
    let mut carried: std::collections::HashMap<String, (bool, bool)> = Default::default();
    let mut out = Vec::with_capacity(touched.len());
    for (g, restarted) in touched.into_iter().zip(restarted) {
        let (hinted, unknown) = carried.remove(g.game.as_str()).unwrap_or((false, false));
        let mut g = g.clone();
        g.hinted |= hinted;
        g.hints_known &= !unknown;
        if restarted {
            carried.insert(g.game.clone(), (g.hinted, !g.hints_known));
        } else {
            out.push(g);
        }
    }
    out
}

/// One counted game, as the statistics page charts it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub game: String,
    /// The Moscow day the game was begun (see `crate::daily`).
    pub day: String,
    pub won: bool,
    /// Whether a hint was shown before the win; null when hints were not
    /// recorded then.
    pub hinted: Option<bool>,
    /// The first win's moves and time; null for a game not won.
    pub moves: Option<u64>,
    pub time_ms: Option<i64>,
    /// The deal's level: asked for, else its grade; null when not graded.
    pub level: Option<&'static str>,
}

/// The counted games (those `per_game` counts), oldest first.
pub fn rows(history: &[PlayedGame]) -> Vec<GameRow> {
    counted(history)
        .into_iter()
        .map(|g| GameRow {
            game: g.game.clone(),
            day: crate::daily::day_of_ms(g.created_ms)
                .map(crate::daily::day_text)
                .unwrap_or_default(),
            won: g.first_win.is_some(),
            hinted: g.hints_known.then_some(g.hinted),
            moves: g.first_win.map(|w| w.moves),
            time_ms: g.first_win.map(|w| w.elapsed_ms),
            level: g.level.map(|l| l.as_str()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_store::FirstWin;

    fn g(moves: u64, finished: bool, ms: i64) -> PlayedGame {
        PlayedGame {
            game: "fan".into(),
            deal: moves,
            move_count: moves,
            first_win: finished.then_some(FirstWin {
                moves,
                elapsed_ms: ms,
            }),
            hinted: false,
            hints_known: true,
            created_ms: 0,
            level: None,
        }
    }

    #[test]
    fn streaks_break_on_abandoned_games_only() {
        let history = [
            g(50, true, 9000),
            g(10, false, 100), // abandoned: breaks the streak
            g(0, false, 0),    // never touched: not counted
            g(60, true, 8000),
            g(55, true, 12000),
            g(3, false, 50), // in play now: the streak stands
        ];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!((fan.played, fan.won), (5, 3));
        assert_eq!((fan.current_streak, fan.best_streak), (2, 2));
        assert_eq!(fan.best_time_ms, Some(8000));
        assert_eq!(fan.best_moves, Some(50));
        let krug = per_game(&history)
            .into_iter()
            .find(|s| s.game == "krug")
            .unwrap();
        assert_eq!((krug.played, krug.won, krug.best_time_ms), (0, 0, None));
    }

    #[test]
    fn a_game_undone_after_its_win_counts_by_its_first_win() {
        // Won in 50 moves and 9 s, then undone to 40 moves: still one won
        // game, with the first win's figures, and it does not break the streak.
        let undone = PlayedGame {
            move_count: 40,
            ..g(50, true, 9000)
        };
        let history = [undone, g(3, false, 50)];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!((fan.played, fan.won, fan.current_streak), (2, 1, 1));
        assert_eq!((fan.best_moves, fan.best_time_ms), (Some(50), Some(9000)));
    }

    #[test]
    fn a_win_after_a_hint_counts_but_sets_no_best() {
        let helped = PlayedGame {
            hinted: true,
            ..g(40, true, 1000)
        };
        let history = [g(60, true, 9000), helped];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!((fan.played, fan.won, fan.won_without_hints), (2, 2, 1));
        assert_eq!(fan.current_streak, 2);
        assert_eq!((fan.best_moves, fan.best_time_ms), (Some(60), Some(9000)));
    }

    #[test]
    fn a_win_from_before_hint_records_is_not_called_hint_free() {
        let old = PlayedGame {
            hints_known: false,
            ..g(30, true, 500)
        };
        let history = [old, g(60, true, 9000)];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!(
            (fan.won, fan.won_without_hints, fan.won_hints_unknown),
            (2, 1, 1)
        );
        assert_eq!((fan.best_moves, fan.best_time_ms), (Some(60), Some(9000)));
        let r = rows(&history);
        assert_eq!((r[0].hinted, r[1].hinted), (None, Some(false)));
        assert_eq!(r[0].day, "1970-01-01");
    }

    #[test]
    fn a_deal_started_over_is_one_game() {
        let on = |deal: u64, moves: u64, won: bool| PlayedGame {
            deal,
            ..g(moves, won, 1000 + moves as i64)
        };
        let hinted = PlayedGame {
            hinted: true,
            ..on(7, 12, false)
        };
        let history = [
            on(5, 30, true),
            on(7, 10, false), // started over: the same attempt as the next two
            hinted,           // started over too, after a hint
            on(7, 0, false),  // started over without a move: not counted
            on(7, 40, true),  // the attempt's win, with the hint before it
            on(9, 20, false), // abandoned: ends the streak
            on(9, 25, false), // started over on the same deal, in play now
        ];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!((fan.played, fan.won, fan.won_without_hints), (3, 2, 1));
        assert_eq!((fan.current_streak, fan.best_streak), (2, 2));
        assert_eq!(fan.best_moves, Some(30));
        let r = rows(&history);
        assert_eq!(r.len(), 3);
        assert_eq!((r[1].moves, r[1].hinted), (Some(40), Some(true)));
        // A won deal played again is a second game, and its loss ends the streak.
        let history = [on(5, 30, true), on(5, 8, false), on(6, 9, false)];
        let fan = per_game(&history)
            .into_iter()
            .find(|s| s.game == "fan")
            .unwrap();
        assert_eq!((fan.played, fan.won, fan.current_streak), (3, 1, 0));
    }
}
