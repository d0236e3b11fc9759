//! The graded library: one TSV file a game (`data/library/<game>.tsv`), a
//! header line, then one line a deal: `deal<TAB>level<TAB>person_wins<TAB>runs`,
//! the last two empty for a deal the person-like player did not play. A
//! file with the older two-column header (`deal<TAB>level`) reads too, its
//! deals without the person-like player's wins.
//!
//! The server embeds the shipped files and loads them into its store
//! ([`load`]); `patience grade --export` appends to them as it grades and
//! rewrites them sorted, merged with the store ([`Appender`], [`merge`]).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use crate::error::{shorten, StoreError};
use crate::{DealGrade, Level, PersonWins, Store};

/// The header this build writes.
pub const HEADER: &str = "deal\tlevel\tperson_wins\truns";

/// The header of a library written before the wins were kept.
pub const OLD_HEADER: &str = "deal\tlevel";

/// Whether a line is one of the two headers.
fn is_header(line: &str) -> bool {
    [HEADER, OLD_HEADER].contains(&line.trim_end())
}

/// Reads one deal's line; the error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<DealGrade, String> {
    let mut cols = line.trim_end_matches(['\r', '\n']).split('\t');
    let (Some(deal), Some(level)) = (cols.next(), cols.next()) else {
        return Err(format!(
            "expected deal<TAB>level, found `{}`",
            shorten(line)
        ));
    };
    let deal: u64 = deal
        .trim()
        .parse()
        .ok()
        .filter(|d| (1..=patience_engine::MAX_DEAL).contains(d))
        .ok_or_else(|| format!("bad deal number `{}`", shorten(deal)))?;
    let level = Level::parse(level).ok_or_else(|| format!("unknown level `{}`", shorten(level)))?;
    let person = match (cols.next().map(str::trim), cols.next().map(str::trim)) {
        (None | Some(""), None | Some("")) => None,
        (Some(w), Some(n)) => Some(
            w.parse::<u32>()
                .ok()
                .zip(n.parse::<u32>().ok())
                .and_then(|(w, n)| PersonWins::new(w, n))
                .ok_or_else(|| format!("bad wins `{}` of `{}`", shorten(w), shorten(n)))?,
        ),
        _ => return Err("expected person_wins<TAB>runs after the level".into()),
    };
    if cols.next().is_some() {
        return Err("more than four columns".into());
    }
    Ok(DealGrade {
        deal,
        level,
        person,
    })
}

/// The line of a deal (without its newline), as [`parse_line`] reads it.
pub fn line(g: &DealGrade) -> String {
    match g.person {
        Some(p) => format!("{}\t{}\t{}\t{}", g.deal, g.level, p.wins(), p.runs()),
        None => format!("{}\t{}\t\t", g.deal, g.level),
    }
}

/// Reads a shipped file leniently: the first line is the header, blank
/// lines and `#` comments are skipped, and a line that does not parse is
/// skipped and counted, never fatal: a bad line in a shipped file must not
/// stop the site from starting. Returns the grades and the bad lines.
pub fn parse(text: &str) -> (Vec<DealGrade>, usize) {
    let mut grades = Vec::new();
    let mut bad = 0;
    for line in text.lines().skip(1) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(g) => grades.push(g),
            Err(_) => bad += 1,
        }
    }
    (grades, bad)
}

/// Reads a library file strictly (a missing one is empty): the last line
/// of a deal wins, and a malformed line is an error naming the file and line.
pub fn read(path: &Path) -> Result<BTreeMap<u64, DealGrade>, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(StoreError::io(path, e)),
    };
    let mut rows = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || (i == 0 && is_header(line)) {
            continue;
        }
        let g = parse_line(line).map_err(|reason| StoreError::Library {
            at: format!("{}:{}", path.display(), i + 1),
            reason,
        })?;
        rows.insert(g.deal, g);
    }
    Ok(rows)
}

