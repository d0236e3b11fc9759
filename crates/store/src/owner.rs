//! The one server that owns a database file, and the checks that keep it
//! from writing where it should not.
//!
//! - **One owner.** A server holds an exclusive lock on `<db>.lock` while it
//!   runs: two servers appending to one file would each trust their own copy
//!   of a game, so a second one is refused with the reason.
//! - **Never silently recreated.** The lock file stays beside the database
//!   after a stop, so it marks a database that was used here. A database
//!   that is missing while its lock file is there has been lost (deleted or
//!   moved): the server refuses to start rather than begin an empty one,
//!   unless told to create it ([`Creation::Allowed`], `patience serve
//!   --create`). With neither file present it is a first run, and the
//!   database is made.
//! - **Never read-only.** A database file, its journal files or its
//!   directory that cannot be written is refused at start, instead of
//!   starting and then failing every move.
//! - **Never a ghost.** [`Identity`] remembers which file was opened (its
//!   device and inode, held open so the inode cannot be reused); a file
//!   deleted or replaced while the server runs is noticed, and the server
//!   refuses changes rather than keep writing into a file no one will read.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::StoreError;

/// How long a start waits for the database's previous owner (a server
/// stopping) to let go of it.
const LOCK_WAIT: Duration = Duration::from_secs(3);

/// Whether a missing database may be created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Creation {
    /// Only on a first run: neither the database nor its lock file exists.
    FirstRun,
    /// Whenever it is missing (`patience serve --create`).
    Allowed,
}

/// The exclusive lock that makes this process the database's one owner,
/// held until dropped.
#[derive(Debug)]
pub struct Owner {
    _lock: File,
}

/// `<db><suffix>`: the lock and journal files SQLite and the server keep beside it.
pub fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

impl Owner {
    /// Checks that the database at `db` may be used as [`Owner`]'s module
    /// documentation says, then takes its lock (waiting a little for a
    /// server that is stopping).
    pub fn take(db: &Path, creation: Creation) -> Result<Owner, StoreError> {
        let lock = beside(db, ".lock");
        check_writable(db)?;
        if !db.exists() && lock.exists() && creation == Creation::FirstRun {
            return Err(StoreError::Refused(format!(
                "the database {} is missing, but its lock file {} is there: the database \
                 was used here and has been deleted or moved. Restore it, or start with \
                 --create to begin an empty database",
                db.display(),
                lock.display()
            )));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)
            .map_err(|e| {
                StoreError::Refused(format!("cannot open the lock file {}: {e}", lock.display()))
            })?;
        let until = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Owner { _lock: file }),
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Refused(format!(
                        "another server is already using the database {} (it holds {}); stop it first",
                        db.display(),
                        lock.display()
                    )))
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(StoreError::Refused(format!(
                        "cannot lock {}: {e}",
                        lock.display()
                    )))
                }
            }
        }
    }
}

/// Refuses a database that could not be written: a directory in its
/// place, a file or journal file without write permission (by its mode,
/// whoever runs the server, so that the refusal does not depend on the
/// user), one the system will not open for writing (a read-only file
/// system), or a directory where the journal and lock files cannot be made.
fn check_writable(db: &Path) -> Result<(), StoreError> {
    let refuse = |what: String| {
        StoreError::Refused(format!(
            "{what}: the server must be able to write its database; make it writable or \
             point --db elsewhere"
        ))
    };
    let dir = match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let meta = std::fs::metadata(dir).map_err(|e| {
        refuse(format!(
            "the directory {} cannot be used ({e})",
            dir.display()
        ))
    })?;
    if !meta.is_dir() {
        return Err(refuse(format!("{} is not a directory", dir.display())));
    }
    if meta.permissions().readonly() {
        return Err(refuse(format!(
            "the directory {} is read-only",
            dir.display()
        )));
    }
    for path in [db.to_path_buf(), beside(db, "-wal"), beside(db, "-shm")] {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            return Err(refuse(format!("{} is a directory", path.display())));
        }
        if meta.permissions().readonly() {
            return Err(refuse(format!("{} is read-only", path.display())));
        }
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| {
                refuse(format!(
                    "{} cannot be opened for writing ({e})",
                    path.display()
                ))
            })?;
    }
    Ok(())
}

