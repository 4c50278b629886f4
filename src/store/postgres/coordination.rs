//! Coordination of the processes sharing one PostgreSQL database: session-level advisory
//! locks ([`locks`](super::locks)), each held on a connection of its own until its guard is
//! dropped, from a pool apart from the store's ([`LOCK_POOL_SIZE`](super::LOCK_POOL_SIZE)),
//! so that locks held while shards identify never leave a game's operation without a
//! connection. A process that dies closes its connections, and the server releases its locks.

use std::sync::{Arc, OnceLock};

use r2d2::PooledConnection;

use super::{Manager, Pool, lock_pool, locks};
use crate::store::{Coordination, LockGuard, NamedLock, StoreError, Wakeups};

/// [`Coordination`] through PostgreSQL advisory locks.
#[derive(Clone)]
pub struct PgCoordination {
    /// The store's pool, for notifications.
    pool: Pool,
    /// The locks' pool, opened by the first lock (shared by every `PgCoordination` of one
    /// store).
    locks: Arc<OnceLock<Pool>>,
    /// How to open the listening connections and the locks' pool.
    config: postgres::Config,
}

impl PgCoordination {
    /// Notifications sent on connections of `pool`; locks taken on connections of `locks`
    /// (opened with `config` when first needed); listeners connect with `config`.
    pub fn new(pool: Pool, locks: Arc<OnceLock<Pool>>, config: postgres::Config) -> PgCoordination {
        PgCoordination {
            pool,
            locks,
            config,
        }
    }

    /// A connection of the locks' pool.
    fn lock_connection(&self) -> Result<PooledConnection<Manager>, StoreError> {
        let pool = match self.locks.get() {
            Some(pool) => pool,
            None => {
                let pool = lock_pool(self.config.clone())?;
                // Two first locks at once: one pool is kept, the other dropped unused.
                self.locks.get_or_init(|| pool)
            }
        };
        Ok(pool.get()?)
    }
}

/// The two keys of a named lock.
fn keys(lock: NamedLock) -> (i32, i32) {
    match lock {
        NamedLock::CommandRegistration => (locks::CLASS, locks::COMMAND_REGISTRATION),
        NamedLock::Identify(bucket) => (
            locks::CLASS,
            locks::IDENTIFY_BASE.saturating_add(i32::try_from(bucket).unwrap_or(i32::MAX - 1)),
        ),
    }
}

/// A session lock held on its own connection.
struct PgLockGuard {
    conn: Option<PooledConnection<Manager>>,
    keys: (i32, i32),
}

impl LockGuard for PgLockGuard {}

impl Drop for PgLockGuard {
    fn drop(&mut self) {
        if let Some(mut conn) = self.conn.take() {
            let (a, b) = self.keys;
            if conn
                .client()
                .execute("SELECT pg_advisory_unlock($1, $2)", &[&a, &b])
                .is_err()
            {
                // The lock may still be held by this session: the pool must close it.
                conn.poisoned = true;
            }
        }
    }
}

impl Coordination for PgCoordination {
    fn lock(&self, lock: NamedLock) -> Result<Box<dyn LockGuard>, StoreError> {
        let mut conn = self.lock_connection()?;
        let (a, b) = keys(lock);
        // The session's lock_timeout does not apply here: waiting is the point.
        conn.client().batch_execute("SET lock_timeout = 0")?;
        let locked = conn
            .client()
            .execute("SELECT pg_advisory_lock($1, $2)", &[&a, &b]);
        let reset = conn.client().batch_execute(&format!(
            "SET lock_timeout = '{}ms'",
            super::LOCK_TIMEOUT.as_millis()
        ));
        locked?;
        reset?;
        Ok(Box::new(PgLockGuard {
            conn: Some(conn),
            keys: (a, b),
        }))
    }

    fn try_lock(&self, lock: NamedLock) -> Result<Option<Box<dyn LockGuard>>, StoreError> {
        let mut conn = self.lock_connection()?;
        let (a, b) = keys(lock);
        let got: bool = conn
            .client()
            .query_one("SELECT pg_try_advisory_lock($1, $2)", &[&a, &b])?
            .try_get(0)?;
        Ok(got.then(|| {
            Box::new(PgLockGuard {
                conn: Some(conn),
                keys: (a, b),
            }) as Box<dyn LockGuard>
        }))
    }

