//! The scheduler's events (migrations 0007 and 0010), shared by every process of a
//! deployment: a game's pending event is two columns of its row; a scheduler picks due ones
//! with `FOR UPDATE SKIP LOCKED` and claims each with a conditional update, so two processes
//! never claim one event, and a new deadline is announced with `NOTIFY cajitas_deadline`
//! (sent at commit).
//! The posts of done events are claimed the same way, with a lease that lapses if the
//! claimant dies (migration 0011's `claim_until`).

use postgres::Row;

use super::{Columns, PgTx, from_db, to_db};
use crate::store::{
    ClockEvents, EventKind, EventRow, EventScope, LOCAL_CHANNEL_ID, StoreError, local_channel_sql,
};

/// The topic on which a scheduled event is announced (its payload: the due time, Unix ms).
pub const DEADLINE_TOPIC: &str = "cajitas_deadline";

/// A game's pending event, read in [`event_row`]'s order (no id yet: 0).
macro_rules! select_pending {
    () => {
        "SELECT 0::BIGINT, id, seq, event_kind, channel_id, event_due FROM games"
    };
}

fn event_row(row: &Row) -> Result<EventRow, StoreError> {
    let mut c = Columns::new(row);
    Ok(EventRow {
        id: c.get()?,
        game_id: c.get()?,
        seq: c.get()?,
        kind: c.text()?,
        channel: c.id()?,
        due_at: c.get()?,
    })
}

/// The channel bound as `$1` in the scope's condition (`All` binds 0, to a condition that
/// always holds).
fn scope_channel(scope: EventScope) -> i64 {
    match scope {
        EventScope::All => 0,
        EventScope::Only(ch) | EventScope::Except(ch) => to_db(ch),
    }
}

impl PgTx<'_> {
    fn events(
        &self,
        sql: &'static str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<EventRow>, StoreError> {
        self.query(sql, params)?.iter().map(event_row).collect()
    }
}

