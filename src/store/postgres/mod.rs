//! The PostgreSQL implementation of the [store](super), for a deployment of several bot
//! processes sharing one database server: opening (a pool of connections), migrations under
//! an advisory lock, and transactions here; how a statement of `store::records` runs on
//! PostgreSQL (its placeholders, parameter types and locks) in `statements.rs`.
//!
//! **Isolation.** A read runs in `REPEATABLE READ READ ONLY` (one snapshot for all its
//! statements, like SQLite's deferred transaction). A write runs in `READ COMMITTED`, and
//! serialises with every other write of the same channel by a transaction-scoped advisory lock
//! on the channel id, taken by the first statement that looks a game or a challenge up (by
//! channel, or by id through its channel): from there on it reads the latest committed rows and
//! nobody else writes them until it ends, which is what SQLite's `BEGIN IMMEDIATE` gives, per
//! channel instead of per file (a thread's games are locked by their channel). The
//! ply-checked `UPDATE`s still refuse a stale move, the partial unique indexes still allow one
//! active game per thread or channel and one pending challenge per challenger, and the handled
//! interactions are deduplicated by their primary key (`ON CONFLICT DO NOTHING`, which waits
//! for a concurrent insert of the same id to commit). See ARCHITECTURE.md.
//!
//! **Migrations** are the numbered files of `migrations/postgres/`, embedded, applied at open
//! in one transaction that first takes an advisory lock, so two processes starting at once
//! never both migrate: the second waits, then finds the schema current. Applied versions are
//! rows of `schema_migrations`.

mod connect;
mod coordination;
mod statements;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use postgres::types::ToSql;
use postgres::{IsolationLevel, Row, Statement};

use self::connect::lock_pool;
pub use self::connect::{
    CONNECT_TIMEOUT, Client, Conn, LOCK_POOL_SIZE, Manager, Pool, config, connect, describe,
    is_keyword_value, is_postgres_url, pool,
};
use self::connect::{POOL_SIZE, pool_of};
pub use self::coordination::PgCoordination;

/// The topic on which a scheduled event is announced (its payload: the due time, Unix ms):
/// the statements that schedule an event name it (`pg_notify('cajitas_deadline', …)` in
/// `store::records`), and `Coordination::listen_deadlines` listens on it.
pub const DEADLINE_TOPIC: &str = "cajitas_deadline";
use super::sql::dollar_placeholders;
use super::{Coordination, Store, StoreError, Tx, TxKind};

/// The migrations, in order: (version, SQL). Append new files; never edit one that has
/// shipped. Each file is the PostgreSQL twin of the SQLite migration with the same number.
const MIGRATION_FILES: &[(i32, &str)] = super::migrations::POSTGRES;

/// The schema version the migrations bring a database to.
pub fn latest_schema_version() -> usize {
    MIGRATION_FILES.len()
}

/// How long a statement waits for a lock (a row, or another process's advisory lock) before
/// failing: SQLite's busy timeout.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// The advisory locks of the crate that are not channels. Channels use the one-`bigint` key
/// space (their id); these use the two-`int` space, which PostgreSQL keeps apart, with
/// [`locks::CLASS`] as the first key.
pub mod locks {
    /// The first key of every named lock of Cajitas ("Cj").
    pub const CLASS: i32 = 0x436A;
    /// Held while the migrations are applied.
    pub const MIGRATIONS: i32 = 1;
    /// Held while the slash commands are registered with Discord.
    pub const COMMAND_REGISTRATION: i32 = 2;
    /// Every rating: shared by each rated end (beside its two players' locks), exclusive for
    /// a rebuild (which then takes no per-player lock: one lock, however many players).
    pub const RATINGS: i32 = 3;
    /// The first key of the lock under which the pings of one pair of users are counted (the
    /// second key is a hash of the pair).
    pub const PINGS_CLASS: i32 = 0x436B;
    /// IDENTIFY bucket `n` of the gateway is `IDENTIFY_BASE + n`.
    pub const IDENTIFY_BASE: i32 = 1000;
    /// The first key of the lock of one player's rating in one pool and speed (the second
    /// key is [`rating_key`]).
    pub const RATINGS_CLASS: i32 = 0x436C;

