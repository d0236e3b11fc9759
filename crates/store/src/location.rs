//! Where a store is: `--db` names a SQLite file, or a PostgreSQL database
//! by its URL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME`, or
//! `postgresql://…`).

use std::path::PathBuf;

/// A store's place, as `--db` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    /// A URL of the `postgres` or `postgresql` scheme selects PostgreSQL;
    /// anything else is a SQLite path.
    pub fn parse(text: &str) -> Location {
        if is_postgres_url(text) {
            Location::Postgres(text.to_string())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// For the log and errors: the path, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => without_password(url),
        }
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::Sqlite(path)
    }
}

impl std::str::FromStr for Location {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Location, Self::Err> {
        Ok(Location::parse(s))
    }
}

/// Whether `text` is a PostgreSQL URL.
pub fn is_postgres_url(text: &str) -> bool {
    let lower = text.get(..13).unwrap_or(text).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// The URL with any password replaced by `***`.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (auth, tail) = rest.split_at(end);
    match auth.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{scheme}://{name}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_selects_postgres_and_anything_else_is_a_path() {
        assert_eq!(
            Location::parse("postgres://u@h/db"),
            Location::Postgres("postgres://u@h/db".into())
        );
        assert!(matches!(
            Location::parse("POSTGRESQL://u@h:5433/db"),
            Location::Postgres(_)
        ));
        assert_eq!(
            Location::parse("patience.db"),
            Location::Sqlite("patience.db".into())
        );
        assert_eq!(
            Location::parse("postgres.db"),
            Location::Sqlite("postgres.db".into())
        );
        assert_eq!(
            Location::parse("./postgres://x"),
            Location::Sqlite("./postgres://x".into())
        );
    }

    #[test]
    fn a_password_never_reaches_the_log() {
        assert_eq!(
            without_password("postgres://site:s3cret@db.local:5433/patience"),
            "postgres://site:***@db.local:5433/patience"
        );
        assert_eq!(
            without_password("postgres://site@db.local/patience"),
            "postgres://site@db.local/patience"
        );
        assert_eq!(
            without_password("postgres://db.local/patience?sslmode=disable"),
            "postgres://db.local/patience?sslmode=disable"
        );
    }
}
