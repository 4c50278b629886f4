//! The store: what the game service needs from storage, behind object-safe traits, over two
//! backends: SQLite ([`sqlite`], the embedded default) and PostgreSQL ([`postgres`], for
//! several processes sharing one database). Each kind of record is one file of [`records`]:
//! its trait and its one implementation for both backends, its statements written once (see
//! [`sql`]); the backends keep what truly differs (connections, transactions, parameter
//! types, locks). These, with `migrations/`, are the only places in the crate with SQL.
//!
//! A [`Store`] runs operations, each as ONE transaction ([`Store::transaction`]): the
//! operation reads what it needs through a [`Tx`], decides, writes, and says whether to
//! commit. [`StoreExt::immediate`] and [`StoreExt::read`] carry a typed result and error
//! through it. A `Tx` is the sum of one trait per kind of record: [`Users`], [`Challenges`],
//! [`Games`] (games and their moves), [`DrawOffers`], [`Takebacks`], [`Pings`], [`Settings`],
//! [`Interactions`], [`ClockEvents`], [`Ratings`] and [`Engines`]. Writes that depend on the state they read carry a ply check
//! ([`Games::append_move`], [`Games::finish_game`], [`Games::rewind_game`]) so that a move computed against an older
//! position can never land.
//!
//! Everything here is object safe, so the backend can be chosen at run time: the game
//! service holds a `Box<dyn Store>` and operations see a `&dyn Tx`.
//!
//! The store is blocking. Async code must call it through `tokio::task::spawn_blocking`.

pub mod copy;
mod database;
mod error;
mod migrations;
pub mod postgres;
pub mod records;
mod rows;
pub mod sql;
pub mod sqlite;

pub use self::database::Database;
pub use self::error::StoreError;
pub use self::postgres::PostgresStore;
pub use self::records::*;
pub use self::rows::*;
pub use self::sqlite::SqliteStore;
/// The stored words, shared with the game (see [`crate::vocab`]).
pub use crate::vocab::{
    ChallengeStatus, ClockKind, ColourPick, EntrantStatus, EventKind, GameStatus, OfferStatus,
    PuzzleStatus, Side, Speed, TournamentKind, TournamentStatus, UnknownValue,
};

/// The console's channel (`cajitas local`'s games, `console::local_channel`): the one channel
/// whose pending events have an index of their own, `games_event_due_local` (migration 0012),
/// partial on this id. A test checks it against the console's.
pub const LOCAL_CHANNEL_ID: u64 = 11_862_234_814_149_460_200;

/// [`LOCAL_CHANNEL_ID`] as stored (a signed 64-bit integer), as SQL text: the queries of the
/// console's channel name it literally, so that the planner sees the partial index applies.
macro_rules! local_channel_sql {
    () => {
        "-6584509259560091416"
    };
}
pub(crate) use local_channel_sql;

/// What kind of transaction an operation runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxKind {
    /// An operation that may write: it takes the write lock when it begins (SQLite:
    /// `BEGIN IMMEDIATE`), so it reads, decides and writes with no other writer in between,
    /// and it commits only when the operation says so.
    Write,
    /// A read: one consistent snapshot (SQLite: a deferred transaction), never committed.
    Read,
}

/// A database: it runs each operation as one transaction. Object safe (see the module
/// documentation); [`StoreExt`] adds the typed helpers.
pub trait Store: Send {
    /// Runs `op` once inside one transaction of `kind`. `op` returns whether the operation
    /// succeeded: a [`TxKind::Write`] commits when it did and otherwise rolls back, leaving
    /// the database as it was; a [`TxKind::Read`] never commits. An `Err` is a failure of
    /// the store itself (beginning or committing).
    fn transaction(
        &self,
        kind: TxKind,
        op: &mut dyn FnMut(&dyn Tx) -> bool,
    ) -> Result<(), StoreError>;

    /// The schema version of the open database (the number of migrations applied).
    fn schema_version(&self) -> Result<usize, StoreError>;

    /// Applies the migrations again (a no-op when the schema is current).
    fn migrate(&mut self) -> Result<(), StoreError>;