/// Rewrites a library file sorted by deal, one line a deal: its own lines
/// merged with `grades` (the store's), which win over the file, except that
/// a store grade without the person-like player's wins keeps the file's
/// when both give the deal the same level. Returns the number of deals
/// written. A malformed line is an error, and the file is then left as it
/// was; the new file replaces the old at once (written aside, then renamed).
pub fn merge(path: &Path, grades: &[DealGrade]) -> Result<usize, StoreError> {
    let mut rows = read(path)?;
    for g in grades {
        let row = rows.entry(g.deal).or_insert(*g);
        let keep_wins = g.person.is_none() && row.level == g.level;
        if !keep_wins {
            *row = *g;
        }
    }
    let mut out = String::from(HEADER);
    out.push('\n');
    for g in rows.values() {
        out.push_str(&line(g));
        out.push('\n');
    }
    let tmp = path.with_extension("tsv.tmp");
    std::fs::write(&tmp, out).map_err(|e| StoreError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| StoreError::io(path, e))?;
    Ok(rows.len())
}

/// A library file open for appending, one line a grade, each flushed as
/// written: an interrupted grading keeps every line it wrote.
pub struct Appender {
    file: std::fs::File,
    path: std::path::PathBuf,
}

impl Appender {
    /// Opens `path` for appending, writing the header if the file is new.
    pub fn open(path: &Path) -> Result<Appender, StoreError> {
        let fresh = !path.exists();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| StoreError::io(path, e))?;
        if fresh {
            writeln!(file, "{HEADER}").map_err(|e| StoreError::io(path, e))?;
        }
        Ok(Appender {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn append(&mut self, g: &DealGrade) -> Result<(), StoreError> {
        writeln!(self.file, "{}", line(g))
            .and_then(|()| self.file.flush())
            .map_err(|e| StoreError::io(&self.path, e))
    }
}

/// One library file of a known game, read leniently (see [`parse`]).
pub struct LibraryFile<'a> {
    pub name: &'a str,
    pub game: &'a str,
    /// What the store remembers of the file, so it loads it only once.
    pub digest: String,
    pub grades: Vec<DealGrade>,
    /// Lines that did not parse.
    pub bad: usize,
}

/// The `<game>.tsv` files of known games among `(file name, bytes)`; any
/// other file is skipped with a warning.
pub fn files<'a>(files: &[(&'a str, &[u8])]) -> Vec<LibraryFile<'a>> {
    let mut out = Vec::new();
    for &(name, bytes) in files {
        let Some(game) = name.strip_suffix(".tsv") else {
            continue;
        };
        if patience_engine::game(game).is_none() {
            tracing::warn!(file = name, "library file for an unknown game; skipped");
            continue;
        }
        let (grades, bad) = parse(&String::from_utf8_lossy(bytes));
        out.push(LibraryFile {
            name,
            game,
            digest: format!("{:016x}", patience_engine::prng::fnv1a64(bytes)),
            grades,
            bad,
        });
    }
    out
}

/// Logs a file's load: `written` is what the store's load returned
/// (`None` when it held that file already).
pub fn loaded(file: &LibraryFile, written: Option<usize>) {
    let Some(n) = written else {
        return;
    };
    if file.bad > 0 {
        tracing::warn!(
            file = file.name,
            bad = file.bad,
            "library lines that did not parse were skipped"
        );
    }
    tracing::info!(game = file.game, deals = n, "loaded the graded library");
}

