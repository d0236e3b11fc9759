//! The schema and its migrations. The file carries its version in `PRAGMA
//! user_version`; a file made by a newer build is refused rather than
//! guessed at, and an older one is copied aside before it is upgraded.

use std::path::Path;

use rusqlite::{params, Connection, TransactionBehavior};

use crate::error::StoreError;

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: i64 = 6;

/// The version of an open file.
pub(crate) fn version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Brings the schema of `conn` up to [`SCHEMA_VERSION`], copying the file
/// aside first when it holds an older version.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    // An up-to-date file (the usual case) needs no write lock at all.
    let version = self::version(conn)?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { found: version });
    }
    if (1..SCHEMA_VERSION).contains(&version) {
        backup(conn, version)?;
    }
    let unrecorded = if (3..6).contains(&version) {
        games_before_hint_records(conn)?
    } else {
        Vec::new()
    };
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version = self::version(&tx)?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { found: version });
    }
    if version < 1 {
        tx.execute_batch(
            "CREATE TABLE games (
                uid TEXT PRIMARY KEY,
                player TEXT NOT NULL,
                game TEXT NOT NULL,
                deal INTEGER NOT NULL,
                level TEXT NOT NULL,
                moves TEXT NOT NULL DEFAULT '',
                redo TEXT NOT NULL DEFAULT '',
                move_count INTEGER NOT NULL DEFAULT 0,
                created_ms INTEGER NOT NULL,
                updated_ms INTEGER NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0,
                elapsed_ms INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX games_by_player ON games (player, created_ms);
            CREATE TABLE grades (
                game TEXT NOT NULL,
                deal INTEGER NOT NULL,
                level TEXT NOT NULL,
                detail TEXT NOT NULL,
                PRIMARY KEY (game, deal)
            ) WITHOUT ROWID;
            CREATE INDEX grades_by_level ON grades (game, level);
            PRAGMA user_version = 1;",
        )?;
    }
    if version < 2 {
        // Version 2: a won game can be undone, so the figures of its first
        // win are kept apart from its current move count and time. Games
        // won under version 1 could not be undone: their current figures
        // are those of their win.
        tx.execute_batch(
            "ALTER TABLE games ADD COLUMN won_moves INTEGER;
            ALTER TABLE games ADD COLUMN won_ms INTEGER;
            UPDATE games SET won_moves = move_count, won_ms = elapsed_ms WHERE finished = 1;
            PRAGMA user_version = 2;",
        )?;
    }
    if version < 3 {
        // Version 3: one row a move (appended, not rewritten) and a
        // version that only grows. Old games start at their move count,
        // which is what pages open during the upgrade send as `expect`.
        tx.execute_batch(
            "CREATE TABLE game_moves (
                uid TEXT NOT NULL,
                ply INTEGER NOT NULL,
                word TEXT NOT NULL,
                PRIMARY KEY (uid, ply)
            ) WITHOUT ROWID;
            ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
            UPDATE games SET version = move_count;",
        )?;
        {
            let mut read = tx.prepare("SELECT uid, moves, redo FROM games")?;
            let mut write =
                tx.prepare("INSERT INTO game_moves (uid, ply, word) VALUES (?1, ?2, ?3)")?;
            let rows = read.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?;
            for row in rows {
                let (uid, moves, redo) = row?;
                let words = moves.split_whitespace().chain(redo.split_whitespace());
                for (i, word) in words.enumerate() {
                    write.execute(params![uid, i as i64 + 1, word])?;
                }
            }
        }
        tx.execute_batch(
            "ALTER TABLE games DROP COLUMN moves;
            ALTER TABLE games DROP COLUMN redo;
            PRAGMA user_version = 3;",
        )?;
    }
    if version < 4 {
        // Version 4: the person-like player's wins and runs of a graded
        // deal in columns of their own, taken from the grading detail where
        // it holds them (a pair that is not `0 <= wins <= runs`, runs > 0, is
        // left out); and the library files the grades were last loaded from.
        tx.execute_batch(
            "ALTER TABLE grades ADD COLUMN person_wins INTEGER;
            ALTER TABLE grades ADD COLUMN runs INTEGER;
            UPDATE grades SET
                person_wins = CASE WHEN json_valid(detail)
                    THEN json_extract(detail, '$.grade.person_wins') END,
                runs = CASE WHEN json_valid(detail)
                    THEN json_extract(detail, '$.grade.runs') END
                WHERE detail <> '{}';
            UPDATE grades SET person_wins = NULL, runs = NULL
                WHERE NOT (typeof(person_wins) = 'integer' AND typeof(runs) = 'integer'
                           AND runs > 0 AND person_wins BETWEEN 0 AND runs);
            CREATE TABLE library_files (
                game TEXT PRIMARY KEY,
                digest TEXT NOT NULL
            ) WITHOUT ROWID;
            PRAGMA user_version = 4;",
        )?;
    }
    if version < 5 {
        // Version 5: the deals a hunt for some levels (`patience grade
        // --hunt`) ruled out before playing all their runs, a row per level.
        tx.execute_batch(
            "CREATE TABLE ruled_out (
                game TEXT NOT NULL,
                level TEXT NOT NULL,
                deal INTEGER NOT NULL,
                detail TEXT NOT NULL,
                PRIMARY KEY (game, level, deal)
            ) WITHOUT ROWID;
            PRAGMA user_version = 5;",
        )?;
    }
    if version < 6 {
        // Version 6: whether a game's hints were recorded (games stored
        // before version 3 had no hint record, so their wins are not known
        // to be without hints); games by deal, for the deal's records; the
        // players' display names; and the deal of each day, kept once chosen.
        tx.execute_batch(
            "ALTER TABLE games ADD COLUMN hints_known INTEGER NOT NULL DEFAULT 1;
            CREATE INDEX games_by_deal ON games (game, deal);
            CREATE TABLE player_names (
                player TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                updated_ms INTEGER NOT NULL
            );
            CREATE TABLE daily_deals (
                game TEXT NOT NULL,
                day TEXT NOT NULL,
                deal INTEGER NOT NULL,
                level TEXT NOT NULL,
                PRIMARY KEY (game, day)
            );",
        )?;
        if version < 3 {
            tx.execute_batch("UPDATE games SET hints_known = 0;")?;
        }
        let mut mark = tx.prepare("UPDATE games SET hints_known = 0 WHERE uid = ?1")?;
        for uid in &unrecorded {
            mark.execute([uid])?;
        }
        drop(mark);
        tx.execute_batch("PRAGMA user_version = 6;")?;
    }
    tx.commit()?;
    Ok(())
}

