//! The store as the async server uses it: one writer thread that commits
//! changes in batches (group commit), and a few reader connections used from
//! blocking tasks. A change is acknowledged only after its batch is committed,
//! so every move a player saw accepted is on disk.
//!
//! The writer checks before and after each batch that the database path
//! still names the file it opened (see [`patience_store::owner`]); once it
//! does not, the database is *lost*: every change and read is refused
//! ([`DbError::Lost`]) and the error is logged, rather than writing on into
//! a deleted file or opening an empty one in its place.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use patience_store::owner::{beside, Creation, Identity, Owner};
use patience_store::{
    DailyDeal, DealGrade, DealResult, DealWin, DisplayName, GameStamp, GameUpdate, InProgress,
    Level, PlayedGame, Storage, Store, StoreError, StoredGame,
};
use tokio::sync::oneshot;

/// Most changes committed in one transaction.
const BATCH: usize = 512;

/// Reader connections, at most: reads past this many wait their turn
/// rather than open more files.
pub const READERS: usize = 4;

enum Job {
    Insert(Box<StoredGame>, oneshot::Sender<Result<(), StoreError>>),
    Update(GameUpdate, oneshot::Sender<Result<bool, StoreError>>),
    Hinted(String, oneshot::Sender<Result<bool, StoreError>>),
    /// Any other change, committed in the batch like the rest.
    Run(Box<WriteFn>, oneshot::Sender<Result<bool, StoreError>>),
}

/// A change other than a game's, as [`Db::run`] takes it.
type WriteFn = dyn Fn(&Store) -> Result<bool, StoreError> + Send;

/// Past this size the writer copies the WAL into the main file itself (a
/// PASSIVE checkpoint) after its next commit: the background checkpoints
/// cannot catch up with a WAL that writes never stop appending to, while
/// between the writer's own commits nothing is appended, so its checkpoint
/// completes and the next commit starts the WAL over (cut back to
/// `patience_store::WAL_LIMIT`). A PASSIVE checkpoint never waits: a reader
/// holding an old snapshot (an operator's `sqlite3`, a backup) only keeps the
/// WAL from starting over until it lets go, and costs the players nothing.
const WAL_RESET: u64 = 8 * 1024 * 1024;

/// Why a database call did not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the database writer has stopped")]
    WriterGone,
    /// The database file was deleted or replaced while the server ran.
    #[error("the database file was deleted or replaced; changes are refused")]
    Lost,
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
    /// Set once the database path no longer names the file opened; holds
    /// the ownership locks too.
    lost: Arc<Lost>,
}

/// Whether the database was lost, shared by the handles and both threads;
/// the first to notice logs it. Its [`Identity`] holds the database file
/// open, and closing a file drops every POSIX lock the process holds on it,
/// SQLite's included: each holder drops its connections before its share of
/// this (the threads end their loops first; `Db` lists `readers` before
/// `lost`), so the last share goes after the last connection. The same holds
/// for the [`Owner`]'s lock on the file, which is why it lives here.
struct Lost {
    flag: AtomicBool,
    identity: Identity,
    _owner: Owner,
}

impl Lost {
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    /// Checks the file; true (and logged once) when it is lost.
    fn check(&self) -> bool {
        if self.is_set() {
            return true;
        }
        match self.identity.check() {
            Ok(()) => false,
            Err(e) => {
                if !self.flag.swap(true, Ordering::AcqRel) {
                    tracing::error!(error = %e, "the database is lost");
                }
                true
            }
        }
    }
}

