//! Why a store operation failed.

use crate::vocab::UnknownValue;

/// What PostgreSQL said: the server's message and SQLSTATE (the client's own `Display` says
/// only "db error"), or the client's error when the server was not reached.
pub(super) fn postgres_reason(e: &::postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
        None => e.to_string(),
    }
}

/// Why a store operation failed (always unexpected: refusals are decided by the caller).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// PostgreSQL said no (or could not be reached).
    #[error("database error: {}", postgres_reason(.0))]
    Postgres(::postgres::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A stored value is not one this program writes.
    #[error("corrupt database row: {0}")]
    Corrupt(String),
    /// The backend broke the contract of [`Store::transaction`](crate::store::Store::transaction).
    #[error("store backend error: {0}")]
    Backend(String),
}

impl From<UnknownValue> for StoreError {
    fn from(e: UnknownValue) -> Self {
        StoreError::Corrupt(e.to_string())
    }
}
