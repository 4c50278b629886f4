//! The scheduler's events (migrations 0007 and 0010): a game's pending event is two columns
//! of its row (`event_kind`, `event_due`, indexed on the due time); `clock_events` holds the
//! events recorded done, until and after they are posted.

use rusqlite::{OptionalExtension, Row, params};

use super::{Columns, SqliteTx, from_db, to_db};
use crate::store::{
    ClockEvents, EventKind, EventRow, EventScope, LOCAL_CHANNEL_ID, StoreError, local_channel_sql,
};

/// A game's pending event, read in [`event_row`]'s order (no id yet: 0).
macro_rules! select_pending {
    () => {
        "SELECT 0, id, seq, event_kind, channel_id, event_due FROM games"
    };
}

/// The console's next event: one walk down its own partial index (migration 0012), named:
/// without statistics SQLite would rather walk `games_by_channel`, every game the console
/// ever played, and sort them.
const LOCAL_NEXT_DUE: &str = concat!(
    "SELECT event_due FROM games INDEXED BY games_event_due_local
     WHERE event_due IS NOT NULL AND channel_id = ",
    local_channel_sql!(),
    " AND ?1 IS NOT NULL ORDER BY event_due LIMIT 1"
);

/// The console's due events, down the same index.
const LOCAL_DUE_EVENTS: &str = concat!(
    select_pending!(),
    " INDEXED BY games_event_due_local WHERE event_due IS NOT NULL AND channel_id = ",
    local_channel_sql!(),
    " AND ?1 IS NOT NULL AND event_due <= ?2 ORDER BY event_due LIMIT ?3"
);

fn event_row(row: &Row<'_>) -> rusqlite::Result<EventRow> {
    let mut c = Columns::new(row);
    Ok(EventRow {
        id: c.get()?,
        game_id: c.get()?,
        seq: c.get()?,
        kind: c.get()?,
        channel: c.id()?,
        due_at: c.get()?,
    })
}

/// The channel bound as `?1` in the scope's condition (`All` binds 0, to a condition that
/// always holds).
fn scope_channel(scope: EventScope) -> i64 {
    match scope {
        EventScope::All => 0,
        EventScope::Only(ch) | EventScope::Except(ch) => to_db(ch),
    }
}