/// Which file a database path named when it was opened.
#[derive(Debug)]
pub struct Identity {
    path: PathBuf,
    /// Held open so that its inode cannot be reused by a new file while
    /// this process compares against it.
    file: File,
}

impl Identity {
    /// Remembers the file now at `path`.
    pub fn of(path: &Path) -> Result<Identity, StoreError> {
        let file = File::open(path).map_err(|e| StoreError::io(path, e))?;
        Ok(Identity {
            path: path.to_path_buf(),
            file,
        })
    }

    /// `Ok` while `path` still names the file that was opened; otherwise the
    /// refusal saying whether it was deleted or replaced. One `stat` of the
    /// path and one of the open file: cheap enough before every commit.
    pub fn check(&self) -> Result<(), StoreError> {
        let lost = |how: &str| {
            StoreError::Refused(format!(
                "the database file {} was {how} while the server ran; changes are refused \
                 until the server is restarted on the right file",
                self.path.display()
            ))
        };
        let now = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(lost("deleted")),
            Err(e) => return Err(StoreError::io(&self.path, e)),
        };
        let opened = self
            .file
            .metadata()
            .map_err(|e| StoreError::io(&self.path, e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if (now.dev(), now.ino()) != (opened.dev(), opened.ino()) {
                return Err(lost("replaced by another file"));
            }
        }
        #[cfg(not(unix))]
        let _ = (now, opened);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_mode(path: &Path, readonly: bool) {
        let mut p = std::fs::metadata(path).unwrap().permissions();
        p.set_readonly(readonly);
        std::fs::set_permissions(path, p).unwrap();
    }

    #[test]
    fn a_first_run_creates_a_lost_database_is_refused_and_create_allows_it() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("p.db");
        drop(Owner::take(&db, Creation::FirstRun).unwrap());
        assert!(
            beside(&db, ".lock").exists(),
            "the lock file outlives the owner"
        );
        let err = Owner::take(&db, Creation::FirstRun)
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing") && err.contains("--create"), "{err}");
        Owner::take(&db, Creation::Allowed).unwrap();
    }

    #[test]
    fn a_second_owner_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("p.db");
        let _first = Owner::take(&db, Creation::FirstRun).unwrap();
        let err = Owner::take(&db, Creation::Allowed).unwrap_err().to_string();
        assert!(err.contains("another server"), "{err}");
    }

    #[test]
    fn a_read_only_file_or_directory_or_a_directory_in_its_place_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("p.db");
        std::fs::write(&db, b"").unwrap();
        set_mode(&db, true);
        let err = Owner::take(&db, Creation::Allowed).unwrap_err().to_string();
        assert!(err.contains("read-only") && err.contains("p.db"), "{err}");
        set_mode(&db, false);
        Owner::take(&db, Creation::Allowed).unwrap();

        let sub = dir.path().join("ro");
        std::fs::create_dir(&sub).unwrap();
        set_mode(&sub, true);
        let err = Owner::take(&sub.join("p.db"), Creation::Allowed)
            .unwrap_err()
            .to_string();
        assert!(err.contains("read-only") && err.contains("ro"), "{err}");
        set_mode(&sub, false);

        let err = Owner::take(&sub, Creation::Allowed)
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a directory"), "{err}");
    }

    #[test]
    fn a_deleted_or_replaced_file_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("p.db");
        std::fs::write(&db, b"one").unwrap();
        let id = Identity::of(&db).unwrap();
        id.check().unwrap();
        std::fs::write(&db, b"rewritten in place").unwrap();
        id.check().unwrap();
        std::fs::remove_file(&db).unwrap();
        assert!(id.check().unwrap_err().to_string().contains("deleted"));
        let other = dir.path().join("other");
        std::fs::write(&other, b"two").unwrap();
        std::fs::rename(&other, &db).unwrap();
        assert!(id.check().unwrap_err().to_string().contains("replaced"));
        let fresh = Identity::of(&db).unwrap();
        std::fs::write(&other, b"three").unwrap();
        std::fs::rename(&other, &db).unwrap();
        assert!(fresh.check().unwrap_err().to_string().contains("replaced"));
    }
}