    /// The second key of the lock of `user`'s rating in `pool` and `speed`: FNV-1a over
    /// them, the same in every process (two players sharing a key only wait for each other).
    pub fn rating_key(pool: i64, speed: &str, user: u64) -> i32 {
        let mut h: u32 = 0x811c_9dc5;
        let bytes = pool
            .to_le_bytes()
            .into_iter()
            .chain(speed.bytes())
            .chain(user.to_le_bytes());
        for b in bytes {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        i32::from_ne_bytes(h.to_ne_bytes())
    }

    /// The second key (in [`RATINGS_CLASS`], beside the players' keys, so that one sorted
    /// acquisition takes both) of the lock of `pool`'s leaderboard in `speed`: every writer of
    /// its ratings holds it until its transaction ends, so that the cells the triggers of
    /// migration 0018 update are written by one transaction at a time. FNV-1a over the pool,
    /// the speed and a marker no user id hashes the same way (a collision with a player's key
    /// only makes two transactions wait for each other).
    pub fn cells_key(pool: i64, speed: &str) -> i32 {
        let mut h: u32 = 0x811c_9dc5;
        let bytes = pool
            .to_le_bytes()
            .into_iter()
            .chain(speed.bytes())
            .chain(*b"/leaderboard");
        for b in bytes {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        i32::from_ne_bytes(h.to_ne_bytes())
    }
}

/// The database: a pool of PostgreSQL connections.
pub struct PostgresStore {
    pool: Pool,
    /// The connection settings (for the listening connections of [`Coordination`]).
    config: postgres::Config,
    /// The coordination locks' own pool, opened when the first lock is taken (most stores,
    /// such as the console's or `migrate`'s, never take one).
    locks: Arc<OnceLock<Pool>>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database at `url` and brings its schema up to date (under the
    /// migrations' advisory lock).
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config = config(url)?;
        // One connection first, for the migrations: a server that is not there, or that
        // refuses the login, is reported now with its reason.
        migrate(&mut *connect(&config)?)?;
        Ok(PostgresStore {
            pool: pool_of(config.clone(), POOL_SIZE, 1, None)?,
            config,
            locks: Arc::default(),
        })
    }

    /// The store's pool, for work outside its transactions.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
}

/// Applies the migrations not applied yet, in one transaction holding the migrations'
/// advisory lock: a second process starting at the same time waits for the first, then finds
/// nothing to do. Returns how many were applied.
pub fn migrate(client: &mut postgres::Client) -> Result<usize, StoreError> {
    let mut tx = client.transaction()?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, $2)",
        &[&locks::CLASS, &locks::MIGRATIONS],
    )?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version     INTEGER PRIMARY KEY,
             applied_at  TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )?;
    let current: i32 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )?
        .get(0);
    let mut applied = 0;
    for (version, sql) in MIGRATION_FILES.iter().filter(|(v, _)| *v > current) {
        tx.batch_execute(sql).map_err(|e| {
            StoreError::Backend(format!("PostgreSQL migration {version} failed: {e}"))
        })?;
        tx.execute(
            "INSERT INTO schema_migrations (version) VALUES ($1)",
            &[version],
        )?;
        applied += 1;
    }
    tx.commit()?;
    Ok(applied)
}

/// The number of migrations applied to the database.
pub fn schema_version(client: &mut postgres::Client) -> Result<usize, StoreError> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let n: i64 = client
        .query_one("SELECT count(*) FROM schema_migrations", &[])?
        .get(0);
    Ok(n as usize)
}

/// An open PostgreSQL transaction: a [`Backend`](super::sql::Backend) (`statements.rs`), so
/// every record trait of `store::records` is implemented for it.
struct PgTx<'c> {
    tx: RefCell<postgres::Transaction<'c>>,
    statements: RefCell<&'c mut HashMap<&'static str, Statement>>,
    /// A write transaction takes the channel locks (see the module documentation).
    write: bool,
    /// Whether this transaction holds every rating ([`locks::RATINGS`] exclusively: a
    /// rebuild), so that rating a game takes no lock of its own.
    ratings_locked: std::cell::Cell<bool>,
}

