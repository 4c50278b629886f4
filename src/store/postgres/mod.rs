//! The PostgreSQL implementation of the [store](super), for a deployment of several bot
//! processes sharing one database server: opening (a pool of connections), migrations under
//! an advisory lock, and transactions here; the SQL of each kind of record in its own file,
//! as in [`super::sqlite`].
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

mod coordination;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use postgres::types::{ToSql, Type};
use postgres::{IsolationLevel, NoTls, Row, Statement};
use r2d2_postgres::PostgresConnectionManager;

pub use self::coordination::PgCoordination;

/// The topic on which a scheduled event is announced (its payload: the due time, Unix ms):
/// the statements that schedule an event name it (`pg_notify('cajitas_deadline', …)` in
/// `store::records`), and `Coordination::listen_deadlines` listens on it.
pub const DEADLINE_TOPIC: &str = "cajitas_deadline";
use super::sql::{Backend, Cells, Dialect, Params, Value, dollar_placeholders, wrong_cell};
use super::{Coordination, Store, StoreError, Tx, TxKind};

/// The migrations, in order: (version, SQL). Append new files; never edit one that has
/// shipped. Each file is the PostgreSQL twin of the SQLite migration with the same number.
const MIGRATION_FILES: &[(i32, &str)] = &[
    (
        1,
        include_str!("../../../migrations/postgres/0001_initial.sql"),
    ),
    (
        2,
        include_str!("../../../migrations/postgres/0002_bot_settings.sql"),
    ),
    (
        3,
        include_str!("../../../migrations/postgres/0003_pings.sql"),
    ),
    (
        4,
        include_str!("../../../migrations/postgres/0004_game_language.sql"),
    ),
    (
        5,
        include_str!("../../../migrations/postgres/0005_takebacks.sql"),
    ),
    (
        6,
        include_str!("../../../migrations/postgres/0006_threads.sql"),
    ),
    (
        7,
        include_str!("../../../migrations/postgres/0007_clocks.sql"),
    ),
    (
        8,
        include_str!("../../../migrations/postgres/0008_ratings.sql"),
    ),
    (
        9,
        include_str!("../../../migrations/postgres/0009_engine_players.sql"),
    ),
    (
        10,
        include_str!("../../../migrations/postgres/0010_pending_events_in_games.sql"),
    ),
    (
        11,
        include_str!("../../../migrations/postgres/0011_post_claims.sql"),
    ),
    (
        12,
        include_str!("../../../migrations/postgres/0012_local_event_index.sql"),
    ),
    (
        13,
        include_str!("../../../migrations/postgres/0013_engine_claims.sql"),
    ),
    (
        14,
        include_str!("../../../migrations/postgres/0014_no_early_idle_reminders.sql"),
    ),
    (
        15,
        include_str!("../../../migrations/postgres/0015_leaderboard_inactivity.sql"),
    ),
    (
        16,
        include_str!("../../../migrations/postgres/0016_analyses.sql"),
    ),
];

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
}

/// Whether `db` names a PostgreSQL database (`postgres://…` or `postgresql://…`, or a libpq
/// keyword/value string, see [`is_keyword_value`]) rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    let lower = db.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://") || is_keyword_value(db)
}

/// The keywords of libpq's connection strings that the `postgres` crate reads.
const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "options",
    "application_name",
    "sslmode",
    "sslnegotiation",
    "connect_timeout",
    "tcp_user_timeout",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_retries",
    "target_session_attrs",
    "channel_binding",
    "load_balance_hosts",
];

/// Whether `db` is a libpq keyword/value string (`host=/run/postgresql user=bot …`): it
/// begins with one of libpq's keywords and `=`. Such a string is a PostgreSQL database, never
/// a file named after it (with its password).
pub fn is_keyword_value(db: &str) -> bool {
    db.trim_start().split_once('=').is_some_and(|(key, _)| {
        let key = key.trim_end().to_ascii_lowercase();
        KEYWORDS.contains(&key.as_str())
    })
}