/// The games of a file upgraded past version 3 before hint records were
/// known to the schema (version 6): those its copy from before version 3
/// (`<file>.v1.bak` or `<file>.v2.bak`, made by [`backup`]) holds. Without
/// such a copy none can be told apart.
fn games_before_hint_records(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let Some(path) = conn.path().filter(|p| !p.is_empty()) else {
        return Ok(Vec::new());
    };
    let mut uids = Vec::new();
    for old in 1..3 {
        let copy = format!("{path}.v{old}.bak");
        if !Path::new(&copy).exists() {
            continue;
        }
        let old = Connection::open_with_flags(&copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        let mut st = old.prepare("SELECT uid FROM games")?;
        for uid in st.query_map([], |r| r.get::<_, String>(0))? {
            uids.push(uid?);
        }
    }
    Ok(uids)
}

/// Copies the file, as it is, to `<file>.v<version>.bak` before its schema
/// is upgraded: a failed or regretted upgrade loses nothing.
fn backup(conn: &Connection, version: i64) -> Result<(), StoreError> {
    let Some(path) = conn.path().filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let target = format!("{path}.v{version}.bak");
    if Path::new(&target).exists() {
        return Ok(());
    }
    conn.execute("VACUUM INTO ?1", [&target])?;
    tracing::info!(
        backup = target,
        "copied the database before upgrading its schema"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tests::new_row;
    use crate::{DealGrade, FirstWin, Level, PersonWins, Store};

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        Store::open(&path)
            .unwrap()
            .execute_raw("PRAGMA user_version = 99")
            .unwrap();
        assert!(matches!(
            Store::open(&path),
            Err(StoreError::NewerSchema { found: 99 })
        ));
    }

    #[test]
    fn a_version_1_file_is_upgraded_keeping_its_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (
                    uid TEXT PRIMARY KEY, player TEXT NOT NULL, game TEXT NOT NULL,
                    deal INTEGER NOT NULL, level TEXT NOT NULL,
                    moves TEXT NOT NULL DEFAULT '', redo TEXT NOT NULL DEFAULT '',
                    move_count INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
                    elapsed_ms INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX games_by_player ON games (player, created_ms);
                CREATE TABLE grades (game TEXT NOT NULL, deal INTEGER NOT NULL,
                    level TEXT NOT NULL, detail TEXT NOT NULL,
                    PRIMARY KEY (game, deal)) WITHOUT ROWID;
                INSERT INTO games VALUES ('w', 'p', 'fan', 3, 'any', 'x', '', 52, 1, 2, 1, 7000);
                INSERT INTO games VALUES ('o', 'p', 'fan', 4, 'any', 'x', '', 9, 3, 4, 0, 500);
                PRAGMA user_version = 1;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let games = store.played_games("p").unwrap();
        assert_eq!(
            games[0].first_win,
            Some(FirstWin {
                moves: 52,
                elapsed_ms: 7000
            })
        );
        assert_eq!(games[1].first_win, None);
        assert!(
            games.iter().all(|g| !g.hints_known),
            "no hint was recorded before version 3"
        );
        let version: i64 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn a_version_2_file_is_copied_then_upgraded_to_one_row_a_move() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let store = Store::open(&path).unwrap();
            store.insert_game(&new_row("g")).unwrap();
        }
        {
            // Turn the file back into version 2 with a game in the old shape.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP TABLE game_moves;
                DROP TABLE library_files;
                DROP TABLE ruled_out;
                DROP TABLE player_names;
                DROP TABLE daily_deals;
                DROP INDEX games_by_deal;
                ALTER TABLE games DROP COLUMN hints_known;
                ALTER TABLE grades DROP COLUMN person_wins;
                ALTER TABLE grades DROP COLUMN runs;
                ALTER TABLE games DROP COLUMN version;
                ALTER TABLE games DROP COLUMN hinted;
                ALTER TABLE games ADD COLUMN moves TEXT NOT NULL DEFAULT '';
                ALTER TABLE games ADD COLUMN redo TEXT NOT NULL DEFAULT '';
                UPDATE games SET moves = 't1>f1 t2>t3', redo = 't4>t5', move_count = 2;
                PRAGMA user_version = 2;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let g = store.load_game("g").unwrap().unwrap();
        assert_eq!(
            (g.moves.as_str(), g.redo.as_str()),
            ("t1>f1 t2>t3", "t4>t5")
        );
        assert_eq!(
            g.version, 2,
            "an old game's version starts at its move count"
        );
        let backup = Connection::open(dir.path().join("t.db.v2.bak")).unwrap();
        let (version, moves): (i64, String) = backup
            .query_row(
                "SELECT (SELECT user_version FROM pragma_user_version), moves FROM games",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((version, moves.as_str()), (2, "t1>f1 t2>t3"));
    }

    #[test]
    fn a_version_3_file_is_copied_then_given_the_person_like_wins_of_its_details() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        drop(Store::open(&path).unwrap());
        {
            // Turn the file back into version 3, grades as they were kept then.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                r#"DROP TABLE library_files;
                DROP TABLE ruled_out;
                DROP TABLE player_names;
                DROP TABLE daily_deals;
                DROP INDEX games_by_deal;
                ALTER TABLE games DROP COLUMN hints_known;
                ALTER TABLE grades DROP COLUMN person_wins;
                ALTER TABLE grades DROP COLUMN runs;
                INSERT INTO grades VALUES ('fan', 1, 'medium',
                    '{"grade":{"deal":1,"level":"medium","person_wins":3,"runs":20},"seed":1}');
                INSERT INTO grades VALUES ('fan', 2, 'unwinnable',
                    '{"grade":{"deal":2,"level":"unwinnable","person_wins":0,"runs":0}}');
                INSERT INTO grades VALUES ('fan', 3, 'easy', '{}');
                INSERT INTO grades VALUES ('fan', 4, 'easy',
                    '{"grade":{"person_wins":30,"runs":20}}');
                INSERT INTO grades VALUES ('fan', 5, 'hard', '{"grade":{"person_wins":"x"}}');
                PRAGMA user_version = 3;"#,
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(
            store.grades("fan").unwrap(),
            vec![
                DealGrade {
                    person: PersonWins::new(3, 20),
                    ..DealGrade::level_only(1, Level::Medium)
                },
                DealGrade::level_only(2, Level::Unwinnable),
                DealGrade::level_only(3, Level::Easy),
                DealGrade::level_only(4, Level::Easy),
                DealGrade::level_only(5, Level::Hard),
            ]
        );
        // Read directly: opening the copy as a store would upgrade it.
        let conn = Connection::open(dir.path().join("t.db.v3.bak")).unwrap();
        assert_eq!(version(&conn).unwrap(), 3);
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM grades", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 5);
    }

    #[test]
    fn games_a_copy_from_before_hint_records_holds_are_marked_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let store = Store::open(&path).unwrap();
            store.insert_game(&new_row("old")).unwrap();
            store.insert_game(&new_row("new")).unwrap();
        }
        {
            // The copy made before a version 1 file was upgraded: it held `old`.
            let copy = Connection::open(dir.path().join("t.db.v1.bak")).unwrap();
            copy.execute_batch("CREATE TABLE games (uid TEXT); INSERT INTO games VALUES ('old');")
                .unwrap();
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP TABLE player_names;
                DROP TABLE daily_deals;
                DROP INDEX games_by_deal;
                ALTER TABLE games DROP COLUMN hints_known;
                PRAGMA user_version = 5;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let known: Vec<bool> = store
            .played_games("p")
            .unwrap()
            .iter()
            .map(|g| g.hints_known)
            .collect();
        assert_eq!(known, [false, true]);
    }
}