impl Db {
    /// Takes ownership of the database (refusing one that is missing where
    /// `creation` forbids making it, read-only, or owned by another server),
    /// opens it, lets `setup` prepare it (the library load), and starts the
    /// writer thread.
    pub fn open(
        path: &Path,
        creation: Creation,
        setup: impl FnOnce(&mut Store) -> Result<(), StoreError>,
    ) -> Result<Db, StoreError> {
        let owner = Owner::take(path, creation)?;
        let mut store = Store::open(path)?;
        owner.stamp(&store)?;
        let lost = Arc::new(Lost {
            flag: AtomicBool::new(false),
            identity: Identity::of(path)?,
            _owner: owner,
        });
        setup(&mut store)?;
        store.disable_auto_checkpoint()?;
        let checkpoints = Store::open_existing(path)?;
        let (alive, gone) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("db-checkpoint".into())
            .spawn({
                let lost = lost.clone();
                move || checkpoint_loop(checkpoints, gone, &lost)
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("db-writer".into())
            .spawn({
                let wal = beside(path, "-wal");
                let lost = lost.clone();
                move || write_loop(store, rx, &wal, &lost)
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the writer thread: {e}")))?;
        Ok(Db {
            writer: tx,
            _checkpointer: Arc::new(alive),
            readers: Arc::new(Mutex::new(Vec::new())),
            reading: Arc::new(tokio::sync::Semaphore::new(READERS)),
            path: Arc::new(path.to_path_buf()),
            lost,
        })
    }

    /// Sends a job to the writer and waits for its commit.
    async fn write<T>(
        &self,
        job: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Job,
    ) -> Result<T, DbError> {
        if self.lost.is_set() {
            return Err(DbError::Lost);
        }
        let (tx, rx) = oneshot::channel();
        self.writer.send(job(tx)).map_err(|_| DbError::WriterGone)?;
        let answer = rx.await.map_err(|_| DbError::WriterGone)?;
        answer.map_err(|e| self.failure(e))
    }

    /// A store error as answered: any failure once the database is lost is that.
    fn failure(&self, e: StoreError) -> DbError {
        if self.lost.is_set() {
            DbError::Lost
        } else {
            DbError::Store(e)
        }
    }

    pub async fn insert(&self, game: StoredGame) -> Result<(), DbError> {
        self.write(|tx| Job::Insert(Box::new(game), tx)).await
    }

    /// Writes a change; `Ok(false)` when the game is not stored.
    pub async fn update(&self, update: GameUpdate) -> Result<bool, DbError> {
        self.write(|tx| Job::Update(update, tx)).await
    }

    /// Records that a hint was served to the game (see `Store::mark_hinted`).
    pub async fn mark_hinted(&self, uid: String) -> Result<(), DbError> {
        self.write(|tx| Job::Hinted(uid, tx)).await.map(|_| ())
    }

    /// Commits a change other than a game's (a display name, a kept deal
    /// of the day) in the writer's next batch.
    pub async fn run(
        &self,
        change: impl Fn(&Store) -> Result<(), StoreError> + Send + 'static,
    ) -> Result<(), DbError> {
        let change: Box<WriteFn> = Box::new(move |s| change(s).map(|()| true));
        self.write(|tx| Job::Run(change, tx)).await.map(|_| ())
    }

    /// Runs a read on a reader connection, off the async threads.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, DbError> {
        if self.lost.is_set() {
            return Err(DbError::Lost);
        }
        let this = self.clone();
        let turn = self
            .reading
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| DbError::WriterGone)?;
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            // A new connection never creates the file: one deleted under
            // the server must not come back empty.
            let store = match this.readers.lock().map(|mut v| v.pop()) {
                Ok(Some(s)) => s,
                _ => Store::open_existing(&this.path).map_err(|e| this.failure(e))?,
            };
            let out = f(&store);
            if let Ok(mut v) = this.readers.lock() {
                v.push(store);
            }
            out.map_err(|e| this.failure(e))
        })
        .await
        .map_err(|e| DbError::Task(e.to_string()))?
    }
}

