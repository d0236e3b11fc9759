//! The store as the async server uses it: one writer thread that commits
//! changes in batches (group commit), and a few reader connections used from
//! blocking tasks. A change is acknowledged only after its batch is committed,
//! so every move a player saw accepted is on disk.

use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::store::{GameUpdate, Store, StoreError, StoredGame};

/// Most changes committed in one transaction.
const BATCH: usize = 512;

/// Reader connections, at most: reads past this many wait their turn
/// rather than open more files.
pub const READERS: usize = 4;

/// How long a start waits for the database's previous owner (a server
/// stopping) to let go of it.
const LOCK_WAIT: Duration = Duration::from_secs(3);

enum Job {
    Insert(Box<StoredGame>, oneshot::Sender<Result<(), StoreError>>),
    Update(GameUpdate, oneshot::Sender<Result<bool, StoreError>>),
    Hinted(String, oneshot::Sender<Result<bool, StoreError>>),
}

/// Past this size the writer empties the WAL itself (a TRUNCATE checkpoint)
/// after its next commit: the background checkpoints cannot reset a WAL that
/// writes never stop appending to.
const WAL_RESET: u64 = 8 * 1024 * 1024;

/// Why a database call did not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the database writer has stopped")]
    WriterGone,
    #[error("a database task failed: {0}")]
    Task(String),
}

/// Handle to the store; cheap to clone.
#[derive(Clone)]
pub struct Db {
    writer: mpsc::Sender<Job>,
    /// Dropped with the last handle, which tells the checkpointer to finish.
    _checkpointer: Arc<mpsc::Sender<()>>,
    readers: Arc<Mutex<Vec<Store>>>,
    reading: Arc<tokio::sync::Semaphore>,
    path: Arc<PathBuf>,
    /// The exclusive lock on `<db>.lock`, held while any handle lives.
    _owner: Arc<std::fs::File>,
}

impl Db {
    /// Opens the store (creating it), lets `setup` prepare it (the library load),
    /// and starts the writer thread.
    pub fn open(
        path: &Path,
        setup: impl FnOnce(&mut Store) -> Result<(), StoreError>,
    ) -> Result<Db, StoreError> {
        let owner = lock_owner(path)?;
        let mut store = Store::open(path)?;
        setup(&mut store)?;
        store.disable_auto_checkpoint()?;
        let checkpoints = Store::open(path)?;
        let (alive, gone) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("db-checkpoint".into())
            .spawn(move || checkpoint_loop(checkpoints, gone))
            .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("db-writer".into())
            .spawn({
                let wal = wal_path(path);
                move || write_loop(store, rx, &wal)
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the writer thread: {e}")))?;
        Ok(Db {
            writer: tx,
            _checkpointer: Arc::new(alive),
            readers: Arc::new(Mutex::new(Vec::new())),
            reading: Arc::new(tokio::sync::Semaphore::new(READERS)),
            path: Arc::new(path.to_path_buf()),
            _owner: Arc::new(owner),
        })
    }

    pub async fn insert(&self, game: StoredGame) -> Result<(), DbError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send(Job::Insert(Box::new(game), tx))
            .map_err(|_| DbError::WriterGone)?;
        Ok(rx.await.map_err(|_| DbError::WriterGone)??)
    }

    /// Writes a change; `Ok(false)` when the game is not stored.
    pub async fn update(&self, update: GameUpdate) -> Result<bool, DbError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send(Job::Update(update, tx))
            .map_err(|_| DbError::WriterGone)?;
        Ok(rx.await.map_err(|_| DbError::WriterGone)??)
    }

    /// Records that a hint was served to the game (see `Store::mark_hinted`).
    pub async fn mark_hinted(&self, uid: String) -> Result<(), DbError> {
        let (tx, rx) = oneshot::channel();
        self.writer
            .send(Job::Hinted(uid, tx))
            .map_err(|_| DbError::WriterGone)?;
        rx.await.map_err(|_| DbError::WriterGone)??;
        Ok(())
    }

    /// Runs a read on a reader connection, off the async threads.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, DbError> {
        let this = self.clone();
        let turn = self
            .reading
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| DbError::WriterGone)?;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let store = match this.readers.lock().map(|mut v| v.pop()) {
                Ok(Some(s)) => s,
                _ => Store::open(&this.path)?,
            };
            let out = f(&store);
            if let Ok(mut v) = this.readers.lock() {
                v.push(store);
            }
            Ok(out?)
        })
        .await
        .map_err(|e| DbError::Task(e.to_string()))?
    }
}

/// How often the WAL is copied into the main file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Checkpoints on its own connection, off the writer's path, until the store is dropped.
fn checkpoint_loop(store: Store, gone: mpsc::Receiver<()>) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = gone.recv_timeout(CHECKPOINT_EVERY) {
        if let Err(e) = store.checkpoint() {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
    let _ = store.checkpoint();
}

/// Takes the exclusive lock that makes this process the database's one
/// owner: two servers appending to one file would each trust their own copy
/// of a game. A second server is refused with the reason.
fn lock_owner(db: &Path) -> Result<std::fs::File, StoreError> {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .map_err(|e| {
            StoreError::Failed(format!(
                "cannot open the lock file {}: {e}",
                Path::new(&name).display()
            ))
        })?;
    let until = std::time::Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Failed(format!(
                    "another server is already using the database {} (it holds {}); stop it first",
                    db.display(),
                    Path::new(&name).display()
                )))
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(StoreError::Failed(format!(
                    "cannot lock {}: {e}",
                    Path::new(&name).display()
                )))
            }
        }
    }
}

/// The WAL file SQLite keeps beside the database.
fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn write_loop(mut store: Store, rx: mpsc::Receiver<Job>, wal: &Path) {
    let mut jobs = Vec::with_capacity(BATCH);
    while let Ok(first) = rx.recv() {
        jobs.push(first);
        while jobs.len() < BATCH {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        let results = store.in_transaction(|s| {
            jobs.iter()
                .map(|j| match j {
                    Job::Insert(g, _) => s.insert_game(g).map(|()| true),
                    Job::Update(u, _) => s.update_game(u),
                    Job::Hinted(uid, _) => s.mark_hinted(uid).map(|()| true),
                })
                .collect::<Vec<_>>()
        });
        match results {
            Ok(results) => {
                for (job, r) in jobs.drain(..).zip(results) {
                    match job {
                        Job::Insert(_, reply) => {
                            let _ = reply.send(r.map(|_| ()));
                        }
                        Job::Update(_, reply) | Job::Hinted(_, reply) => {
                            let _ = reply.send(r);
                        }
                    }
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "a batch of changes failed to commit");
                let msg = e.to_string();
                let fail = || StoreError::Failed(msg.clone());
                for job in jobs.drain(..) {
                    match job {
                        Job::Insert(_, reply) => {
                            let _ = reply.send(Err(fail()));
                        }
                        Job::Update(_, reply) | Job::Hinted(_, reply) => {
                            let _ = reply.send(Err(fail()));
                        }
                    }
                }
            }
        }
        if std::fs::metadata(wal).is_ok_and(|m| m.len() > WAL_RESET) {
            if let Err(e) = store.checkpoint_truncate() {
                tracing::warn!(error = %e, "the WAL could not be emptied");
            }
        }
    }
}
