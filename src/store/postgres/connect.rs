//! Reaching the server: what names a PostgreSQL database, the connection settings, the
//! blocking client, and the pools of connections (each with its prepared statements).

use std::collections::HashMap;
use std::time::Duration;

use postgres::{NoTls, Statement};
use r2d2_postgres::PostgresConnectionManager;

use super::LOCK_TIMEOUT;
use crate::store::StoreError;

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
    pub(super) client: Client,
    pub(super) statements: HashMap<&'static str, Statement>,
    /// Set when the session may hold a lock it could not release: the pool closes it.
    pub(super) poisoned: bool,
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
pub(super) const POOL_SIZE: u32 = 4;

/// The connections the coordination locks of one process may hold at once, each lock on a
/// session of its own: one per IDENTIFY bucket (Discord's `max_concurrency` is 1, or 16 for
/// the largest bots), and the command registration's. Opened when a lock is first taken,
/// closed after a minute unused; a lock held while shards identify then never leaves a
/// game's operation waiting for a connection.
pub const LOCK_POOL_SIZE: u32 = 17;

/// How long an unused lock connection stays open.
const LOCK_IDLE: Duration = Duration::from_secs(60);

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
            error = %crate::store::error::postgres_reason(&e),
            "cannot open a PostgreSQL connection"
        );
    }
}

/// The coordination locks' pool on `config` ([`LOCK_POOL_SIZE`]): no connection until a lock
/// is taken.
pub(super) fn lock_pool(config: postgres::Config) -> Result<Pool, StoreError> {
    pool_of(config, LOCK_POOL_SIZE, 0, Some(LOCK_IDLE))
}

/// A pool on `config` of at most `size` connections, keeping `min_idle` open; an idle one
/// beyond those is closed after `idle` (r2d2's 10 minutes when `None`).
pub(super) fn pool_of(
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
