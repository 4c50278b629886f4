//! The Discord front end's own records, in the service's database but not the service's
//! business: the interactions already handled (so a redelivery is ignored) and small bot
//! settings (the hash of the commands last registered).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::game::Clock;
use crate::store::{Coordination, LockGuard, NamedLock, SharedStore, StoreError, StoreExt};

/// How long the ids of handled interactions are kept (Discord redelivers only within a
/// session, so a day is plenty).
pub const HANDLED_INTERACTIONS_KEPT: Duration = Duration::from_secs(24 * 3600);
/// How often [`Bookkeeping::first_delivery`] prunes them.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Handled interactions and bot settings, on a store shared with the game service.
pub struct Bookkeeping {
    store: SharedStore,
    clock: Arc<dyn Clock>,
    /// The settings read or written so far (they change only through this process's
    /// `set_setting`), so the per-interaction language lookup costs no database read.
    settings: std::sync::Mutex<std::collections::HashMap<String, Option<String>>>,
    /// When the handled interactions were last pruned (Unix ms; 0 before the first time).
    last_prune: AtomicI64,
    /// How the processes sharing the database coordinate (PostgreSQL); `None` when this
    /// process owns it (SQLite). Settings are then not kept in memory: another process may
    /// change them.
    coordination: Option<Arc<dyn Coordination>>,
}

impl std::fmt::Debug for Bookkeeping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bookkeeping").finish_non_exhaustive()
    }
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Bookkeeping {
    /// Bookkeeping on `store`, with time from `clock`.
    pub fn new(store: SharedStore, clock: Arc<dyn Clock>) -> Bookkeeping {
        let coordination = store
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .coordination();
        Bookkeeping {
            store,
            clock,
            settings: std::sync::Mutex::default(),
            last_prune: AtomicI64::new(0),
            coordination,
        }
    }

    /// Waits for a lock shared by every process of the deployment (blocking). `None` when
    /// the database is this process's alone (SQLite): there is nobody to wait for.
    pub fn lock(&self, lock: NamedLock) -> Result<Option<Box<dyn LockGuard>>, StoreError> {
        self.coordination.as_ref().map(|c| c.lock(lock)).transpose()
    }

    /// How the processes sharing the database coordinate (`None`: this process owns it).
    pub fn coordination(&self) -> Option<Arc<dyn Coordination>> {
        self.coordination.clone()
    }

    /// A bot setting read from the database, never from memory.
    pub fn fresh_setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        let value = store.read(|tx| tx.setting(key))?;
        self.remember(key, value.clone());
        Ok(value)
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&dyn crate::store::Tx, i64) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let now = self.clock.now_ms();
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store.immediate(|tx| f(tx, now))
    }

    /// Records that an interaction was handled; false when it already was, so a redelivered
    /// interaction can be ignored.
    ///
    /// Once an hour (by the clock) the same transaction also forgets the ids older than
    /// [`HANDLED_INTERACTIONS_KEPT`], so a bot that runs for months keeps about a day of them.
    pub fn first_delivery(&self, interaction_id: u64) -> Result<bool, StoreError> {
        self.with(|tx, now| {
            let first = tx.mark_interaction(interaction_id, now)?;
            let last = self.last_prune.load(Ordering::Relaxed);
            if now.saturating_sub(last) >= ms(PRUNE_EVERY) {
                tx.prune_interactions(now.saturating_sub(ms(HANDLED_INTERACTIONS_KEPT)))?;
                self.last_prune.store(now, Ordering::Relaxed);
            }
            Ok(first)
        })
    }

    /// Forgets the handled interactions older than `age`. Returns how many were forgotten.
    pub fn forget_interactions(&self, age: Duration) -> Result<usize, StoreError> {
        self.with(|tx, now| tx.prune_interactions(now.saturating_sub(ms(age))))
    }

    /// A bot setting, if set (read once, then from memory).
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        if let Some(known) = self.cached_setting(key) {
            return Ok(known);
        }
        // The cache is filled while the store is still locked, so a `set_setting` cannot
        // commit and remember a newer value in between (locks: the store, then the cache).
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        let value = store.read(|tx| tx.setting(key))?;
        self.remember(key, value.clone());
        Ok(value)
    }

    /// The setting when it is already known in memory (no database access, never blocks
    /// on the store): `Some(value)`, or `None` when it must be read with [`Self::setting`].
    pub fn cached_setting(&self, key: &str) -> Option<Option<String>> {
        if self.coordination.is_some() {
            return None;
        }
        let cache = self.settings.lock().unwrap_or_else(|p| p.into_inner());
        cache.get(key).cloned()
    }

    fn remember(&self, key: &str, value: Option<String>) {
        let mut cache = self.settings.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= 10_000 {
            cache.clear();
        }
        cache.insert(key.to_owned(), value);
    }

    /// Stores a bot setting.
    pub fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let store = self.store.lock().unwrap_or_else(|p| p.into_inner());
        store.immediate(|tx| tx.set_setting(key, value, now))?;
        self.remember(key, Some(value.to_owned()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameService, ManualClock, ServiceOptions};

    #[test]
    fn handled_interactions_are_pruned_while_the_bot_runs() {
        let clock = Arc::new(ManualClock::new(5_000_000_000));
        let svc = GameService::open_in_memory(ServiceOptions::with_clock(clock.clone())).unwrap();
        let books = Bookkeeping::new(svc.shared_store(), clock.clone());
        assert!(books.first_delivery(1).unwrap());
        assert!(!books.first_delivery(1).unwrap(), "a redelivery is seen");
        // Half an hour later it is still known.
        clock.advance(Duration::from_secs(30 * 60));
        assert!(books.first_delivery(2).unwrap());
        assert!(!books.first_delivery(1).unwrap());
        // A day and more later, the next interaction prunes the old ids, without a restart.
        clock.advance(Duration::from_secs(24 * 3600));
        assert!(books.first_delivery(3).unwrap());
        assert!(
            books.first_delivery(1).unwrap(),
            "id 1 was forgotten, so it counts as new"
        );
        assert!(!books.first_delivery(3).unwrap(), "recent ids are kept");
    }

    #[test]
    fn settings_round_trip_on_the_shared_store() {
        let clock = Arc::new(ManualClock::new(1));
        let svc = GameService::open_in_memory(ServiceOptions::with_clock(clock.clone())).unwrap();
        let books = Bookkeeping::new(svc.shared_store(), clock);
        assert_eq!(books.setting("k").unwrap(), None);
        books.set_setting("k", "v1").unwrap();
        books.set_setting("k", "v2").unwrap();
        assert_eq!(books.setting("k").unwrap().as_deref(), Some("v2"));
    }
}