impl SqliteTx<'_> {
    fn events(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<EventRow>, StoreError> {
        let mut stmt = self.tx.prepare_cached(sql)?;
        let rows = stmt.query_map(params, event_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl ClockEvents for SqliteTx<'_> {
    fn schedule_event(
        &self,
        game_id: i64,
        _channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
    ) -> Result<(), StoreError> {
        // The games row the operation already wrote: no other table, and of its indexes only
        // the two on the due time change.
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET event_kind = ?3, event_due = ?4
                 WHERE id = ?1 AND seq = ?2 AND status = 'active'",
            )?
            .execute(params![game_id, seq, kind, due_at])?;
        if n != 1 {
            return Err(StoreError::Backend(format!(
                "game {game_id}: no active game at seq {seq} to schedule an event for"
            )));
        }
        Ok(())
    }

    fn clear_event(&self, game_id: i64, seq: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "UPDATE games SET event_kind = NULL, event_due = NULL
                 WHERE id = ?1 AND seq = ?2 AND event_kind IS NOT NULL",
            )?
            .execute(params![game_id, seq])?;
        Ok(())
    }

    fn next_event_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND ?1 IS NOT NULL
                 ORDER BY event_due LIMIT 1"
            }
            // The console's channel: its own partial index (migration 0012).
            EventScope::Only(LOCAL_CHANNEL_ID) => LOCAL_NEXT_DUE,
            EventScope::Only(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id = ?1
                 ORDER BY event_due LIMIT 1"
            }
            EventScope::Except(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id <> ?1
                 ORDER BY event_due LIMIT 1"
            }
        };
        let ch = scope_channel(scope);
        Ok(self
            .tx
            .prepare_cached(sql)?
            .query_row([ch], |r| r.get(0))
            .optional()?)
    }

    fn due_events(
        &self,
        scope: EventScope,
        now: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        let ch = scope_channel(scope);
        let sql = match scope {
            EventScope::All => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND ?1 IS NOT NULL AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3"
            ),
            EventScope::Only(LOCAL_CHANNEL_ID) => LOCAL_DUE_EVENTS,
            EventScope::Only(_) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id = ?1 AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3"
            ),
            EventScope::Except(_) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id <> ?1 AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3"
            ),
        };
        self.events(sql, params![ch, now, limit as i64])
    }

    fn claim_event(&self, ev: &EventRow) -> Result<bool, StoreError> {
        let n = self
            .tx
            .prepare_cached(
                "UPDATE games SET event_kind = NULL, event_due = NULL
                 WHERE id = ?1 AND seq = ?2 AND event_kind = ?3 AND event_due = ?4",
            )?
            .execute(params![ev.game_id, ev.seq, ev.kind, ev.due_at])?;
        Ok(n == 1)
    }

    fn record_event(
        &self,
        game_id: i64,
        channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
        now: i64,
    ) -> Result<i64, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "INSERT INTO clock_events (game_id, seq, kind, channel_id, due_at, done_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 RETURNING id",
            )?
            .query_row(
                params![game_id, seq, kind, to_db(channel), due_at, now],
                |r| r.get(0),
            )?)
    }

    fn claim_posts(
        &self,
        scope: EventScope,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        let ch = scope_channel(scope);
        // One process per file, in a `BEGIN IMMEDIATE` transaction: the claim only keeps the
        // shape PostgreSQL needs (a lapsed claim is a post a crash left).
        macro_rules! claim {
            ($cond:literal) => {
                concat!(
                    "UPDATE clock_events SET claim_until = ?3
                     WHERE id IN (
                         SELECT id FROM clock_events
                         WHERE done_at IS NOT NULL AND posted_at IS NULL AND ",
                    $cond,
                    " AND (claim_until IS NULL OR claim_until <= ?2)
                         ORDER BY done_at LIMIT ?4)
                     RETURNING id, game_id, seq, kind, channel_id, due_at"
                )
            };
        }
        let sql = match scope {
            EventScope::All => claim!("?1 IS NOT NULL"),
            EventScope::Only(_) => claim!("channel_id = ?1"),
            EventScope::Except(_) => claim!("channel_id <> ?1"),
        };
        let mut claimed = self.events(sql, params![ch, now, until, limit as i64])?;
        claimed.sort_by_key(|e| e.id);
        Ok(claimed)
    }

    fn mark_posted(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "UPDATE clock_events SET posted_at = ?2 WHERE id = ?1 AND posted_at IS NULL",
            )?
            .execute(params![id, now])?;
        Ok(())
    }

    fn retry_post(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(
                "UPDATE clock_events SET claim_until = ?2 WHERE id = ?1 AND posted_at IS NULL",
            )?
            .execute(params![id, at])?;
        Ok(())
    }

    fn next_post_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND ?1 IS NOT NULL"
            }
            EventScope::Only(_) => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND channel_id = ?1"
            }
            EventScope::Except(_) => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND channel_id <> ?1"
            }
        };
        Ok(self
            .tx
            .prepare_cached(sql)?
            .query_row([scope_channel(scope)], |r| r.get(0))?)
    }

    fn release_post_claims(&self, scope: EventScope) -> Result<usize, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND ?1 IS NOT NULL"
            }
            EventScope::Only(_) => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND channel_id = ?1"
            }
            EventScope::Except(_) => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND channel_id <> ?1"
            }
        };
        Ok(self
            .tx
            .prepare_cached(sql)?
            .execute([scope_channel(scope)])?)
    }

    fn adopt_unclocked_games(
        &self,
        now: i64,
        abandon_ms: i64,
    ) -> Result<Vec<(i64, u64, i64, u32)>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "UPDATE games SET clock_at = ?1, deadline = ?1 + ?2
             WHERE status = 'active' AND clock_at IS NULL
             RETURNING id, channel_id, seq, ply",
        )?;
        let rows = stmt.query_map(params![now, abandon_ms], |r| {
            Ok((r.get(0)?, from_db(r.get(1)?), r.get(2)?, r.get(3)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    #[test]
    fn the_consoles_event_queries_walk_its_partial_index_without_a_sort() {
        let store = SqliteStore::open_in_memory().unwrap();
        for (sql, n) in [(LOCAL_NEXT_DUE, 1), (LOCAL_DUE_EVENTS, 3)] {
            let mut stmt = store
                .conn
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let values = [0i64, 0, 1];
            let plan: Vec<String> = stmt
                .query_map(rusqlite::params_from_iter(&values[..n]), |r| {
                    r.get::<_, String>(3)
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert_eq!(plan.len(), 1, "{plan:?}");
            assert!(
                plan[0].starts_with("SEARCH games USING ")
                    && plan[0].contains("INDEX games_event_due_local (event_due"),
                "{plan:?}"
            );
        }
    }
}