/// How often the WAL is copied into the main file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Checkpoints on its own connection, off the writer's path, until the
/// store is dropped; each round first checks that the file is still the
/// one opened, so a lost database is noticed (and logged) even while no
/// one writes, and is never checkpointed into.
fn checkpoint_loop(store: Store, gone: mpsc::Receiver<()>, lost: &Lost) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = gone.recv_timeout(CHECKPOINT_EVERY) {
        if lost.check() {
            continue;
        }
        if let Err(e) = store.checkpoint() {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
    if !lost.check() {
        let _ = store.checkpoint();
    }
}

/// Commits the jobs in batches. A batch is not begun on a lost database,
/// and a batch committed while the file was lost is not acknowledged: its
/// changes went into a file no one will read again.
fn write_loop(mut store: Store, rx: mpsc::Receiver<Job>, wal: &Path, lost: &Lost) {
    let mut jobs = Vec::with_capacity(BATCH);
    while let Ok(first) = rx.recv() {
        jobs.push(first);
        while jobs.len() < BATCH {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        let results = if lost.check() {
            Err(StoreError::Refused("the database is lost".into()))
        } else {
            store.in_transaction(|s| {
                jobs.iter()
                    .map(|j| match j {
                        Job::Insert(g, _) => s.insert_game(g).map(|()| true),
                        Job::Update(u, _) => s.update_game(u),
                        Job::Hinted(uid, _) => s.mark_hinted(uid).map(|()| true),
                        Job::Run(change, _) => change(s),
                    })
                    .collect::<Vec<_>>()
            })
        };
        let results = match results {
            Ok(_) if lost.check() => Err(StoreError::Refused("the database is lost".into())),
            r => r,
        };
        match results {
            Ok(results) => {
                for (job, r) in jobs.drain(..).zip(results) {
                    match job {
                        Job::Insert(_, reply) => {
                            let _ = reply.send(r.map(|_| ()));
                        }
                        Job::Update(_, reply) | Job::Hinted(_, reply) | Job::Run(_, reply) => {
                            let _ = reply.send(r);
                        }
                    }
                }
            }
            Err(e) => {
                if !lost.is_set() {
                    tracing::error!(error = %e, "a batch of changes failed to commit");
                }
                let msg = e.to_string();
                let fail = || StoreError::Failed(msg.clone());
                for job in jobs.drain(..) {
                    match job {
                        Job::Insert(_, reply) => {
                            let _ = reply.send(Err(fail()));
                        }
                        Job::Update(_, reply) | Job::Hinted(_, reply) | Job::Run(_, reply) => {
                            let _ = reply.send(Err(fail()));
                        }
                    }
                }
            }
        }
        if !lost.is_set() && std::fs::metadata(wal).is_ok_and(|m| m.len() > WAL_RESET) {
            if let Err(e) = store.checkpoint() {
                tracing::warn!(error = %e, "the WAL could not be copied into the database");
            }
        }
    }
}

impl From<DbError> for StoreError {
    fn from(e: DbError) -> StoreError {
        match e {
            DbError::Store(e) => e,
            DbError::WriterGone => StoreError::Stopped,
            DbError::Lost => StoreError::Lost,
            DbError::Task(e) => StoreError::Failed(e),
        }
    }
}

/// The SQLite file as the site's [`Storage`]: changes through the writer,
/// reads on the reader connections.
#[async_trait::async_trait]
impl Storage for Db {
    fn describe(&self) -> String {
        self.path.display().to_string()
    }

    /// One server owns the file (see [`Owner`]): its games in memory are the truth.
    fn shared(&self) -> bool {
        false
    }

    async fn insert_game(&self, game: StoredGame) -> Result<(), StoreError> {
        Ok(self.insert(game).await?)
    }

    async fn update_game(&self, update: GameUpdate) -> Result<bool, StoreError> {
        Ok(self.update(update).await?)
    }

    async fn mark_hinted(&self, uid: &str) -> Result<(), StoreError> {
        Ok(Db::mark_hinted(self, uid.to_string()).await?)
    }

    async fn load_game(&self, uid: &str) -> Result<Option<StoredGame>, StoreError> {
        let uid = uid.to_string();
        Ok(self.read(move |s| s.load_game(&uid)).await?)
    }

    async fn game_stamp(&self, uid: &str) -> Result<Option<GameStamp>, StoreError> {
        Ok(Storage::load_game(self, uid).await?.map(|g| GameStamp {
            version: g.version,
            hinted: g.hinted,
        }))
    }

    async fn in_progress(&self, player: &str, limit: u32) -> Result<Vec<InProgress>, StoreError> {
        let player = player.to_string();
        Ok(self.read(move |s| s.in_progress(&player, limit)).await?)
    }

    async fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let player = player.to_string();
        Ok(self.read(move |s| s.played_games(&player)).await?)
    }

    async fn grade(&self, game: &str, deal: u64) -> Result<Option<DealGrade>, StoreError> {
        let game = game.to_string();
        Ok(self.read(move |s| s.grade(&game, deal)).await?)
    }

    async fn level_counts(&self, game: &str) -> Result<Vec<(Level, u64)>, StoreError> {
        let game = game.to_string();
        Ok(self.read(move |s| s.level_counts(&game)).await?)
    }

    async fn random_graded_deal(
        &self,
        game: &str,
        level: Level,
    ) -> Result<Option<u64>, StoreError> {
        let game = game.to_string();
        Ok(self
            .read(move |s| s.random_graded_deal(&game, level))
            .await?)
    }

    async fn grades(&self, game: &str) -> Result<Vec<DealGrade>, StoreError> {
        let game = game.to_string();
        Ok(self.read(move |s| s.grades(&game)).await?)
    }

    async fn deals_of_level(&self, game: &str, level: Level) -> Result<Vec<u64>, StoreError> {
        let game = game.to_string();
        Ok(self.read(move |s| s.deals_of_level(&game, level)).await?)
    }

    async fn hint_free_wins(&self, game: &str, deal: u64) -> Result<Vec<DealWin>, StoreError> {
        let game = game.to_string();
        Ok(self.read(move |s| s.hint_free_wins(&game, deal)).await?)
    }

    async fn name_of(&self, player: &str) -> Result<Option<DisplayName>, StoreError> {
        let player = player.to_string();
        Ok(self.read(move |s| s.name_of(&player)).await?)
    }

    async fn set_name(
        &self,
        player: &str,
        name: Option<DisplayName>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let player = player.to_string();
        Ok(self
            .run(move |s| s.set_name(&player, name.as_ref(), now_ms))
            .await?)
    }

    async fn has_games(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        Ok(self.read(move |s| s.has_games(&player)).await?)
    }

    async fn daily_deals(
        &self,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<DailyDeal>, StoreError> {
        let (game, from, to) = (game.to_string(), from.to_string(), to.to_string());
        Ok(self.read(move |s| s.daily_deals(&game, &from, &to)).await?)
    }

    async fn keep_daily(&self, deals: Vec<DailyDeal>) -> Result<(), StoreError> {
        Ok(self
            .run(move |s| deals.iter().try_for_each(|d| s.keep_daily(d)))
            .await?)
    }

    async fn won_deals(
        &self,
        player: &str,
        game: Option<&str>,
    ) -> Result<Vec<(String, DealResult)>, StoreError> {
        let player = player.to_string();
        let game = game.map(str::to_string);
        Ok(self
            .read(move |s| s.won_deals(&player, game.as_deref()))
            .await?)
    }
}
