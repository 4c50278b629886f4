//! The bookkeeping around games: front-end settings, handled interactions and pings.

use super::{PgTx, locks, to_db};
use crate::store::{Interactions, Pings, Settings, StoreError};

impl Settings for PgTx<'_> {
    fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.query_opt("SELECT value FROM bot_settings WHERE key = $1", &[&key])?
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .transpose()
    }

    fn set_setting(&self, key: &str, value: &str, now: i64) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO bot_settings (key, value, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            &[&key, &value, &now],
        )?;
        Ok(())
    }
}

impl Interactions for PgTx<'_> {
    fn mark_interaction(&self, id: u64, now: i64) -> Result<bool, StoreError> {
        // A concurrent insert of the same id (another process) makes this one wait for its
        // transaction: when it commits, this one does nothing and says so.
        let n = self.execute(
            "INSERT INTO processed_interactions (id, handled_at) VALUES ($1, $2)
             ON CONFLICT (id) DO NOTHING",
            &[&to_db(id), &now],
        )?;
        Ok(n == 1)
    }

    fn prune_interactions(&self, before: i64) -> Result<usize, StoreError> {
        Ok(self.execute(
            "DELETE FROM processed_interactions WHERE handled_at < $1",
            &[&before],
        )? as usize)
    }
}

impl Pings for PgTx<'_> {
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
        // Count and insert as one step per pair, whatever the channel: two processes counting
        // the same pair at once would otherwise both see room for one more.
        self.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2::bigint::text || '>' || $3::bigint::text))",
            &[&locks::PINGS_CLASS, &from, &to],
        )?;
        self.execute(
            "DELETE FROM pings WHERE from_user = $1 AND to_user = $2 AND at <= $3",
            &[&from, &to, &since],
        )?;
        let row = self.query_one(
            "SELECT count(*), min(at) FROM pings WHERE from_user = $1 AND to_user = $2",
            &[&from, &to],
        )?;
        let count: i64 = row.try_get(0)?;
        let oldest: Option<i64> = row.try_get(1)?;
        if count >= i64::from(limit) {
            return Ok(Some(oldest.unwrap_or(now)));
        }
        self.execute(
            "INSERT INTO pings (from_user, to_user, kind, at) VALUES ($1, $2, $3, $4)",
            &[&from, &to, &kind, &now],
        )?;
        Ok(None)
    }
}
