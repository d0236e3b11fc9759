//! Backing a SQLite store up and putting a backup back, so that the two can
//! never mix moments.
//!
//! - [`backup`] copies a database, even one a server is writing, as one
//!   consistent snapshot (`VACUUM INTO`, a read transaction that never holds
//!   the writer up) into a file of its own: no log beside it, a fresh id in
//!   its header (so no log ever written for another file can pass as its
//!   own, see [`crate::owner`]), checked, synced, and renamed into place only
//!   once complete.
//! - [`restore`] takes the database's ownership locks (so no server is using
//!   it), checks the backup, moves whatever was there (the database with its
//!   log, index and the log's owner file, or only the files a lost database
//!   left) aside under `<db>.replaced-<unix time>`, never deleting anything,
//!   and puts a copy of the backup in place.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::error::StoreError;
use crate::owner::{beside, fresh_id, put_aside, Creation, Owner, COMPANIONS};

/// What a backup holds.
#[derive(Debug)]
pub struct Copied {
    pub games: u64,
    pub bytes: u64,
}

/// Copies the database at `db` into the new file `out` (refused if it exists).
pub fn backup(db: &Path, out: &Path) -> Result<Copied, StoreError> {
    if out.exists() {
        return Err(StoreError::Refused(format!(
            "{} already exists: a backup is never written over a file",
            out.display()
        )));
    }
    if !db.is_file() {
        return Err(StoreError::Refused(format!(
            "there is no database at {}",
            db.display()
        )));
    }
    let partial = beside(out, ".partial");
    let _ = std::fs::remove_file(&partial);
    let source = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    source.busy_timeout(std::time::Duration::from_secs(5))?;
    source.execute("VACUUM INTO ?1", [partial.to_string_lossy()])?;
    drop(source);
    let games = seal(&partial)?;
    std::fs::rename(&partial, out).map_err(|e| StoreError::io(out, e))?;
    sync_dir(out)?;
    let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    Ok(Copied { games, bytes })
}

/// Gives a copy its own id and no log, checks it, and syncs it; its games.
fn seal(copy: &Path) -> Result<u64, StoreError> {
    let conn = Connection::open_with_flags(copy, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    let _: String = conn.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get(0))?;
    conn.pragma_update(None, "application_id", fresh_id())?;
    let games = check(&conn, copy)?;
    drop(conn);
    File::open(copy)
        .and_then(|f| f.sync_all())
        .map_err(|e| StoreError::io(copy, e))?;
    Ok(games)
}

/// Refuses a file that is not a sound Patience store; its games.
fn check(conn: &Connection, path: &Path) -> Result<u64, StoreError> {
    let refuse = |why: String| {
        StoreError::Refused(format!(
            "{} is not a sound Patience database: {why}",
            path.display()
        ))
    };
    let ok: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| refuse(e.to_string()))?;
    if ok != "ok" {
        return Err(refuse(ok));
    }
    let version = crate::schema::version(conn).map_err(|e| refuse(e.to_string()))?;
    if version > crate::SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { found: version });
    }
    conn.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
        .map(|n| n as u64)
        .map_err(|e| refuse(e.to_string()))
}

fn sync_dir(path: &Path) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io(dir, e))
}

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub games: u64,
    /// Files that were there, moved aside: `(from, to)`.
    pub moved: Vec<(PathBuf, PathBuf)>,
}

/// Puts a copy of `backup` in place of the database at `db`.
pub fn restore(backup: &Path, db: &Path) -> Result<Restored, StoreError> {
    {
        let conn = Connection::open_with_flags(backup, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| StoreError::Refused(format!("cannot open {}: {e}", backup.display())))?;
        check(&conn, backup)?;
    }
    let had_db = db.exists();
    let owner = Owner::lock(db, Creation::Allowed)?;
    if !had_db {
        // The lock made an empty file where none was: that one is not kept.
        std::fs::remove_file(db).map_err(|e| StoreError::io(db, e))?;
    }
    let moved = put_aside(db, &["", COMPANIONS[0], COMPANIONS[1], COMPANIONS[2]])?;
    let partial = beside(db, ".restoring");
    std::fs::copy(backup, &partial).map_err(|e| StoreError::io(&partial, e))?;
    let games = seal(&partial)?;
    std::fs::rename(&partial, db).map_err(|e| StoreError::io(db, e))?;
    sync_dir(db)?;
    drop(owner);
    Ok(Restored { games, moved })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn a_restored_backup_is_the_moment_it_was_taken_and_the_old_files_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("p.db");
        let store = Store::open(&db).unwrap();
        store.execute_raw("CREATE TABLE marks(n)").unwrap();
        store.execute_raw("INSERT INTO marks VALUES (1)").unwrap();
        let out = dir.path().join("b.db");
        backup(&db, &out).unwrap();
        assert!(backup(&db, &out).is_err(), "never over a file");
        assert!(!beside(&out, "-wal").exists());
        store.execute_raw("INSERT INTO marks VALUES (2)").unwrap();
        // A server is not running: the store is closed, its log folded in.
        drop(store);
        let restored = restore(&out, &db).unwrap();
        assert_eq!(restored.moved.len(), 1, "{:?}", restored.moved);
        let back = Store::open(&db).unwrap();
        assert_eq!(back.execute_raw("DELETE FROM marks").unwrap(), 1);
        let old = Store::open(&restored.moved[0].1).unwrap();
        assert_eq!(old.execute_raw("DELETE FROM marks").unwrap(), 2);
    }
}
