//! The bookkeeping around games: front-end settings, handled interactions and pings.

use crate::store::StoreError;
use crate::store::sql::{Backend, BackendExt, to_db};

/// Small settings of the front ends (migration 0002).
pub trait Settings {
    /// A bot setting, if set.
    fn setting(&self, key: &str) -> Result<Option<String>, StoreError>;

    /// Sets a bot setting.
    fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError>;
}

/// Interactions already handled (Discord may deliver one twice).
pub trait Interactions {
    /// Records that an interaction was handled. Returns false when it already was.
    fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError>;

    /// Forgets handled interactions older than `before` (Unix ms). Returns how many.
    fn prune_interactions(&self, before: i64) -> Result<usize, StoreError>;
}

/// How often one person made the bot ping another (migration 0003): the rate limit.
pub trait Pings {
    /// Records that `from` made the bot ping `to` (`kind`: `challenge`, `draw_offer` or
    /// `takeback`) at `now`, unless `from` already did so `limit` times since `since`. Returns
    /// `None` when recorded, or the time of the oldest ping in the window when refused. Pings
    /// of the pair older than `since` are deleted.
    fn record_ping(
        &self,
        from: u64,
        to: u64,
        kind: &str,
        now: i64,
        since: i64,
        limit: u32,
    ) -> Result<Option<i64>, StoreError>;
}

impl<B: Backend + ?Sized> Settings for B {
    fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.row(
            "SELECT value FROM bot_settings WHERE key = ?1",
            &[&key],
            |c| c.string(),
        )
    }

    fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO bot_settings (key, value, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            &[&key, &value, &now],
        )?;
        Ok(())
    }
}

impl<B: Backend + ?Sized> Interactions for B {
    fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError> {
        // With PostgreSQL, a concurrent insert of the same id (another process) makes this one
        // wait for its transaction: when it commits, this one does nothing and says so.
        let n = self.exec(
            "INSERT INTO processed_interactions (id, handled_at) VALUES (?1, ?2)
             ON CONFLICT (id) DO NOTHING",
            &[&to_db(id), &now],
        )?;
        Ok(n == 1)
    }

    fn prune_interactions(&self, before: i64) -> Result<usize, StoreError> {
        let n = self.exec(
            "DELETE FROM processed_interactions WHERE handled_at < ?1",
            &[&before],
        )?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }
}

impl<B: Backend + ?Sized> Pings for B {
    fn record_ping(
        &self,
        from: u64,
        to: u64,
        kind: &str,
        now: i64,
        since: i64,
        limit: u32,
    ) -> Result<Option<i64>, StoreError> {
        let (from, to) = (to_db(from), to_db(to));
        self.lock_pings(from, to)?;
        self.exec(
            "DELETE FROM pings WHERE from_user = ?1 AND to_user = ?2 AND at <= ?3",
            &[&from, &to, &since],
        )?;
        let (count, oldest) = self.one(
            "SELECT count(*), min(at) FROM pings WHERE from_user = ?1 AND to_user = ?2",
            &[&from, &to],
            |c| Ok((c.i64()?, c.opt_i64()?)),
        )?;
        if count >= i64::from(limit) {
            return Ok(Some(oldest.unwrap_or(now)));
        }
        self.exec(
            "INSERT INTO pings (from_user, to_user, kind, at) VALUES (?1, ?2, ?3, ?4)",
            &[&from, &to, &kind, &now],
        )?;
        Ok(None)
    }
}