impl PgTx<'_> {
    /// The prepared statement for `sql` (prepared on this connection the first time).
    fn stmt(&self, sql: &'static str) -> Result<Statement, StoreError> {
        if let Some(s) = self.statements.borrow().get(sql) {
            return Ok(s.clone());
        }
        // The shared statements are written with SQLite's `?N` (see `store::sql`).
        let s = if sql.contains('?') {
            self.tx.borrow_mut().prepare(&dollar_placeholders(sql))?
        } else {
            self.tx.borrow_mut().prepare(sql)?
        };
        self.statements.borrow_mut().insert(sql, s.clone());
        Ok(s)
    }

    fn query_one(
        &self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Row, StoreError> {
        let s = self.stmt(sql)?;
        Ok(self.tx.borrow_mut().query_one(&s, params)?)
    }

    fn execute(
        &self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let s = self.stmt(sql)?;
        Ok(self.tx.borrow_mut().execute(&s, params)?)
    }

    /// In a write transaction, waits for the channel's lock, held until the transaction ends:
    /// the operation then reads the latest rows of the channel and nobody else writes them.
    fn lock_channel(&self, channel: i64) -> Result<(), StoreError> {
        if self.write {
            self.execute("SELECT pg_advisory_xact_lock($1)", &[&channel])?;
        }
        Ok(())
    }
}

impl PgTx<'_> {
    /// [`PgTx::lock_channel`] for a place (a channel, or a game's thread): a thread's games
    /// are locked by their channel, the same key as every other operation on them.
    fn lock_place(&self, place: i64) -> Result<(), StoreError> {
        if !self.write {
            return Ok(());
        }
        // One round trip: the thread's channel (or the place itself), locked.
        self.execute(
            "SELECT pg_advisory_xact_lock(coalesce(
                 (SELECT channel_id FROM games WHERE thread_id = $1 ORDER BY id DESC LIMIT 1),
                 $1))",
            &[&place],
        )?;
        Ok(())
    }
}

/// Whether `e` says the connection is gone: closed, or ended by the server (an administrator
/// command, a crash or shutdown: SQLSTATE class 57P).
fn ended(e: &postgres::Error) -> bool {
    e.is_closed() || e.code().is_some_and(|c| c.code().starts_with("57P"))
}

/// The BEGIN of a `kind` transaction: read committed for writes (their consistency comes
/// from the channel locks), a read-only repeatable-read snapshot for reads.
fn builder_for(client: &mut postgres::Client, kind: TxKind) -> postgres::TransactionBuilder<'_> {
    let builder = client.build_transaction();
    match kind {
        TxKind::Write => builder.isolation_level(IsolationLevel::ReadCommitted),
        TxKind::Read => builder
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true),
    }
}

/// Runs `op` in the begun transaction `tx`: a write commits when `op` says so, a read ends
/// with a rollback; a failed operation drops `tx`, which rolls it back.
fn run<'c>(
    tx: postgres::Transaction<'c>,
    statements: &'c mut HashMap<&'static str, Statement>,
    kind: TxKind,
    op: &mut dyn FnMut(&dyn Tx) -> bool,
) -> Result<(), StoreError> {
    let tx = PgTx {
        tx: RefCell::new(tx),
        statements: RefCell::new(statements),
        write: kind == TxKind::Write,
        ratings_locked: std::cell::Cell::new(false),
    };
    if op(&tx) {
        let inner = tx.tx.into_inner();
        match kind {
            TxKind::Write => inner.commit()?,
            TxKind::Read => inner.rollback()?,
        }
    }
    Ok(())
}

impl Store for PostgresStore {
    fn transaction(
        &self,
        kind: TxKind,
        op: &mut dyn FnMut(&dyn Tx) -> bool,
    ) -> Result<(), StoreError> {
        // Every idle connection may have been closed at once (a server restart): each is
        // tried, then one more, new.
        let mut attempts = POOL_SIZE + 1;
        loop {
            attempts -= 1;
            let mut conn = self.pool.get()?;
            let Conn {
                client,
                statements,
                poisoned,
            } = &mut *conn;
            match builder_for(client, kind).start() {
                Ok(tx) => return run(tx, statements, kind, op),
                // The server closed this idle connection (a restart, an idle timeout):
                // nothing was done. Drop it (the pool sees it broken) and begin on another.
                Err(e) if ended(&e) && attempts > 0 => {}
                Err(e) => return Err(e.into()),
            }
            *poisoned = true;
        }
    }

    fn schema_version(&self) -> Result<usize, StoreError> {
        schema_version(self.pool.get()?.client())
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        migrate(self.pool.get()?.client())?;
        Ok(())
    }

    fn coordination(&self) -> Option<std::sync::Arc<dyn Coordination>> {
        Some(std::sync::Arc::new(PgCoordination::new(
            self.pool.clone(),
            Arc::clone(&self.locks),
            self.config.clone(),
        )))
    }
}