/// A PostgreSQL database for logs and messages, without its password: a URL as
/// `redact::redact_url` shows it; a keyword/value string as its host, port, user and
/// database (or "a PostgreSQL database" when it cannot be read).
pub fn describe(db: &str) -> String {
    if !is_keyword_value(db) {
        return crate::redact::redact_url(db);
    }
    let Ok(config) = db.parse::<postgres::Config>() else {
        return "a PostgreSQL database (an unreadable keyword/value string)".to_owned();
    };
    let mut parts = Vec::new();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            postgres::config::Host::Unix(dir) => dir.display().to_string(),
        })
        .collect();
    if !hosts.is_empty() {
        parts.push(format!("host={}", hosts.join(",")));
    }
    let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
    if !ports.is_empty() {
        parts.push(format!("port={}", ports.join(",")));
    }
    if let Some(user) = config.get_user() {
        parts.push(format!("user={user}"));
    }
    if let Some(db) = config.get_dbname() {
        parts.push(format!("dbname={db}"));
    }
    parts.join(" ")
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        StoreError::Postgres(e)
    }
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> Self {
        StoreError::Backend(format!("no PostgreSQL connection: {e}"))
    }
}

/// A blocking client that may be dropped anywhere. `postgres::Client` closes its connection
/// on drop by blocking on its own runtime, which panics on a thread that drives a tokio
/// runtime ("Cannot start a runtime from within a runtime"): at the bot's shutdown, the
/// runtime drops its tasks, and the pools they hold, on its own threads, and the process
/// aborted. On such a thread the client is closed on a short thread of its own.
pub struct Client(Option<postgres::Client>);

impl Client {
    /// Wraps a connected client.
    pub fn new(client: postgres::Client) -> Client {
        Client(Some(client))
    }
}

impl std::ops::Deref for Client {
    type Target = postgres::Client;
    fn deref(&self) -> &postgres::Client {
        self.0
            .as_ref()
            .expect("a client is only taken when dropped")
    }
}

impl std::ops::DerefMut for Client {
    fn deref_mut(&mut self) -> &mut postgres::Client {
        self.0
            .as_mut()
            .expect("a client is only taken when dropped")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let Some(client) = self.0.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return drop(client);
        }
        // Joined, so that the server sees the session end before this returns; a thread
        // that cannot be started leaves the socket to be closed with the process.
        let closing = std::thread::Builder::new()
            .name("pg-close".into())
            .spawn(move || drop(client));
        match closing {
            Ok(thread) => {
                let _ = thread.join();
            }
            Err(e) => {
                tracing::debug!(error = %e, "cannot close a PostgreSQL connection cleanly");
            }
        }
    }
}

/// A pooled connection with its prepared statements (prepared once per connection, by SQL).
pub struct Conn {
    client: Client,
    statements: HashMap<&'static str, Statement>,
    /// Set when the session may hold a lock it could not release: the pool closes it.
    poisoned: bool,
}

impl Conn {
    /// The client, for statements outside the store's transactions (the `migrate` command,
    /// the coordination locks).
    pub fn client(&mut self) -> &mut postgres::Client {
        &mut self.client
    }
}

/// The pool's connection manager: r2d2_postgres's, plus the session settings and the
/// statement cache of each connection.
#[derive(Debug)]
pub struct Manager(PostgresConnectionManager<NoTls>);

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Conn, postgres::Error> {
        let mut client = Client::new(self.0.connect()?);
        // An acknowledged commit is on the server's disk (the server's default, stated here
        // so that a server configured otherwise does not weaken it); a lock waits 5 s at most.
        client.batch_execute(&format!(
            "SET synchronous_commit = on; SET lock_timeout = '{}ms'",
            LOCK_TIMEOUT.as_millis()
        ))?;
        Ok(Conn {
            client,
            statements: HashMap::new(),
            poisoned: false,
        })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), postgres::Error> {
        self.0.is_valid(&mut conn.client)
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        conn.poisoned || self.0.has_broken(&mut conn.client)
    }
}

