//! What can go wrong in the store.

use crate::schema::SCHEMA_VERSION;

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A PostgreSQL error other than a lost connection.
    #[error("database error: {0}")]
    Postgres(tokio_postgres::Error),
    /// The database cannot be reached now (a connection lost, none to be
    /// had): the request may be tried again, and the store reconnects by
    /// itself once the database answers.
    #[error("the database cannot be reached: {0}")]
    Unavailable(String),
    /// The SQLite file was deleted or replaced while the server ran.
    #[error("the database file was deleted or replaced; changes are refused")]
    Lost,
    /// The store's writer has stopped (the server is shutting down).
    #[error("the database writer has stopped")]
    Stopped,
    #[error(
        "the database has schema version {found}; this build knows versions up to {SCHEMA_VERSION}"
    )]
    NewerSchema { found: i64 },
    #[error("deal number {0} is out of range")]
    BadDeal(u64),
    #[error("the grade detail is not JSON: {0}")]
    BadDetail(String),
    /// A stored grade row that this build cannot read (edited by hand, or
    /// written by something else): named, so it can be found and fixed.
    #[error("corrupt grade row of {game}: deal {deal}, {what}")]
    CorruptGrade {
        game: String,
        deal: i64,
        what: String,
    },
    /// A library file line that does not parse, named by file and line.
    #[error("{at}: {reason}")]
    Library { at: String, reason: String },
    /// A file the store needs could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// The database file cannot be used as it is (missing, read-only, owned
    /// by another server, deleted or replaced): the message says what to do.
    #[error("{0}")]
    Refused(String),
    /// A failure outside SQLite's own errors (a thread that could not start, a failed batch).
    #[error("{0}")]
    Failed(String),
}

impl From<tokio_postgres::Error> for StoreError {
    /// A connection closed or refused is [`StoreError::Unavailable`]; any
    /// other error is the database's answer.
    fn from(e: tokio_postgres::Error) -> StoreError {
        use tokio_postgres::error::SqlState;
        let lost = match e.code() {
            None => crate::postgres::is_connection_error(&e),
            Some(code) => {
                code.code().starts_with("08")
                    || [
                        SqlState::ADMIN_SHUTDOWN,
                        SqlState::CRASH_SHUTDOWN,
                        SqlState::CANNOT_CONNECT_NOW,
                    ]
                    .contains(code)
            }
        };
        if lost || e.is_closed() {
            StoreError::Unavailable(crate::postgres::one_line(&e))
        } else {
            StoreError::Postgres(e)
        }
    }
}

impl StoreError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> StoreError {
        StoreError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Quotes user text in an error without letting it grow without bound.
pub(crate) fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}