    /// How processes sharing this database coordinate, when several may (PostgreSQL's
    /// advisory locks); `None` for a database one process owns (SQLite).
    fn coordination(&self) -> Option<std::sync::Arc<dyn Coordination>> {
        None
    }
}

/// A lock shared by every process of a deployment (see [`Store::coordination`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedLock {
    /// Held while the slash commands are compared with the last registration and registered.
    CommandRegistration,
    /// Held by a shard while it IDENTIFYs, and for the 5 s after, per rate-limit bucket
    /// (`shard_id % max_concurrency`).
    Identify(u32),
}

/// A held [`NamedLock`]; dropping it releases the lock (a process that dies releases it too).
pub trait LockGuard: Send {}

/// Cross-process coordination through the shared database.
pub trait Coordination: Send + Sync {
    /// Waits for `lock` (blocking), then holds it until the guard is dropped.
    fn lock(&self, lock: NamedLock) -> Result<Box<dyn LockGuard>, StoreError>;

    /// Takes `lock` if nobody holds it; `None` when another process does.
    fn try_lock(&self, lock: NamedLock) -> Result<Option<Box<dyn LockGuard>>, StoreError>;

    /// Wakes every process listening on `topic` (PostgreSQL `NOTIFY`), e.g. a scheduler
    /// whose earliest deadline changed. `topic` is lowercase letters and `_`.
    fn notify(&self, topic: &str, payload: &str) -> Result<(), StoreError>;

    /// Starts listening on `topic` (PostgreSQL `LISTEN`, on a connection of its own that
    /// reconnects by itself); see [`Wakeups`].
    fn listen(&self, topic: &str) -> Result<Box<dyn Wakeups>, StoreError>;

    /// Starts listening for the deadlines other processes set (a scheduler follows them):
    /// the store announces every event it schedules on its deadline topic, with the due time
    /// (Unix ms) as the payload, so only the store names that topic. A coordination whose
    /// store announces none says so.
    fn listen_deadlines(&self) -> Result<Box<dyn Wakeups>, StoreError> {
        Err(StoreError::Backend(
            "this store announces no deadlines".into(),
        ))
    }
}

/// The notifications of one topic, as they arrive. Dropping it stops listening.
pub trait Wakeups: Send {
    /// Waits at most `timeout` for the next notification: its payload, or `None` when none
    /// came. After a lost connection it also returns (an empty payload): a notification may
    /// have been missed, so the listener should look again at what it waits for.
    fn wait(&self, timeout: std::time::Duration) -> Option<String>;
}

/// One store shared by the parts of a process that write the same database (the game
/// service and a front end's bookkeeping): one connection, one lock, no contention between
/// them inside SQLite.
pub type SharedStore = std::sync::Arc<std::sync::Mutex<Box<dyn Store>>>;

/// Typed operations on any [`Store`], `dyn Store` included.
pub trait StoreExt: Store {
    /// Runs `f` inside one write transaction: it commits when `f` returns `Ok` and rolls back
    /// (leaving the database as it was) when `f` returns `Err`.
    fn immediate<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&dyn Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        run(self, TxKind::Write, f)
    }

    /// Runs `f` inside one read transaction (a consistent snapshot; it never writes).
    fn read<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&dyn Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        run(self, TxKind::Read, f)
    }
}

impl<S: Store + ?Sized> StoreExt for S {}

/// Carries `f`'s typed result through the object-safe [`Store::transaction`].
fn run<S: Store + ?Sized, T, E: From<StoreError>>(
    store: &S,
    kind: TxKind,
    f: impl FnOnce(&dyn Tx) -> Result<T, E>,
) -> Result<T, E> {
    let mut f = Some(f);
    let mut out = None;
    store.transaction(kind, &mut |tx| match f.take() {
        Some(f) => {
            let r = f(tx);
            let ok = r.is_ok();
            out = Some(r);
            ok
        }
        // Called twice: never commit what the operation did not decide.
        None => false,
    })?;
    out.unwrap_or_else(|| {
        Err(StoreError::Backend("the transaction did not run the operation".into()).into())
    })
}

#[cfg(test)]
mod tests;
