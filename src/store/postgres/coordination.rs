//! Coordination of the processes sharing one PostgreSQL database: session-level advisory
//! locks ([`locks`](super::locks)), each held on its own pooled connection until its guard is
//! dropped. A process that dies closes its connections, and the server releases its locks.

use r2d2::PooledConnection;

use super::{Manager, Pool, locks};
use crate::store::{Coordination, LockGuard, NamedLock, StoreError};

/// [`Coordination`] through PostgreSQL advisory locks.
#[derive(Clone)]
pub struct PgCoordination {
    pool: Pool,
}

impl PgCoordination {
    /// Locks taken on connections of `pool`.
    pub fn new(pool: Pool) -> PgCoordination {
        PgCoordination { pool }
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
        let mut conn = self.pool.get()?;
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
        let mut conn = self.pool.get()?;
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
}
