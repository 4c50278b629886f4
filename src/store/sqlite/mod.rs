//! The SQLite implementation of the [store](super): opening, pragmas, migrations and
//! transactions here; the SQL of each kind of record in its own file.
//!
//! A [`SqliteStore`] owns one connection in WAL mode with `synchronous=FULL` (an acknowledged
//! commit survives a power loss), foreign keys on and a busy timeout. The schema is in the
//! numbered files of `migrations/`, embedded in the binary and applied when the store opens.
//! A write runs in `BEGIN IMMEDIATE`, a read in a deferred transaction. The constructs that
//! only SQLite accepts are listed, with why, in ARCHITECTURE.md ("SQLite-only constructs").

mod bookkeeping;
mod challenges;
mod engines;
mod events;
mod games;
mod lock;
mod offers;
mod ratings;
mod takebacks;
mod users;

pub use self::lock::{ProcessLock, ProcessLockError, lock_for_one_process};

use std::path::Path;
use std::time::Duration;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use rusqlite::{Connection, Row, TransactionBehavior};
use rusqlite_migration::{M, Migrations};

use super::{
    ChallengeStatus, ClockKind, ColourPick, EventKind, GameStatus, OfferStatus, Side, Speed, Store,
    StoreError, TimeControlRow, Tx, TxKind, UnknownValue, UserRow,
};

/// The migrations, in order. Append new files; never edit one that has shipped. (Public so
/// that tests can build a database as an earlier version left it.)
pub const MIGRATION_FILES: &[&str] = &[
    include_str!("../../../migrations/0001_initial.sql"),
    include_str!("../../../migrations/0002_bot_settings.sql"),
    include_str!("../../../migrations/0003_pings.sql"),
    include_str!("../../../migrations/0004_game_language.sql"),
    include_str!("../../../migrations/0005_takebacks.sql"),
    include_str!("../../../migrations/0006_threads.sql"),
    include_str!("../../../migrations/0007_clocks.sql"),
    include_str!("../../../migrations/0008_ratings.sql"),
    include_str!("../../../migrations/0009_engine_players.sql"),
    include_str!("../../../migrations/0010_pending_events_in_games.sql"),
    include_str!("../../../migrations/0011_post_claims.sql"),
    include_str!("../../../migrations/0012_local_event_index.sql"),
    include_str!("../../../migrations/0013_engine_claims.sql"),
    include_str!("../../../migrations/0014_no_early_idle_reminders.sql"),
    include_str!("../../../migrations/0015_leaderboard_inactivity.sql"),
    include_str!("../../../migrations/0016_analyses.sql"),
];

/// How many prepared statements a connection keeps: more than the store has (about 100).
const STATEMENT_CACHE: usize = 256;

/// How long a connection waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATION_FILES.iter().map(|sql| M::up(sql)).collect())
}

/// The schema version the migrations bring a database to.
pub fn latest_schema_version() -> usize {
    MIGRATION_FILES.len()
}

impl From<rusqlite::Error> for StoreError {
    /// A stored enum text this program does not write is a corrupt row, not an SQL error.
    fn from(e: rusqlite::Error) -> Self {
        if let rusqlite::Error::FromSqlConversionFailure(_, _, inner) = &e
            && let Some(unknown) = inner.downcast_ref::<UnknownValue>()
        {
            return StoreError::Corrupt(unknown.to_string());
        }
        StoreError::Sqlite(e)
    }
}

/// The stored enums are their texts.
macro_rules! text_column {
    ($($name:ident),+) => {$(
        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e: UnknownValue| FromSqlError::Other(Box::new(e)))
            }
        }
    )+};
}

text_column!(
    Side,
    ColourPick,
    ChallengeStatus,
    GameStatus,
    OfferStatus,
    ClockKind,
    EventKind,
    Speed
);

/// A Discord id (or a local user's id) as stored: the i64 with the same bits.
fn to_db(id: u64) -> i64 {
    id as i64
}

fn from_db(id: i64) -> u64 {
    id as u64
}

/// Reads the columns of a row in the order they are selected, each decoded to its type:
/// the decoders below read their fields in the order of their `SELECT` lists.
struct Columns<'r, 's> {
    row: &'r Row<'s>,
    next: usize,
}

impl<'r, 's> Columns<'r, 's> {
    fn new(row: &'r Row<'s>) -> Self {
        Columns { row, next: 0 }
    }

    fn get<T: FromSql>(&mut self) -> rusqlite::Result<T> {
        let v = self.row.get(self.next)?;
        self.next += 1;
        Ok(v)
    }

    /// A Discord id.
    fn id(&mut self) -> rusqlite::Result<u64> {
        self.get::<i64>().map(from_db)
    }

    /// A Discord id that may be absent.
    fn opt_id(&mut self) -> rusqlite::Result<Option<u64>> {
        Ok(self.get::<Option<i64>>()?.map(from_db))
    }

    /// A user: id, name, is_bot.
    fn user(&mut self) -> rusqlite::Result<UserRow> {
        Ok(UserRow {
            id: self.id()?,
            name: self.get()?,
            is_bot: self.get()?,
        })
    }

    /// A time control: kind, base, increment.
    fn tc(&mut self) -> rusqlite::Result<TimeControlRow> {
        Ok(TimeControlRow {
            kind: self.get()?,
            base_ms: self.get()?,
            inc_ms: self.get()?,
        })
    }

    /// A user of a LEFT JOIN: id, name, is_bot, or `None` when the id is NULL.
    fn opt_user(&mut self) -> rusqlite::Result<Option<UserRow>> {
        let start = self.next;
        if self.opt_id()?.is_none() {
            self.next = start + 3;
            return Ok(None);
        }
        self.next = start;
        self.user().map(Some)
    }
}

/// The database: one SQLite connection.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (creating it if needed) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        Self::setup(Connection::open(path)?)
    }

    /// An in-memory database (for tests; no durability).
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // journal_mode answers with a row; an in-memory database stays "memory".
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Every statement the store runs stays prepared. rusqlite keeps 16 by default: since
        // clocks and ratings a move cycles through more than that, the least recently used
        // was evicted before its next use, and every move parsed and planned its SQL again
        // (the SQL parser was a good part of a move's CPU time in `benches/service.rs`).
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrations().to_latest(&mut conn)?;
        Ok(SqliteStore { conn })
    }

    /// A pragma's current value, as text (for checks and diagnostics).
    pub fn pragma(&self, name: &str) -> Result<String, StoreError> {
        let value: rusqlite::types::Value =
            self.conn.pragma_query_value(None, name, |r| r.get(0))?;
        Ok(match value {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(s) => s,
            other => format!("{other:?}"),
        })
    }
}

/// An open SQLite transaction; the record traits are implemented in this module's files.
struct SqliteTx<'c> {
    tx: rusqlite::Transaction<'c>,
}

impl Store for SqliteStore {
    fn transaction(
        &mut self,
        kind: TxKind,
        op: &mut dyn FnMut(&dyn Tx) -> bool,
    ) -> Result<(), StoreError> {
        let behavior = match kind {
            TxKind::Write => TransactionBehavior::Immediate,
            TxKind::Read => TransactionBehavior::Deferred,
        };
        let tx = SqliteTx {
            tx: self.conn.transaction_with_behavior(behavior)?,
        };
        // A failed operation drops `tx`, which rolls it back.
        if op(&tx) {
            match kind {
                TxKind::Write => tx.tx.commit()?,
                TxKind::Read => tx.tx.rollback()?,
            }
        }
        Ok(())
    }

    fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(v as usize)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        migrations().to_latest(&mut self.conn)?;
        Ok(())
    }
}