/// A pool of connections to one PostgreSQL database.
pub type Pool = r2d2::Pool<Manager>;

/// The connections a store's pool keeps at most. The game service runs one operation at a
/// time per store (it holds the store behind a lock), so a few are enough: the rest serve
/// the notifications, and stand in for a connection the server closed. The coordination
/// locks never take one: they have a pool of their own ([`LOCK_POOL_SIZE`]).
const POOL_SIZE: u32 = 4;

/// The connections the coordination locks of one process may hold at once, each lock on a
/// session of its own: one per IDENTIFY bucket (Discord's `max_concurrency` is 1, or 16 for
/// the largest bots), and the command registration's. Opened when a lock is first taken,
/// closed after a minute unused; a lock held while shards identify then never leaves a
/// game's operation waiting for a connection.
pub const LOCK_POOL_SIZE: u32 = 17;

/// How long an unused lock connection stays open.
const LOCK_IDLE: Duration = Duration::from_secs(60);

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

/// How long a connection attempt waits for the server, unless the connection string says
/// (`connect_timeout`): an unreachable server is reported in seconds, not after the pool's
/// wait.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The connection settings of `url`: a URL (`postgres://…` or `postgresql://…`) or a libpq
/// keyword/value string (`host=… user=… dbname=…`), any form the `postgres` crate reads. The
/// server's notices (such as "relation … already exists, skipping" at every start) are
/// logged at debug, not as the crate's INFO lines.
pub fn config(url: &str) -> Result<postgres::Config, StoreError> {
    let mut config: postgres::Config = url.parse()?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.notice_callback(|notice| {
        tracing::debug!(
            severity = notice.severity(),
            code = notice.code().code(),
            "PostgreSQL: {}",
            notice.message()
        );
    });
    Ok(config)
}

/// Connects once, outside any pool: a server that cannot be reached or refuses the login
/// (a wrong password: SQLSTATE 28P01) is reported at once, with the server's reason, instead
/// of the pool's "timed out waiting for connection" after its wait.
pub fn connect(config: &postgres::Config) -> Result<Client, StoreError> {
    Ok(Client::new(config.connect(NoTls)?))
}

/// Opens a pool on `url` (see [`config`]), without TLS.
pub fn pool(url: &str, size: u32) -> Result<Pool, StoreError> {
    pool_of(config(url)?, size, 1, None)
}

/// What the pools do with a failed connection attempt (r2d2's own handler logs each at
/// ERROR, through `log`): one WARN line with the server's reason.
#[derive(Debug)]
struct WarnOnError;

impl r2d2::HandleError<postgres::Error> for WarnOnError {
    fn handle_error(&self, e: postgres::Error) {
        tracing::warn!(
            error = %super::error::postgres_reason(&e),
            "cannot open a PostgreSQL connection"
        );
    }
}

/// The coordination locks' pool on `config` ([`LOCK_POOL_SIZE`]): no connection until a lock
/// is taken.
fn lock_pool(config: postgres::Config) -> Result<Pool, StoreError> {
    pool_of(config, LOCK_POOL_SIZE, 0, Some(LOCK_IDLE))
}