/// Loads library files given as `(file name, bytes)` into the store: each
/// `<game>.tsv` of a known game whose bytes the store has not loaded
/// before (see [`Store::load_library_grades`]), so a newer build's library
/// reaches a store made by an older one, and a restart costs no writes.
pub fn load(store: &mut Store, list: &[(&str, &[u8])]) -> Result<(), StoreError> {
    for file in files(list) {
        let n = store.load_library_grades(file.game, &file.digest, &file.grades)?;
        loaded(&file, n);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    fn wins(deal: u64, level: Level, w: u32, n: u32) -> DealGrade {
        DealGrade {
            person: PersonWins::new(w, n),
            ..DealGrade::level_only(deal, level)
        }
    }

    #[test]
    fn library_lines_parse_in_both_forms_and_bad_ones_are_counted() {
        let (grades, bad) = parse(
            "deal\tlevel\n5\teasy\n6\thard\t0\t20\n\n7\ttrivial\n0\teasy\nx\tmedium\n\
             8\tunknown\t\t\n9\teasy\t21\t20\n10\teasy\t3\n# a note\n",
        );
        assert_eq!(
            grades,
            vec![
                DealGrade::level_only(5, Level::Easy),
                wins(6, Level::Hard, 0, 20),
                DealGrade::level_only(8, Level::Unknown)
            ]
        );
        assert_eq!(bad, 5);
        for g in &grades {
            assert_eq!(parse_line(&line(g)).as_ref(), Ok(g));
        }
    }

    #[test]
    fn a_strict_read_names_the_bad_line_and_a_merge_keeps_the_file_then() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("krug.tsv");
        assert!(read(&path).unwrap().is_empty());
        std::fs::write(&path, "deal\tlevel\n3\teasy\n1\thard\n3\tmedium\n").unwrap();
        let rows = read(&path).unwrap();
        assert_eq!(
            rows.values().copied().collect::<Vec<_>>(),
            vec![
                DealGrade::level_only(1, Level::Hard),
                DealGrade::level_only(3, Level::Medium)
            ]
        );
        std::fs::write(&path, "deal\tlevel\n3\teasy\n1\tsimple\n").unwrap();
        let err = read(&path).unwrap_err().to_string();
        assert!(
            err.contains("krug.tsv:3") && err.contains("simple"),
            "{err}"
        );
        assert!(merge(&path, &[]).is_err());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "deal\tlevel\n3\teasy\n1\tsimple\n"
        );
    }

    #[test]
    fn a_merge_sorts_lets_the_store_win_and_keeps_wins_the_store_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fan.tsv");
        let mut out = Appender::open(&path).unwrap();
        out.append(&wins(9, Level::Easy, 12, 20)).unwrap();
        out.append(&wins(4, Level::Medium, 3, 20)).unwrap();
        out.append(&wins(6, Level::Hard, 0, 20)).unwrap();
        drop(out);
        let store = [
            DealGrade::level_only(9, Level::Easy),
            DealGrade::level_only(4, Level::Hard),
            wins(6, Level::Medium, 2, 20),
            DealGrade::level_only(1, Level::Unwinnable),
        ];
        assert_eq!(merge(&path, &store).unwrap(), 4);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "deal\tlevel\tperson_wins\truns\n1\tunwinnable\t\t\n4\thard\t\t\n\
             6\tmedium\t2\t20\n9\teasy\t12\t20\n"
        );
    }

    #[test]
    fn a_load_takes_known_games_once_and_keeps_local_grades() {
        let (_dir, mut store) = temp_store();
        store
            .put_grade(
                "krug",
                &DealGrade::level_only(9, Level::Hard),
                "{\"grade\":1}",
            )
            .unwrap();
        let files: &[(&str, &[u8])] = &[
            (
                "fan.tsv",
                b"deal\tlevel\tperson_wins\truns\n5\teasy\t20\t20\n6\tmedium\t\t\n",
            ),
            ("krug.tsv", b"deal\tlevel\n9\teasy\n1\teasy\n"),
            ("no-such-game.tsv", b"deal\tlevel\n1\teasy\n"),
            ("README.md", b"# words"),
        ];
        load(&mut store, files).unwrap();
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![
                wins(5, Level::Easy, 20, 20),
                DealGrade::level_only(6, Level::Medium)
            ]
        );
        assert_eq!(
            store.level_counts("krug").unwrap(),
            vec![(Level::Easy, 1), (Level::Hard, 1)]
        );
        assert!(!store.has_grades("no-such-game").unwrap());
        // A newer library: its new deal and its regraded line arrive.
        let newer: &[(&str, &[u8])] = &[("fan.tsv", b"deal\tlevel\n5\thard\n6\tmedium\n7\teasy\n")];
        load(&mut store, newer).unwrap();
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![
                DealGrade::level_only(5, Level::Hard),
                DealGrade::level_only(6, Level::Medium),
                DealGrade::level_only(7, Level::Easy)
            ]
        );
        // A library regraded over fewer deals: the deals it no longer holds
        // go, a locally graded deal stays.
        let fewer: &[(&str, &[u8])] = &[
            ("fan.tsv", b"deal\tlevel\n6\teasy\n"),
            ("krug.tsv", b"deal\tlevel\n1\thard\n"),
        ];
        load(&mut store, fewer).unwrap();
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![DealGrade::level_only(6, Level::Easy)]
        );
        assert_eq!(store.level_counts("krug").unwrap(), vec![(Level::Hard, 2)]);
    }
}
