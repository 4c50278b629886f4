//! Cross-process locks held from async code: their release is a blocking database call
//! (PostgreSQL's `pg_advisory_unlock` through the synchronous client, which must not run on
//! the runtime's worker threads), so a [`Releaser`] makes it off the runtime, however it is
//! dropped.

use crate::store::LockGuard;

/// A held lock that releases itself on the runtime's blocking pool when dropped (or at once
/// when dropped outside a runtime).
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
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => drop(rt.spawn_blocking(move || drop(guard))),
            Err(_) => drop(guard),
        }
    }
}

struct NoGuard;

impl LockGuard for NoGuard {}
