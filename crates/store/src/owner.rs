//! The one server that owns a database file, and the checks that keep it
//! from writing where it should not.
//!
//! - **One owner.** A server holds an exclusive lock on the database file
//!   itself (so a hard link or a symbolic link to it finds the same lock)
//!   and on `<db>.lock` (so a file put in its place under the same name does
//!   too) while it runs: two servers appending to one file would each trust
//!   their own copy of a game, so a second one is refused with the reason.
//!   The lock on the file is `flock`, apart from SQLite's own POSIX locks.
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
//! - **Never two moments mixed.** SQLite replays the `-wal` file beside a
//!   database into whatever file bears the name, so a backup put back beside
//!   the lost file's log would come back partly at its own moment and partly
//!   at the log's. The owner writes `<db>-wal.owner`, naming the file its log
//!   belongs to: the database's device and inode, and a random id stamped in
//!   the database's header (SQLite's `application_id`, written outside the
//!   log at every start and into every copy `patience store backup` makes).
//!   A start that finds a log with content beside a database it does not
//!   name is refused, naming the files ([`Owner::take`]); a log with no
//!   owner file (written before owner files existed) is taken as the
//!   database's own.
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

/// The exclusive locks that make this process the database's one owner,
/// held until dropped.
#[derive(Debug)]
pub struct Owner {
    db: PathBuf,
    /// The database file itself, locked.
    file: File,
    _lock: File,
}

/// `<db><suffix>`: the lock and journal files SQLite and the server keep beside it.
pub fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The name of the file that says which database the log beside it belongs to.
pub const WAL_OWNER: &str = "-wal.owner";

/// The files SQLite keeps beside a database, and the owner file of its log:
/// what moves with the database when it is put aside.
pub const COMPANIONS: [&str; 3] = ["-wal", "-shm", WAL_OWNER];

/// Takes `file`'s exclusive `flock`, waiting a little for an owner that is
/// stopping; `what` names the file in the refusals.
fn lock_exclusive(file: &File, db: &Path, what: &Path) -> Result<(), StoreError> {
    let until = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Refused(format!(
                    "another server is already using the database {} (it holds the lock on {}); \
                     stop it first",
                    db.display(),
                    what.display()
                )))
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(StoreError::Refused(format!(
                    "cannot lock {}: {e}",
                    what.display()
                )))
            }
        }
    }
}

impl Owner {
    /// Checks that the database at `db` may be used as [`Owner`]'s module
    /// documentation says (a log beside it that is not its own included),
    /// then takes its locks (waiting a little for a server that is stopping).
    /// A database made anew finds no log of its own: the files a lost one
    /// left beside it are moved aside (see [`put_aside`]), never replayed.
    pub fn take(db: &Path, creation: Creation) -> Result<Owner, StoreError> {
        let made = !db.exists();
        let owner = Owner::lock(db, creation)?;
        if made {
            for (from, to) in put_aside(&owner.db, &COMPANIONS)? {
                tracing::warn!(
                    from = %from.display(),
                    to = %to.display(),
                    "a file the lost database left is moved aside"
                );
            }
        }
        check_wal(&owner.db, &owner.file)?;
        Ok(owner)
    }

    /// Takes the locks only, making the file where `creation` allows: for
    /// `patience store restore`, which puts a foreign log aside itself.
    pub fn lock(db: &Path, creation: Creation) -> Result<Owner, StoreError> {
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
        let lock_file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)
            .map_err(|e| {
                StoreError::Refused(format!("cannot open the lock file {}: {e}", lock.display()))
            })?;
        lock_exclusive(&lock_file, db, &lock)?;
        // An empty file is an empty SQLite database: making it here lets the
        // lock be on the file before anything is written.
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(db)
            .map_err(|e| StoreError::io(db, e))?;
        lock_exclusive(&file, db, db)?;
        // SQLite names the log after the file, links resolved.
        let db = std::fs::canonicalize(db).map_err(|e| StoreError::io(db, e))?;
        Ok(Owner {
            db,
            file,
            _lock: lock_file,
        })
    }

    /// Stamps the database with a new id outside its log and writes the
    /// log's owner file, on the store's only connection, just opened. The id
    /// is written with the log folded into the file and switched off (SQLite
    /// needs the connection alone for that); if another process has the file
    /// open (an operator's `sqlite3`), the id already in the file is kept.
    pub fn stamp(&self, store: &crate::Store) -> Result<(), StoreError> {
        let conn = &store.conn;
        conn.busy_timeout(Duration::from_millis(200))?;
        let alone = conn
            .query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0))
            .is_ok_and(|mode| mode.eq_ignore_ascii_case("delete"));
        let stamped = if alone {
            let id = fresh_id();
            // The owner file first: until the log exists again nothing is checked.
            write_wal_owner(&self.db, &self.file, id)?;
            conn.pragma_update(None, "application_id", id)?;
            Ok(())
        } else {
            write_wal_owner(&self.db, &self.file, header_id(&self.file)?)
        };
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        conn.busy_timeout(Duration::from_secs(5))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Failed(format!(
                "the database {} could not return to WAL mode ({mode})",
                self.db.display()
            )));
        }
        stamped
    }
}

