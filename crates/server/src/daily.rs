//! The deal of the day: one deal of every game a day, the same for every
//! player, from the graded library.
//!
//! The day is Moscow's (UTC+3 all year, the site's players' day): it turns
//! at 21:00 UTC. The rule, from the date alone:
//! - the level follows the weekday: Monday and Tuesday Easy, Wednesday and
//!   Thursday Medium, Friday, Saturday and Sunday Hard; a game with no graded
//!   deal of that level takes the nearest that has one (Hard → Medium →
//!   Easy, Easy → Medium → Hard, Medium → Easy → Hard). Unknown and
//!   Unwinnable deals are never chosen;
//! - among that level's graded deals of the game, in deal order, the one at
//!   index `SplitMix64(FNV-1a("daily/<game>/<YYYY-MM-DD>")) mod count`
//!   (the engine's generator, `patience_engine::prng`).
//!
//! A day's deal is chosen the first time it is asked for and kept in the
//! store from then on, so a past day stays the same deal however the
//! library grows. Days from [`DAYS_BACK`] days ago to today may be asked
//! for; the server's today can be fixed (`patience serve --today`) so tests
//! choose the date rather than the clock.

use patience_engine::prng::{fnv1a64, SplitMix64};
use patience_store::Level;
use time::macros::{format_description, offset};
pub use time::Date;
use time::{Duration, OffsetDateTime, UtcOffset, Weekday};

/// Moscow time: UTC+3, with no summer time.
pub const MOSCOW: UtcOffset = offset!(+3);

/// The calendar reaches back this many days before today.
pub const DAYS_BACK: i64 = 366;

/// Where the server's today comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system clock, in Moscow.
    #[default]
    System,
    /// A fixed date (tests).
    Fixed(Date),
}

impl Clock {
    /// Today in Moscow.
    pub fn today(self) -> Date {
        match self {
            Clock::System => OffsetDateTime::now_utc().to_offset(MOSCOW).date(),
            Clock::Fixed(d) => d,
        }
    }
}

/// The first day the calendar offers, given today.
pub fn first_day(today: Date) -> Date {
    today - Duration::days(DAYS_BACK)
}

/// A day written `YYYY-MM-DD`.
pub fn parse_day(text: &str) -> Option<Date> {
    Date::parse(text, format_description!("[year]-[month]-[day]")).ok()
}

/// The day as `YYYY-MM-DD`.
pub fn day_text(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// The Moscow day of a moment (milliseconds since 1970).
pub fn day_of_ms(ms: i64) -> Option<Date> {
    OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .map(|t| t.to_offset(MOSCOW).date())
}

/// The level a day asks for, by its weekday.
pub fn level_of(day: Date) -> Level {
    match day.weekday() {
        Weekday::Monday | Weekday::Tuesday => Level::Easy,
        Weekday::Wednesday | Weekday::Thursday => Level::Medium,
        Weekday::Friday | Weekday::Saturday | Weekday::Sunday => Level::Hard,
    }
}

/// The levels tried for a day's level, nearest first.
pub fn fallbacks(level: Level) -> [Level; 3] {
    match level {
        Level::Easy => [Level::Easy, Level::Medium, Level::Hard],
        Level::Medium => [Level::Medium, Level::Easy, Level::Hard],
        _ => [Level::Hard, Level::Medium, Level::Easy],
    }
}

/// The deal the rule picks for `game` on `day` among `deals` (one level's
/// graded deals, in deal order); `None` when there are none.
pub fn pick(game: &str, day: Date, deals: &[u64]) -> Option<u64> {
    if deals.is_empty() {
        return None;
    }
    let seed = fnv1a64(format!("daily/{game}/{}", day_text(day)).as_bytes());
    let i = SplitMix64::new(seed).below(deals.len() as u64) as usize;
    Some(deals[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn the_day_is_moscows() {
        // 20:59 UTC is 23:59 in Moscow; 21:00 UTC is the next day there.
        let t = |s: i64| day_of_ms(s * 1000).map(day_text);
        let nov30_2059 = 1_796_072_340; // 2026-11-30 20:59:00 UTC
        assert_eq!(t(nov30_2059).as_deref(), Some("2026-11-30"));
        assert_eq!(t(nov30_2059 + 60).as_deref(), Some("2026-12-01"));
    }

    #[test]
    fn the_week_rotates_through_the_levels() {
        // 2026-11-30 is a Monday.
        let week: Vec<Level> = (0..7)
            .map(|i| level_of(date!(2026 - 11 - 30) + Duration::days(i)))
            .collect();
        use Level::*;
        assert_eq!(week, [Easy, Easy, Medium, Medium, Hard, Hard, Hard]);
    }

    #[test]
    fn the_pick_depends_on_the_game_and_the_day_only() {
        let deals: Vec<u64> = (1..=500).collect();
        let d = date!(2026 - 12 - 01);
        assert_eq!(pick("fan", d, &deals), pick("fan", d, &deals));
        let days: std::collections::HashSet<_> = (0..10)
            .map(|i| pick("fan", d + Duration::days(i), &deals))
            .collect();
        assert!(days.len() >= 9, "ten days give (nearly) ten deals");
        assert_ne!(pick("fan", d, &deals), pick("krug", d, &deals));
        assert_eq!(pick("fan", d, &[]), None);
        assert_eq!(parse_day("2026-12-01"), Some(d));
        assert_eq!(parse_day("2026-13-01"), None);
        assert_eq!(day_text(d), "2026-12-01");
    }
}
