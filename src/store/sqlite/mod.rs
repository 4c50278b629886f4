//! The SQLite implementation of the [store](super): opening, pragmas, migrations and
//! transactions here, and how a statement of `store::records` runs on SQLite (its parameters
//! and rows).
//!
//! A [`SqliteStore`] owns one connection in WAL mode with `synchronous=FULL` (an acknowledged
//! commit survives a power loss), foreign keys on and a busy timeout. The schema is in the
//! numbered files of `migrations/`, embedded in the binary and applied when the store opens.
//! A write runs in `BEGIN IMMEDIATE`, a read in a deferred transaction. The constructs that
//! only SQLite accepts are listed, with why, in ARCHITECTURE.md ("SQLite-only constructs").

mod lock;

pub use self::lock::{ProcessLock, ProcessLockError, lock_for_one_process};

use std::cell::RefCell;
use std::path::Path;
use std::time::Duration;

use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};
use rusqlite::{Connection, Row, TransactionBehavior};
use rusqlite_migration::{M, Migrations};

use super::sql::{Backend, Cells, Dialect, Params, Value, wrong_cell};
use super::{Store, StoreError, Tx, TxKind, UnknownValue};

/// The migrations, in order. Append new files; never edit one that has shipped. (Public so
/// that tests can build a database as an earlier version left it.)
pub const MIGRATION_FILES: &[&str] = super::migrations::SQLITE;

/// How many prepared statements a connection keeps: more than the store has (about 100).
const STATEMENT_CACHE: usize = 256;

/// SQLite's page cache for the connection, in KiB (`PRAGMA cache_size = -N`; SQLite's
/// default is 2,000). A move reads and writes a few pages at the ends of its tables' trees;
/// the rest of the file stays in the system's page cache, a read away. With the default,
/// the cache of a bot under load grew with its database towards those 2 MB of its memory.
const CACHE_KIB: i64 = 512;

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

/// The database: one SQLite connection.
#[derive(Debug)]
pub struct SqliteStore {
    /// Borrowed by one transaction at a time ([`Store::transaction`] takes `&self`; a
    /// transaction begun inside another is refused, not nested).
    conn: RefCell<Connection>,
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
        conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
        // Every statement the store runs stays prepared. rusqlite keeps 16 by default: since
        // clocks and ratings a move cycles through more than that, the least recently used
        // was evicted before its next use, and every move parsed and planned its SQL again
        // (the SQL parser was a good part of a move's CPU time in `benches/service.rs`).
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrations().to_latest(&mut conn)?;
        Ok(SqliteStore {
            conn: RefCell::new(conn),
        })
    }

    /// A pragma's current value, as text (for checks and diagnostics).
    pub fn pragma(&self, name: &str) -> Result<String, StoreError> {
        let value: rusqlite::types::Value =
            self.conn()?.pragma_query_value(None, name, |r| r.get(0))?;
        Ok(match value {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(s) => s,
            other => format!("{other:?}"),
        })
    }
}

impl SqliteStore {
    /// The plan SQLite makes for `sql` with its first `n` parameters 0, 0, 1 (the details of
    /// `EXPLAIN QUERY PLAN`), for the tests of the queries that name an index.
    #[cfg(test)]
    pub(crate) fn query_plan(&self, sql: &str, n: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.conn()?;
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let values = [0i64, 0, 1];
        let plan = stmt
            .query_map(rusqlite::params_from_iter(&values[..n]), |r| {
                r.get::<_, String>(3)
            })?
            .collect::<Result<_, _>>()?;
        Ok(plan)
    }

    /// The connection, outside a transaction.
    fn conn(&self) -> Result<std::cell::Ref<'_, Connection>, StoreError> {
        self.conn.try_borrow().map_err(|_| nested())
    }
}

/// A transaction begun inside another on the same store.
fn nested() -> StoreError {
    StoreError::Backend("a SQLite transaction was begun inside another".into())
}

/// An open SQLite transaction: a [`Backend`], so every record trait of `store::records` is
/// implemented for it.
struct SqliteTx<'c> {
    tx: rusqlite::Transaction<'c>,
}

impl Store for SqliteStore {
    fn transaction(
        &self,
        kind: TxKind,
        op: &mut dyn FnMut(&dyn Tx) -> bool,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn.try_borrow_mut().map_err(|_| nested())?;
        let behavior = match kind {
            TxKind::Write => TransactionBehavior::Immediate,
            TxKind::Read => TransactionBehavior::Deferred,
        };
        let tx = SqliteTx {
            tx: conn.transaction_with_behavior(behavior)?,
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
            .conn()?
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(v as usize)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        migrations().to_latest(self.conn.get_mut())?;
        Ok(())
    }
}

impl ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Value::Null => ToSqlOutput::Owned(rusqlite::types::Value::Null),
            Value::Int(v) => ToSqlOutput::Owned(rusqlite::types::Value::Integer(v)),
            Value::Real(v) => ToSqlOutput::Owned(rusqlite::types::Value::Real(v)),
            Value::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Value::Bool(b) => ToSqlOutput::Owned(rusqlite::types::Value::Integer(i64::from(b))),
        })
    }
}

impl Cells for Row<'_> {
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.get_ref(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Integer(v) => Ok(Some(v)),
            _ => Err(wrong_cell(i, "an integer")),
        }
    }

    fn real(&self, i: usize) -> Result<Option<f64>, StoreError> {
        match self.get_ref(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Real(v) => Ok(Some(v)),
            ValueRef::Integer(v) => Ok(Some(v as f64)),
            _ => Err(wrong_cell(i, "a number")),
        }
    }

    fn text(&self, i: usize) -> Result<Option<&str>, StoreError> {
        match self.get_ref(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Text(b) => std::str::from_utf8(b)
                .map(Some)
                .map_err(|_| wrong_cell(i, "a UTF-8 text")),
            _ => Err(wrong_cell(i, "a text")),
        }
    }

    fn bool(&self, i: usize) -> Result<Option<bool>, StoreError> {
        match self.get_ref(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Integer(v) => Ok(Some(v != 0)),
            _ => Err(wrong_cell(i, "a boolean")),
        }
    }
}

impl Backend for SqliteTx<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn each(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        each: &mut dyn FnMut(&dyn Cells) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut stmt = self.tx.prepare_cached(sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter().map(|p| p.value())))?;
        while let Some(row) = rows.next()? {
            each(row)?;
        }
        Ok(())
    }

    fn exec(&self, sql: &'static str, params: &Params<'_>) -> Result<u64, StoreError> {
        let n = self
            .tx
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(params.iter().map(|p| p.value())))?;
        Ok(n as u64)
    }
}