impl ClockEvents for PgTx<'_> {
    fn schedule_event(
        &self,
        game_id: i64,
        _channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
    ) -> Result<(), StoreError> {
        // The games row the operation already wrote (migration 0010), and the notification
        // in the same round trip, for the row updated. It is delivered when (and only if) the
        // transaction commits: every process's scheduler looks again at its next event.
        let n = self.execute(
            "UPDATE games SET event_kind = $3, event_due = $4
             WHERE id = $1 AND seq = $2 AND status = 'active'
             RETURNING pg_notify('cajitas_deadline', $4::BIGINT::TEXT)",
            &[&game_id, &seq, &kind.as_str(), &due_at],
        )?;
        if n != 1 {
            return Err(StoreError::Backend(format!(
                "game {game_id}: no active game at seq {seq} to schedule an event for"
            )));
        }
        Ok(())
    }

    fn clear_event(&self, game_id: i64, seq: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE games SET event_kind = NULL, event_due = NULL
             WHERE id = $1 AND seq = $2 AND event_kind IS NOT NULL",
            &[&game_id, &seq],
        )?;
        Ok(())
    }

    fn next_event_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND $1::BIGINT IS NOT NULL
                 ORDER BY event_due LIMIT 1"
            }
            // The console's channel: its own partial index (migration 0012).
            EventScope::Only(LOCAL_CHANNEL_ID) => concat!(
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id = ",
                local_channel_sql!(),
                " AND $1::BIGINT IS NOT NULL ORDER BY event_due LIMIT 1"
            ),
            EventScope::Only(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id = $1
                 ORDER BY event_due LIMIT 1"
            }
            EventScope::Except(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id <> $1
                 ORDER BY event_due LIMIT 1"
            }
        };
        self.query_opt(sql, &[&scope_channel(scope)])?
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .transpose()
    }

    fn due_events(
        &self,
        scope: EventScope,
        now: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        let ch = scope_channel(scope);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // Games whose event another process is claiming are skipped, not waited for.
        let sql = match (scope, self.write) {
            (_, false) => {
                return Err(StoreError::Backend(
                    "due events are claimed in a write transaction".into(),
                ));
            }
            (EventScope::All, true) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND $1::BIGINT IS NOT NULL AND event_due <= $2
                 ORDER BY event_due LIMIT $3 FOR UPDATE SKIP LOCKED"
            ),
            (EventScope::Only(LOCAL_CHANNEL_ID), true) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id = ",
                local_channel_sql!(),
                " AND $1::BIGINT IS NOT NULL AND event_due <= $2
                 ORDER BY event_due LIMIT $3 FOR UPDATE SKIP LOCKED"
            ),
            (EventScope::Only(_), true) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id = $1 AND event_due <= $2
                 ORDER BY event_due LIMIT $3 FOR UPDATE SKIP LOCKED"
            ),
            (EventScope::Except(_), true) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id <> $1 AND event_due <= $2
                 ORDER BY event_due LIMIT $3 FOR UPDATE SKIP LOCKED"
            ),
        };
        let claimed = self.events(sql, &[&ch, &now, &limit])?;
        // The scheduler then works on each event's game under its channel's lock. A channel
        // whose lock another transaction holds (a move there, which may be rescheduling this
        // very event) is left for the next round: waiting for it while holding the game's
        // row lock, which that move waits for, would be a deadlock.
        let mut mine = Vec::with_capacity(claimed.len());
        for ev in claimed {
            let got: bool = self
                .query_one(
                    "SELECT pg_try_advisory_xact_lock($1)",
                    &[&to_db(ev.channel)],
                )?
                .try_get(0)?;
            if got {
                mine.push(ev);
            }
        }
        Ok(mine)
    }

    fn claim_event(&self, ev: &EventRow) -> Result<bool, StoreError> {
        let n = self.execute(
            "UPDATE games SET event_kind = NULL, event_due = NULL
             WHERE id = $1 AND seq = $2 AND event_kind = $3 AND event_due = $4",
            &[&ev.game_id, &ev.seq, &ev.kind.as_str(), &ev.due_at],
        )?;
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
            .query_one(
                "INSERT INTO clock_events (game_id, seq, kind, channel_id, due_at, done_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 RETURNING id",
                &[
                    &game_id,
                    &seq,
                    &kind.as_str(),
                    &to_db(channel),
                    &due_at,
                    &now,
                ],
            )?
            .try_get(0)?)
    }

    fn claim_posts(
        &self,
        scope: EventScope,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        let ch = scope_channel(scope);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // The rows another transaction is claiming are skipped, not waited for; a row whose
        // claim another process committed meanwhile is read again by the UPDATE (READ
        // COMMITTED) and left out by the claim's condition.
        macro_rules! claim {
            ($cond:literal) => {
                concat!(
                    "UPDATE clock_events SET claim_until = $3
                     WHERE id IN (
                         SELECT id FROM clock_events
                         WHERE done_at IS NOT NULL AND posted_at IS NULL AND ",
                    $cond,
                    " AND (claim_until IS NULL OR claim_until <= $2)
                         ORDER BY done_at LIMIT $4 FOR UPDATE SKIP LOCKED)
                     RETURNING id, game_id, seq, kind, channel_id, due_at"
                )
            };
        }
        let sql = match scope {
            EventScope::All => claim!("$1::BIGINT IS NOT NULL"),
            EventScope::Only(_) => claim!("channel_id = $1"),
            EventScope::Except(_) => claim!("channel_id <> $1"),
        };
        let mut claimed = self.events(sql, &[&ch, &now, &until, &limit])?;
        claimed.sort_by_key(|e| e.id);
        Ok(claimed)
    }

    fn mark_posted(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE clock_events SET posted_at = $2 WHERE id = $1 AND posted_at IS NULL",
            &[&id, &now],
        )?;
        Ok(())
    }

    fn retry_post(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE clock_events SET claim_until = $2 WHERE id = $1 AND posted_at IS NULL",
            &[&id, &at],
        )?;
        Ok(())
    }

    fn next_post_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND $1::BIGINT IS NOT NULL"
            }
            EventScope::Only(_) => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND channel_id = $1"
            }
            EventScope::Except(_) => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND channel_id <> $1"
            }
        };
        Ok(self.query_one(sql, &[&scope_channel(scope)])?.try_get(0)?)
    }

    fn release_post_claims(&self, scope: EventScope) -> Result<usize, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND $1::BIGINT IS NOT NULL"
            }
            EventScope::Only(_) => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND channel_id = $1"
            }
            EventScope::Except(_) => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND channel_id <> $1"
            }
        };
        Ok(self.execute(sql, &[&scope_channel(scope)])? as usize)
    }

    fn adopt_unclocked_games(
        &self,
        now: i64,
        abandon_ms: i64,
    ) -> Result<Vec<(i64, u64, i64, u32)>, StoreError> {
        self.query(
            "UPDATE games SET clock_at = $1::BIGINT, deadline = $1::BIGINT + $2::BIGINT
             WHERE status = 'active' AND clock_at IS NULL
             RETURNING id, channel_id, seq, ply",
            &[&now, &abandon_ms],
        )?
        .iter()
        .map(|r| {
            let ply: i32 = r.try_get(3)?;
            Ok((
                r.try_get(0)?,
                from_db(r.try_get(1)?),
                r.try_get(2)?,
                u32::try_from(ply).unwrap_or(0),
            ))
        })
        .collect()
    }
}
