//! The shipped graded library (`data/library/<game-id>.tsv`), embedded in
//! the binary and loaded into the store on start (see
//! [`patience_store::library::load`]), so a fresh server offers levels at once.

#[cfg(test)]
mod tests {
    use crate::embedded::LIBRARY;
    use patience_store::library::{self, HEADER, OLD_HEADER};
    use patience_store::Store;

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
            let header = text.lines().next().unwrap_or("");
            assert!([HEADER, OLD_HEADER].contains(&header), "{path}");
            let (grades, bad) = library::parse(text);
            assert_eq!(bad, 0, "{path}");
            assert!(
                grades.windows(2).all(|w| w[0].deal < w[1].deal),
                "{path}: deals sorted, one line a deal"
            );
            files += 1;
            total += grades.len();
        }
        assert_eq!(files, patience_engine::games().len(), "one file a game");
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.db")).unwrap();
        library::load(&mut store, LIBRARY).unwrap();
        let stored: u64 = patience_engine::games()
            .iter()
            .map(|g| store.grade_count(g.id).unwrap())
            .sum();
        assert_eq!(stored, total as u64);
    }
}
