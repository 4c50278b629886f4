//! The bookkeeping around games: front-end settings, handled interactions and pings.

use rusqlite::{OptionalExtension, params};

use super::{SqliteTx, to_db};
use crate::store::{Interactions, Pings, Settings, StoreError};

impl Settings for SqliteTx<'_> {
    fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT value FROM bot_settings WHERE key = ?1")?
            .query_row(params![key], |r| r.get(0))
            .optional()?)
    }

    fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "INSERT INTO bot_settings (key, value, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            )?
            .execute(params![key, value, now])?;
        Ok(())
    }
}

impl Interactions for SqliteTx<'_> {
    fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "INSERT INTO processed_interactions (id, handled_at) VALUES (?1, ?2)
                 ON CONFLICT (id) DO NOTHING",
            )?
            .execute(params![to_db(id), now])?;
        Ok(n == 1)
    }

    fn prune_interactions(&self, before: i64) -> Result<usize, StoreError> {
        Ok(self
            .tx
            .prepare_cached("DELETE FROM processed_interactions WHERE handled_at < ?1")?
            .execute([before])?)
    }
}

impl Pings for SqliteTx<'_> {
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
        self.tx
            .prepare_cached("DELETE FROM pings WHERE from_user = ?1 AND to_user = ?2 AND at <= ?3")?
            .execute(params![from, to, since])?;
        let (count, oldest): (u32, Option<i64>) = self
            .tx
            .prepare_cached(
                "SELECT count(*), min(at) FROM pings WHERE from_user = ?1 AND to_user = ?2",
            )?
            .query_row(params![from, to], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if count >= limit {
            return Ok(Some(oldest.unwrap_or(now)));
        }
        self.tx
            .prepare_cached(
                "INSERT INTO pings (from_user, to_user, kind, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![from, to, kind, now])?;
        Ok(None)
    }
}
