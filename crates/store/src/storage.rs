//! The one storage interface the server uses, whichever database holds the
//! site: the SQLite file of one server (`patience_server::db`, over
//! [`crate::Store`]) or a PostgreSQL database that several servers share
//! ([`crate::postgres::PgStore`]). Every call is async and answers what the
//! database holds once it has committed; a change is acknowledged only after
//! it is durable.

use async_trait::async_trait;

use crate::error::StoreError;
use crate::games::{GameStamp, GameUpdate, InProgress, PlayedGame, StoredGame};
use crate::{DailyDeal, DealGrade, DealResult, DealWin, DisplayName, Level};

/// The library files loaded at start, as `(file name, bytes)`.
pub type LibraryFiles = &'static [(&'static str, &'static [u8])];

/// A site's store. See the module documentation.
#[async_trait]
pub trait Storage: Send + Sync {
    /// What it is, for the log: a file path, or a URL without its password.
    fn describe(&self) -> String;

    /// Whether other processes may change games behind this one: several
    /// servers on one PostgreSQL database. A game kept in memory is then
    /// trusted only while its version is the database's.
    fn shared(&self) -> bool;

    /// Stores a new game (with its moves and redo list, if any).
    async fn insert_game(&self, game: StoredGame) -> Result<(), StoreError>;

    /// Writes one change if the stored game is still at the change's
    /// version (checked by the database itself); false otherwise, or when
    /// no such game is stored.
    async fn update_game(&self, update: GameUpdate) -> Result<bool, StoreError>;

    /// Marks that a hint was served to the game, unless it is already won.
    async fn mark_hinted(&self, uid: &str) -> Result<(), StoreError>;

    /// The stored game with this uid, whoever owns it.
    async fn load_game(&self, uid: &str) -> Result<Option<StoredGame>, StoreError>;

    /// What says whether a copy of the game with this uid is the stored
    /// one: its version and its hint mark (see [`GameStamp`]).
    async fn game_stamp(&self, uid: &str) -> Result<Option<GameStamp>, StoreError>;

    /// The player's unfinished games with at least one move, newest first,
    /// without a try the player started over (a newer game on the same deal).
    async fn in_progress(&self, player: &str, limit: u32) -> Result<Vec<InProgress>, StoreError>;

    /// The player's newest games (see [`crate::STATS_GAMES`]), oldest first.
    async fn played_games(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError>;

    /// The grade of one deal, if it is graded.
    async fn grade(&self, game: &str, deal: u64) -> Result<Option<DealGrade>, StoreError>;

    /// How many deals of a game each level holds, in level order.
    async fn level_counts(&self, game: &str) -> Result<Vec<(Level, u64)>, StoreError>;

    /// A deal of this level picked at random.
    async fn random_graded_deal(&self, game: &str, level: Level)
        -> Result<Option<u64>, StoreError>;

    /// Every graded deal of a game, in deal order.
    async fn grades(&self, game: &str) -> Result<Vec<DealGrade>, StoreError>;

    /// The graded deals of a game at one level, in deal order.
    async fn deals_of_level(&self, game: &str, level: Level) -> Result<Vec<u64>, StoreError>;

    /// The deal's wins without hints, by every player, fewest moves first
    /// (then the fastest); at most [`crate::records::RECORD_WINS`].
    async fn hint_free_wins(&self, game: &str, deal: u64) -> Result<Vec<DealWin>, StoreError>;

    /// The player's display name, if one is set.
    async fn name_of(&self, player: &str) -> Result<Option<DisplayName>, StoreError>;

    /// Sets the player's display name, or clears it with `None`.
    async fn set_name(
        &self,
        player: &str,
        name: Option<DisplayName>,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// Whether the player has any stored game.
    async fn has_games(&self, player: &str) -> Result<bool, StoreError>;

    /// The kept deals of `game` for the days `from..=to`, in day order.
    async fn daily_deals(
        &self,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<DailyDeal>, StoreError>;

    /// Keeps each day's deal unless one is kept already (the first one
    /// stays), all in one transaction.
    async fn keep_daily(&self, deals: Vec<DailyDeal>) -> Result<(), StoreError>;

    /// The deals the player has won, of one game or of all, each once as
    /// `(game, result)`.
    async fn won_deals(
        &self,
        player: &str,
        game: Option<&str>,
    ) -> Result<Vec<(String, DealResult)>, StoreError>;
}