/// Moves the files `<db><suffix>` that exist to `<db>.replaced-<unix
/// time><suffix>`, together, so that a database and its log stay a pair;
/// `(from, to)` of each moved.
pub fn put_aside(db: &Path, suffixes: &[&str]) -> Result<Vec<(PathBuf, PathBuf)>, StoreError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let aside = beside(db, &format!(".replaced-{stamp}"));
    let mut moved = Vec::new();
    for suffix in suffixes {
        let from = beside(db, suffix);
        if from.exists() {
            let to = beside(&aside, suffix);
            std::fs::rename(&from, &to).map_err(|e| StoreError::io(&from, e))?;
            moved.push((from, to));
        }
    }
    Ok(moved)
}

/// A random database id, from the standard library's per-process random keys.
pub fn fresh_id() -> i32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish() as i32
}

/// The id in a database file's header (`application_id`, bytes 68..72); 0
/// for a file too short to have one.
fn header_id(file: &File) -> Result<i32, StoreError> {
    use std::os::unix::fs::FileExt;
    let mut id = [0u8; 4];
    match file.read_exact_at(&mut id, 68) {
        Ok(()) => Ok(i32::from_be_bytes(id)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(0),
        Err(e) => Err(StoreError::Failed(format!(
            "cannot read the database header: {e}"
        ))),
    }
}

/// What the owner file says: the database file's device, inode and id.
fn owner_line(file: &File, id: i32) -> Result<String, StoreError> {
    use std::os::unix::fs::MetadataExt;
    let m = file
        .metadata()
        .map_err(|e| StoreError::Failed(format!("cannot read the database's metadata: {e}")))?;
    Ok(format!(
        "patience wal owner: device {} inode {} id {id}\n",
        m.dev(),
        m.ino()
    ))
}

/// Writes `<db>-wal.owner` durably: a temporary file, synced, renamed.
fn write_wal_owner(db: &Path, file: &File, id: i32) -> Result<(), StoreError> {
    let path = beside(db, WAL_OWNER);
    let tmp = beside(db, "-wal.owner.tmp");
    let line = owner_line(file, id)?;
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        std::io::Write::write_all(&mut f, line.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)?;
        if let Some(dir) = path.parent() {
            File::open(dir)?.sync_all()?;
        }
        Ok(())
    };
    write().map_err(|e| StoreError::io(&path, e))
}

/// Refuses a log with content beside a database its owner file does not name.
fn check_wal(db: &Path, file: &File) -> Result<(), StoreError> {
    let wal = beside(db, "-wal");
    // A log shorter than its 32-byte header holds nothing to replay.
    if std::fs::metadata(&wal).map_or(true, |m| m.len() < 32) {
        return Ok(());
    }
    let owner = beside(db, WAL_OWNER);
    let said = match std::fs::read_to_string(&owner) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(StoreError::io(&owner, e)),
    };
    let is = owner_line(file, header_id(file)?)?;
    if said == is {
        return Ok(());
    }
    Err(StoreError::Refused(format!(
        "the write-ahead log {wal} beside the database {db} was written for another file \
         ({owner} says {said:?}; {db} is {is:?}): SQLite would replay it into {db} and mix \
         two moments. If {db} is a backup put back, restore it with `patience store restore`, \
         which moves {wal}, {shm} and {owner} aside; otherwise put back the file they belong to",
        wal = wal.display(),
        db = db.display(),
        owner = owner.display(),
        shm = beside(db, "-shm").display(),
        said = said.trim(),
        is = is.trim(),
    )))
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
        assert!(db.exists(), "a first run makes the file");
        assert!(
            beside(&db, ".lock").exists(),
            "the lock file outlives the owner"
        );
        std::fs::remove_file(&db).unwrap();
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