/// A pool on `config` of at most `size` connections, keeping `min_idle` open; an idle one
/// beyond those is closed after `idle` (r2d2's 10 minutes when `None`).
fn pool_of(
    config: postgres::Config,
    size: u32,
    min_idle: u32,
    idle: Option<Duration>,
) -> Result<Pool, StoreError> {
    let manager = Manager(PostgresConnectionManager::new(config, NoTls));
    let builder = r2d2::Pool::builder();
    let builder = match idle {
        Some(idle) => builder.idle_timeout(Some(idle)),
        None => builder,
    };
    Ok(builder
        .max_size(size)
        .min_idle(Some(min_idle))
        // No round trip to test a connection before each use (a move is a dozen of them):
        // a connection the server closed is found at BEGIN, which is retried once on another
        // (see `PostgresStore::transaction`), and dropped from the pool as broken.
        .test_on_check_out(false)
        .connection_timeout(Duration::from_secs(10))
        .error_handler(Box::new(WarnOnError))
        .build(manager)?)
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

/// An open PostgreSQL transaction; the record traits are implemented in this module's files.
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

/// A parameter bound as the type the server inferred for its placeholder.
enum Bound<'a> {
    I16(Option<i16>),
    I32(Option<i32>),
    I64(Option<i64>),
    F32(Option<f32>),
    F64(Option<f64>),
    Bool(Option<bool>),
    Text(Option<&'a str>),
}

impl Bound<'_> {
    fn as_sql(&self) -> &(dyn ToSql + Sync) {
        match self {
            Bound::I16(v) => v,
            Bound::I32(v) => v,
            Bound::I64(v) => v,
            Bound::F32(v) => v,
            Bound::F64(v) => v,
            Bound::Bool(v) => v,
            Bound::Text(v) => v,
        }
    }
}

/// `v` as a parameter of type `ty`: an integer binds to `SMALLINT`, `INTEGER` or `BIGINT`,
/// saturated to the type's range (a ply beyond `INTEGER`, such as a caller's "any ply"
/// sentinel, then matches no row, as it matches none in SQLite); a NULL takes the type.
fn bind<'a>(v: Value<'a>, ty: &Type) -> Result<Bound<'a>, StoreError> {
    let refuse = |v: Value<'_>| StoreError::Backend(format!("cannot bind {v:?} as {ty}"));
    let int = |v: Value<'_>| match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(i)),
        other => Err(refuse(other)),
    };
    let clamp = |i: i64, min: i64, max: i64| i.clamp(min, max);
    Ok(match *ty {
        Type::INT2 => {
            Bound::I16(int(v)?.map(|i| clamp(i, i16::MIN.into(), i16::MAX.into()) as i16))
        }
        Type::INT4 => {
            Bound::I32(int(v)?.map(|i| clamp(i, i32::MIN.into(), i32::MAX.into()) as i32))
        }
        Type::INT8 => Bound::I64(int(v)?),
        Type::FLOAT8 => Bound::F64(match v {
            Value::Null => None,
            Value::Real(x) => Some(x),
            Value::Int(i) => Some(i as f64),
            other => return Err(refuse(other)),
        }),
        Type::FLOAT4 => Bound::F32(match v {
            Value::Null => None,
            Value::Real(x) => Some(x as f32),
            other => return Err(refuse(other)),
        }),
        Type::BOOL => Bound::Bool(match v {
            Value::Null => None,
            Value::Bool(b) => Some(b),
            other => return Err(refuse(other)),
        }),
        _ => Bound::Text(match v {
            Value::Null => None,
            Value::Text(s) => Some(s),
            other => return Err(refuse(other)),
        }),
    })
}

impl PgTx<'_> {
    /// `sql`'s statement with `params` bound to the types of its placeholders.
    fn bound<'p>(
        &self,
        sql: &'static str,
        params: &'p Params<'_>,
    ) -> Result<(Statement, Vec<Bound<'p>>), StoreError> {
        let s = self.stmt(sql)?;
        if s.params().len() != params.len() {
            return Err(StoreError::Backend(format!(
                "{} parameters for {} placeholders: {sql}",
                params.len(),
                s.params().len()
            )));
        }
        let bound = params
            .iter()
            .zip(s.params())
            .map(|(p, ty)| bind(p.value(), ty))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((s, bound))
    }
}

