//! What `CAJITAS_DB` names, and opening it.

use super::{PostgresStore, SqliteStore, Store, StoreError, postgres};

/// Where the data lives (`CAJITAS_DB`): a SQLite file (the embedded default) or a PostgreSQL
/// database (`postgres://…` or `postgresql://…`), for several processes sharing it.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite database file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL URL. It may hold a password: its `Debug` never shows it, and logs show
    /// it through `redact::redact_url`.
    Postgres(String),
}

impl Database {
    /// Reads `CAJITAS_DB`'s value: a PostgreSQL URL, or else a SQLite path (`default` when
    /// empty).
    pub fn parse(raw: &str, default: &str) -> Database {
        let raw = raw.trim();
        if postgres::is_postgres_url(raw) {
            Database::Postgres(raw.to_owned())
        } else if raw.is_empty() {
            Database::Sqlite(default.into())
        } else {
            Database::Sqlite(raw.into())
        }
    }

    /// Opens it: the file is created if needed; the schema is brought up to date (under an
    /// advisory lock with PostgreSQL).
    pub fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => Box::new(SqliteStore::open(path)?),
            Database::Postgres(url) => Box::new(PostgresStore::open(url)?),
        })
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Database::Postgres(_) => f.write_str("Postgres(\"[redacted]\")"),
        }
    }
}
