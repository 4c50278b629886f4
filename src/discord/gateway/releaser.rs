//! Cross-process locks held from async code: their release is a blocking database call
//! (PostgreSQL's `pg_advisory_unlock` through the synchronous client, which must not run on
//! the runtime's worker threads), so a [`Releaser`] makes it off the runtime, however it is
//! dropped.

use crate::store::LockGuard;

/// A held lock that releases itself on a thread of its own when dropped on the runtime (or
/// at once when dropped outside a runtime). Not on the runtime's blocking pool: while the
/// runtime shuts down, that pool cancels a new task at once, dropping it (and the guard, whose
/// release then blocks) on the runtime thread that spawned it, which panics.
pub struct Releaser(Box<dyn LockGuard>);

impl Releaser {
    /// Wraps a held lock.
    pub fn new(guard: Box<dyn LockGuard>) -> Releaser {
        Releaser(guard)
    }
}

impl Drop for Releaser {
    fn drop(&mut self) {
        let guard = std::mem::replace(&mut self.0, Box::new(NoGuard));
        if tokio::runtime::Handle::try_current().is_err() {
            return drop(guard);
        }
        let released = std::thread::Builder::new()
            .name("cajitas-unlock".into())
            .spawn(move || drop(guard));
        if let Err(e) = released {
            // The closure, and the guard in it, could not move to a thread of its own.
            tracing::warn!(error = %e, "could not start a thread to release a lock");
        }
    }
}

struct NoGuard;

impl LockGuard for NoGuard {}