impl Cells for Row {
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::INT2) => self.try_get::<_, Option<i16>>(i)?.map(i64::from),
            Some(Type::INT4) => self.try_get::<_, Option<i32>>(i)?.map(i64::from),
            Some(Type::INT8) => self.try_get::<_, Option<i64>>(i)?,
            _ => return Err(wrong_cell(i, "an integer")),
        })
    }

    fn real(&self, i: usize) -> Result<Option<f64>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::FLOAT8) => self.try_get::<_, Option<f64>>(i)?,
            Some(Type::FLOAT4) => self.try_get::<_, Option<f32>>(i)?.map(f64::from),
            Some(Type::INT8 | Type::INT4 | Type::INT2) => self.int(i)?.map(|v| v as f64),
            _ => return Err(wrong_cell(i, "a number")),
        })
    }

    fn text(&self, i: usize) -> Result<Option<&str>, StoreError> {
        Ok(self.try_get::<_, Option<&str>>(i)?)
    }

    fn bool(&self, i: usize) -> Result<Option<bool>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::BOOL) => self.try_get::<_, Option<bool>>(i)?,
            Some(Type::INT8 | Type::INT4 | Type::INT2) => self.int(i)?.map(|v| v != 0),
            _ => return Err(wrong_cell(i, "a boolean")),
        })
    }
}

impl Backend for PgTx<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn each(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        each: &mut dyn FnMut(&dyn Cells) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let (s, bound) = self.bound(sql, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(Bound::as_sql).collect();
        let rows = self.tx.borrow_mut().query(&s, &refs)?;
        for row in &rows {
            each(row)?;
        }
        Ok(())
    }

    fn exec(&self, sql: &'static str, params: &Params<'_>) -> Result<u64, StoreError> {
        let (s, bound) = self.bound(sql, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(Bound::as_sql).collect();
        Ok(self.tx.borrow_mut().execute(&s, &refs)?)
    }

    fn locks_channels(&self) -> bool {
        self.write
    }

    fn lock_channel(&self, channel: i64) -> Result<(), StoreError> {
        PgTx::lock_channel(self, channel)
    }

    fn lock_place(&self, place: i64) -> Result<(), StoreError> {
        PgTx::lock_place(self, place)
    }

    fn try_lock_channel(&self, channel: i64) -> Result<bool, StoreError> {
        if !self.write {
            return Ok(true);
        }
        Ok(self
            .query_one("SELECT pg_try_advisory_xact_lock($1)", &[&channel])?
            .try_get(0)?)
    }

    fn lock_players(&self, players: &[(i64, crate::vocab::Speed, u64)]) -> Result<(), StoreError> {
        // A rebuild holds every rating at once ([`locks::RATINGS`]): nothing more to take.
        if players.is_empty() || self.ratings_locked.get() {
            return Ok(());
        }
        // Every transaction takes the shared lock of all ratings first (a rebuild takes it
        // exclusively), then its players' locks in the order of their keys: two transactions
        // never each hold a lock the other waits for. The NULL ahead of the keys stands for
        // the shared lock; `unnest` yields the array in its order, one lock per row.
        let mut keys: Vec<Option<i32>> = players
            .iter()
            .map(|&(pool, speed, user)| Some(locks::rating_key(pool, speed.as_str(), user)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.insert(0, None);
        self.execute(
            "SELECT CASE WHEN k IS NULL THEN pg_advisory_xact_lock_shared($1, $2)
                         ELSE pg_advisory_xact_lock($3, k) END
             FROM unnest($4::int4[]) AS k",
            &[&locks::CLASS, &locks::RATINGS, &locks::RATINGS_CLASS, &keys],
        )?;
        Ok(())
    }

    fn lock_all_ratings(&self) -> Result<(), StoreError> {
        self.execute(
            "SELECT pg_advisory_xact_lock($1, $2)",
            &[&locks::CLASS, &locks::RATINGS],
        )?;
        self.ratings_locked.set(true);
        Ok(())
    }

    fn lock_pings(&self, from: i64, to: i64) -> Result<(), StoreError> {
        // Count and insert as one step per pair, whatever the channel: two processes counting
        // the same pair at once would otherwise both see room for one more.
        self.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2::bigint::text || '>' || $3::bigint::text))",
            &[&locks::PINGS_CLASS, &from, &to],
        )?;
        Ok(())
    }
}