    fn notify(&self, topic: &str, payload: &str) -> Result<(), StoreError> {
        valid_topic(topic)?;
        self.pool
            .get()?
            .client()
            .execute("SELECT pg_notify($1, $2)", &[&topic, &payload])?;
        Ok(())
    }

    fn listen(&self, topic: &str) -> Result<Box<dyn Wakeups>, StoreError> {
        valid_topic(topic)?;
        let (tx, rx) = std::sync::mpsc::channel();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (config, topic, flag) = (self.config.clone(), topic.to_owned(), stop.clone());
        std::thread::Builder::new()
            .name("pg-listen".into())
            .spawn(move || listen_loop(config, topic, tx, flag, ready_tx))
            .map_err(|e| StoreError::Backend(format!("cannot start a listener: {e}")))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Box::new(PgWakeups { rx, stop })),
            Ok(Err(e)) => Err(StoreError::Backend(format!("cannot LISTEN: {e}"))),
            Err(_) => Err(StoreError::Backend("the listener stopped".into())),
        }
    }

    fn listen_deadlines(&self) -> Result<Box<dyn Wakeups>, StoreError> {
        self.listen(super::DEADLINE_TOPIC)
    }
}

/// Whether `topic` is a safe LISTEN/NOTIFY channel name (it is written into SQL).
fn valid_topic(topic: &str) -> Result<(), StoreError> {
    if !topic.is_empty()
        && topic.len() <= 63
        && topic.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
    {
        Ok(())
    } else {
        Err(StoreError::Backend(format!(
            "bad notification topic {topic:?}"
        )))
    }
}

/// How long a listening thread sleeps without a notification before it looks whether its
/// listener was dropped: the only wake-up of an idle process's listener.
pub const LISTEN_IDLE: std::time::Duration = std::time::Duration::from_secs(60);

/// A LISTEN connection on its own thread, forwarding payloads.
struct PgWakeups {
    rx: std::sync::mpsc::Receiver<String>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Wakeups for PgWakeups {
    fn wait(&self, timeout: std::time::Duration) -> Option<String> {
        self.rx.recv_timeout(timeout).ok()
    }
}

impl Drop for PgWakeups {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The listening loop: connect, LISTEN, forward; after an error, wake the listener (it may
/// have missed something) and connect again.
fn listen_loop(
    config: postgres::Config,
    topic: String,
    tx: std::sync::mpsc::Sender<String>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ready: std::sync::mpsc::Sender<Result<(), String>>,
) {
    use postgres::fallible_iterator::FallibleIterator;
    use std::sync::atomic::Ordering;
    let mut first = Some(ready);
    while !stop.load(Ordering::Relaxed) {
        let connected = config.connect(postgres::NoTls).and_then(|mut c| {
            c.batch_execute(&format!("LISTEN {topic}"))?;
            Ok(c)
        });
        let mut client = match connected {
            Ok(c) => c,
            Err(e) => {
                if let Some(r) = first.take() {
                    let _ = r.send(Err(e.to_string()));
                    return;
                }
                std::thread::sleep(std::time::Duration::from_secs(1));
                continue;
            }
        };
        match first.take() {
            Some(r) => {
                let _ = r.send(Ok(()));
            }
            // Reconnected: something may have been missed meanwhile.
            None => {
                if tx.send(String::new()).is_err() {
                    return;
                }
            }
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            // Asleep until a notification comes or the connection breaks (a read error, at
            // once); the timeout only bounds how long a dropped listener's thread lingers, so
            // an idle process does not wake for nothing.
            let next = client
                .notifications()
                .timeout_iter(LISTEN_IDLE)
                .next()
                .map(|n| n.map(|n| n.payload().to_owned()));
            match next {
                Ok(Some(payload)) => {
                    if tx.send(payload).is_err() {
                        return;
                    }
                }
                Ok(None) => {
                    if client.is_closed() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    }
}
