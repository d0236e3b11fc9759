//! The shipped graded library (`data/library/<game-id>.tsv`, embedded): loaded
//! into the store on start, so a fresh server offers levels at once. A store
//! that already has grades gets only the deals it lacks (a newer build ships
//! more deals; a deal graded locally keeps its local grade), and a store that
//! holds at least as many grades of a game as the file is not touched, so a
//! restart costs no writes.

use patience_engine::MAX_DEAL;

use crate::embedded::LIBRARY;
use crate::store::{Level, Store, StoreError};

/// Reads one library file: a header line, then `deal<TAB>level` lines.
/// Lines that do not parse are skipped and counted, never fatal: a bad line in
/// a shipped file must not stop the site from starting.
pub fn parse(text: &str) -> (Vec<(u64, Level)>, usize) {
    let mut grades = Vec::new();
    let mut bad = 0;
    for line in text.lines().skip(1) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        let deal = cols.next().and_then(|d| d.trim().parse::<u64>().ok());
        let level = cols.next().and_then(|l| Level::parse(l.trim()));
        match (deal, level) {
            (Some(d), Some(l)) if (1..=MAX_DEAL).contains(&d) => grades.push((d, l)),
            _ => bad += 1,
        }
    }
    (grades, bad)
}

/// Loads every embedded library file of a known game into the store (see the module documentation).
pub fn load_embedded(store: &mut Store) -> Result<(), StoreError> {
    load(store, LIBRARY)
}

/// Loads library files given as `(file name, bytes)`.
pub fn load(store: &mut Store, files: &[(&str, &[u8])]) -> Result<(), StoreError> {
    for &(path, bytes) in files {
        let Some(game) = path.strip_suffix(".tsv") else {
            continue;
        };
        if patience_engine::game(game).is_none() {
            tracing::warn!(file = path, "library file for an unknown game; skipped");
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let (grades, bad) = parse(&text);
        if store.grade_count(game)? >= grades.len() as u64 {
            continue;
        }
        let n = store.add_missing_grades(game, &grades)?;
        if bad > 0 {
            tracing::warn!(
                file = path,
                bad,
                "library lines that did not parse were skipped"
            );
        }
        tracing::info!(game, deals = n, "loaded the graded library");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_lines_parse_and_bad_ones_are_counted() {
        let (grades, bad) =
            parse("deal\tlevel\n5\teasy\n6\thard\n\n7\ttrivial\n0\teasy\nx\tmedium\n8\tunknown\n");
        assert_eq!(
            grades,
            vec![(5, Level::Easy), (6, Level::Hard), (8, Level::Unknown)]
        );
        assert_eq!(bad, 3);
    }

    #[test]
    fn a_game_already_graded_in_the_store_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        store.put_grade("krug", 9, "hard", "{}").unwrap();
        let files: &[(&str, &[u8])] = &[
            ("fan.tsv", b"deal\tlevel\n5\teasy\n6\tmedium\n"),
            ("krug.tsv", b"deal\tlevel\n1\teasy\n"),
            ("no-such-game.tsv", b"deal\tlevel\n1\teasy\n"),
            ("README.md", b"# words"),
        ];
        load(&mut store, files).unwrap();
        assert_eq!(
            store.level_counts("fan").unwrap(),
            vec![("easy".into(), 1), ("medium".into(), 1)]
        );
        assert_eq!(
            store.level_counts("krug").unwrap(),
            vec![("hard".into(), 1)]
        );
        assert!(!store.has_grades("no-such-game").unwrap());
    }

    #[test]
    fn a_newer_library_adds_its_new_deals_and_keeps_local_grades() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        load(
            &mut store,
            &[("krug.tsv", b"deal\tlevel\n1\teasy\n2\teasy\n")],
        )
        .unwrap();
        // Deal 2 regraded locally.
        store.put_grade("krug", 2, "hard", "{}").unwrap();
        let newer: &[(&str, &[u8])] =
            &[("krug.tsv", b"deal\tlevel\n1\teasy\n2\teasy\n3\tmedium\n")];
        load(&mut store, newer).unwrap();
        assert_eq!(
            store.grades("krug").unwrap(),
            vec![(1, Level::Easy), (2, Level::Hard), (3, Level::Medium)]
        );
    }

    /// The files that ship: every line parses, every file names a game, each
    /// deal appears once in order (what `patience grade --export` writes), and
    /// all of them load into a fresh store. A bad shipped line would otherwise
    /// only show as a warning in a server's log.
    #[test]
    fn the_shipped_library_parses_cleanly_and_loads() {
        let mut files = 0;
        let mut total = 0;
        for &(path, bytes) in LIBRARY {
            let Some(game) = path.strip_suffix(".tsv") else {
                continue;
            };
            assert!(patience_engine::game(game).is_some(), "{path}");
            let text = std::str::from_utf8(bytes).unwrap();
            assert_eq!(text.lines().next(), Some("deal\tlevel"), "{path}");
            let (grades, bad) = parse(text);
            assert_eq!(bad, 0, "{path}");
            assert!(
                grades.windows(2).all(|w| w[0].0 < w[1].0),
                "{path}: deals sorted, one line a deal"
            );
            files += 1;
            total += grades.len();
        }
        assert_eq!(files, patience_engine::games().len(), "one file a game");
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        load_embedded(&mut store).unwrap();
        let stored: u64 = patience_engine::games()
            .iter()
            .flat_map(|g| store.level_counts(g.id).unwrap())
            .map(|(_, n)| n)
            .sum();
        assert_eq!(stored, total as u64);
    }
}
