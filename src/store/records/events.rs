//! The scheduler's events (migrations 0007, 0010 and 0011): a game's pending event is two
//! columns of its row (`event_kind`, `event_due`, indexed on the due time); `clock_events`
//! holds the events recorded done, until and after they are posted. Where several processes
//! share the database (PostgreSQL), a scheduler picks due ones with `FOR UPDATE SKIP LOCKED`
//! and claims each with a conditional update, so two processes never claim one event; a new
//! deadline is announced with `NOTIFY cajitas_deadline` (sent at commit, the topic of
//! `Coordination::listen_deadlines`); the posts of done events are claimed the same way, with
//! a lease that lapses if the claimant dies (`claim_until`).

use crate::store::sql::{Backend, BackendExt, Columns, Dialect, to_db};
use crate::store::{
    EventKind, EventRow, EventScope, LOCAL_CHANNEL_ID, StoreError, local_channel_sql,
};

/// A game's pending event, read in [`event_row`]'s order (no id yet: 0).
macro_rules! select_pending {
    () => {
        "SELECT CAST(0 AS BIGINT), id, seq, event_kind, channel_id, event_due FROM games"
    };
}

/// The console's next event: one walk down its own partial index (migration 0012), named:
/// without statistics SQLite would rather walk `games_by_channel`, every game the console
/// ever played, and sort them. (PostgreSQL's planner sees the index from the literal.)
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

fn event_row(c: &mut Columns<'_>) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        id: c.i64()?,
        game_id: c.i64()?,
        seq: c.i64()?,
        kind: c.code()?,
        channel: c.id()?,
        due_at: c.i64()?,
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

/// The scheduler's events (migrations 0007 and 0010): timeouts and reminders. A game's one
/// pending event is part of its row (set in the transaction of the move that schedules it);
/// an event is claimed, recorded done and acted on in one transaction, then posted, then
/// marked posted.
pub trait ClockEvents {
    /// Sets the game's pending event, replacing the one it had. `seq` is the game's current
    /// `seq` (the pending event always belongs to the game as it stands).
    fn schedule_event(
        &self,
        game_id: i64,
        channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
    ) -> Result<(), StoreError>;

    /// Drops the game's pending event, if it has one (an untimed game taken back to before
    /// both sides moved has none). `seq` is the game's current `seq`.
    fn clear_event(&self, game_id: i64, seq: i64) -> Result<(), StoreError>;

    /// When the earliest pending event of `scope` falls due (one index walk).
    fn next_event_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError>;

    /// The pending events of `scope` due at `now`, earliest first, at most `limit`. A pending
    /// event has no id yet (`id` is 0): it gets one when it is recorded done.
    fn due_events(
        &self,
        scope: EventScope,
        now: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// Takes `ev` (from [`due_events`](Self::due_events)) off its game when it is still the
    /// game's pending event (same `seq`, kind and due time). Returns false when it is not
    /// (the game moved on or ended, or another scheduler claimed it).
    fn claim_event(&self, ev: &EventRow) -> Result<bool, StoreError>;

    /// Records an event done at `now`, to be posted, and returns its id (the post's nonce).
    fn record_event(
        &self,
        game_id: i64,
        channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
        now: i64,
    ) -> Result<i64, StoreError>;

    /// Claims the events of `scope` done but not posted yet whose post nobody holds at `now`
    /// (never claimed, or the claim lapsed), oldest first, at most `limit`: each is held by
    /// the caller until `until` (Unix ms), so another process's scheduler skips it while it
    /// is posted. The caller commits, posts, then calls [`ClockEvents::mark_posted`] (or
    /// [`ClockEvents::retry_post`]); if it dies first, the claim lapses and the next claimant
    /// posts the event, with the same nonce. PostgreSQL also skips the rows another
    /// transaction is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one process per file.
    fn claim_posts(
        &self,
        scope: EventScope,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// Marks a done event posted.
    fn mark_posted(&self, id: i64, now: i64) -> Result<(), StoreError>;

    /// A claimed event's post failed: it may be claimed again (by any process) from `at`.
    fn retry_post(&self, id: i64, at: i64) -> Result<(), StoreError>;

    /// When the earliest done, unposted event of `scope` may be claimed (now or in the past
    /// for one nobody holds; else when its claim lapses), to wake a scheduler for the posts
    /// a dead process left.
    fn next_post_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError>;

    /// Frees every claim on the done, unposted events of `scope`, so they may be posted at
    /// once. Only for a process that owns the database (no other process can hold a claim):
    /// at start, the claims a killed predecessor left need not wait for their lease.
    /// Returns how many were freed.
    fn release_post_claims(&self, scope: EventScope) -> Result<usize, StoreError>;

    /// Gives the active games from before clocks (no `clock_at`) their clock: their turn
    /// begins at `now` and their deadline is `now + abandon_ms`. Returns `(game, channel,
    /// seq, ply)` of each.
    fn adopt_unclocked_games(
        &self,
        now: i64,
        abandon_ms: i64,
    ) -> Result<Vec<(i64, u64, i64, u32)>, StoreError>;
}

impl<B: Backend + ?Sized> ClockEvents for B {
    fn schedule_event(
        &self,
        game_id: i64,
        _channel: u64,
        seq: i64,
        kind: EventKind,
        due_at: i64,
    ) -> Result<(), StoreError> {
        // The games row the operation already wrote (migration 0010): no other table, and of
        // its indexes only the two on the due time change. With PostgreSQL, the notification
        // in the same round trip, for the row updated: it is delivered when (and only if) the
        // transaction commits, and every process's scheduler looks again at its next event.
        let n = self.exec(
            self.pick(
                "UPDATE games SET event_kind = ?3, event_due = ?4
                 WHERE id = ?1 AND seq = ?2 AND status = 'active'",
                "UPDATE games SET event_kind = ?3, event_due = ?4
                 WHERE id = ?1 AND seq = ?2 AND status = 'active'
                 RETURNING pg_notify('cajitas_deadline', ?4::BIGINT::TEXT)",
            ),
            &[&game_id, &seq, &kind, &due_at],
        )?;
        if n != 1 {
            return Err(StoreError::Backend(format!(
                "game {game_id}: no active game at seq {seq} to schedule an event for"
            )));
        }
        Ok(())
    }

    fn clear_event(&self, game_id: i64, seq: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE games SET event_kind = NULL, event_due = NULL
             WHERE id = ?1 AND seq = ?2 AND event_kind IS NOT NULL",
            &[&game_id, &seq],
        )?;
        Ok(())
    }

    fn next_event_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT event_due FROM games
                 WHERE event_due IS NOT NULL AND CAST(?1 AS BIGINT) IS NOT NULL
                 ORDER BY event_due LIMIT 1"
            }
            // The console's channel: its own partial index (migration 0012).
            EventScope::Only(LOCAL_CHANNEL_ID) => self.pick(
                LOCAL_NEXT_DUE,
                concat!(
                    "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id = ",
                    local_channel_sql!(),
                    " AND CAST(?1 AS BIGINT) IS NOT NULL ORDER BY event_due LIMIT 1"
                ),
            ),
            EventScope::Only(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id = ?1
                 ORDER BY event_due LIMIT 1"
            }
            EventScope::Except(_) => {
                "SELECT event_due FROM games WHERE event_due IS NOT NULL AND channel_id <> ?1
                 ORDER BY event_due LIMIT 1"
            }
        };
        self.row(sql, &[&scope_channel(scope)], |c| c.i64())
    }

    fn due_events(
        &self,
        scope: EventScope,
        now: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        let ch = scope_channel(scope);
        if self.dialect() == Dialect::Sqlite {
            // One writer at a time (`BEGIN IMMEDIATE`): nothing to skip.
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
            return self.rows(sql, &[&ch, &now, &limit], event_row);
        }
        // Games whose event another process is claiming are skipped, not waited for.
        if !self.locks_channels() {
            return Err(StoreError::Backend(
                "due events are claimed in a write transaction".into(),
            ));
        }
        let sql = match scope {
            EventScope::All => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND CAST(?1 AS BIGINT) IS NOT NULL AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3 FOR UPDATE SKIP LOCKED"
            ),
            EventScope::Only(LOCAL_CHANNEL_ID) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id = ",
                local_channel_sql!(),
                " AND CAST(?1 AS BIGINT) IS NOT NULL AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3 FOR UPDATE SKIP LOCKED"
            ),
            EventScope::Only(_) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id = ?1 AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3 FOR UPDATE SKIP LOCKED"
            ),
            EventScope::Except(_) => concat!(
                select_pending!(),
                " WHERE event_due IS NOT NULL AND channel_id <> ?1 AND event_due <= ?2
                 ORDER BY event_due LIMIT ?3 FOR UPDATE SKIP LOCKED"
            ),
        };
        let claimed = self.rows(sql, &[&ch, &now, &limit], event_row)?;
        // The scheduler then works on each event's game under its channel's lock. A channel
        // whose lock another transaction holds (a move there, which may be rescheduling this
        // very event) is left for the next round: waiting for it while holding the game's
        // row lock, which that move waits for, would be a deadlock.
        let mut mine = Vec::with_capacity(claimed.len());
        for ev in claimed {
            if self.try_lock_channel(to_db(ev.channel))? {
                mine.push(ev);
            }
        }
        Ok(mine)
    }

    fn claim_event(&self, ev: &EventRow) -> Result<bool, StoreError> {
        let n = self.exec(
            "UPDATE games SET event_kind = NULL, event_due = NULL
             WHERE id = ?1 AND seq = ?2 AND event_kind = ?3 AND event_due = ?4",
            &[&ev.game_id, &ev.seq, &ev.kind, &ev.due_at],
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
        self.one(
            "INSERT INTO clock_events (game_id, seq, kind, channel_id, due_at, done_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             RETURNING id",
            &[&game_id, &seq, &kind, &to_db(channel), &due_at, &now],
            |c| c.i64(),
        )
    }

    fn claim_posts(
        &self,
        scope: EventScope,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<EventRow>, StoreError> {
        // With SQLite (one process per file, in a `BEGIN IMMEDIATE` transaction) the claim
        // only keeps the shape PostgreSQL needs: a lapsed claim is a post a crash left. With
        // PostgreSQL the rows another transaction is claiming are skipped, not waited for; a
        // row whose claim another process committed meanwhile is read again by the UPDATE
        // (READ COMMITTED) and left out by the claim's condition.
        macro_rules! claim {
            ($cond:literal, $lock:literal) => {
                concat!(
                    "UPDATE clock_events SET claim_until = ?3
                     WHERE id IN (
                         SELECT id FROM clock_events
                         WHERE done_at IS NOT NULL AND posted_at IS NULL AND ",
                    $cond,
                    " AND (claim_until IS NULL OR claim_until <= ?2)
                         ORDER BY done_at LIMIT ?4",
                    $lock,
                    ")
                     RETURNING id, game_id, seq, kind, channel_id, due_at"
                )
            };
        }
        let sql = match (scope, self.dialect()) {
            (EventScope::All, Dialect::Sqlite) => claim!("?1 IS NOT NULL", ""),
            (EventScope::Only(_), Dialect::Sqlite) => claim!("channel_id = ?1", ""),
            (EventScope::Except(_), Dialect::Sqlite) => claim!("channel_id <> ?1", ""),
            (EventScope::All, Dialect::Postgres) => {
                claim!("CAST(?1 AS BIGINT) IS NOT NULL", " FOR UPDATE SKIP LOCKED")
            }
            (EventScope::Only(_), Dialect::Postgres) => {
                claim!("channel_id = ?1", " FOR UPDATE SKIP LOCKED")
            }
            (EventScope::Except(_), Dialect::Postgres) => {
                claim!("channel_id <> ?1", " FOR UPDATE SKIP LOCKED")
            }
        };
        let mut claimed = self.rows(
            sql,
            &[&scope_channel(scope), &now, &until, &limit],
            event_row,
        )?;
        claimed.sort_by_key(|e| e.id);
        Ok(claimed)
    }

    fn mark_posted(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE clock_events SET posted_at = ?2 WHERE id = ?1 AND posted_at IS NULL",
            &[&id, &now],
        )?;
        Ok(())
    }

    fn retry_post(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.exec(
            "UPDATE clock_events SET claim_until = ?2 WHERE id = ?1 AND posted_at IS NULL",
            &[&id, &at],
        )?;
        Ok(())
    }

    fn next_post_due(&self, scope: EventScope) -> Result<Option<i64>, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "SELECT min(coalesce(claim_until, done_at)) FROM clock_events
                 WHERE done_at IS NOT NULL AND posted_at IS NULL
                   AND CAST(?1 AS BIGINT) IS NOT NULL"
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
        self.one(sql, &[&scope_channel(scope)], |c| c.opt_i64())
    }

    fn release_post_claims(&self, scope: EventScope) -> Result<usize, StoreError> {
        let sql = match scope {
            EventScope::All => {
                "UPDATE clock_events SET claim_until = NULL
                 WHERE done_at IS NOT NULL AND posted_at IS NULL AND claim_until IS NOT NULL
                   AND CAST(?1 AS BIGINT) IS NOT NULL"
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
        let n = self.exec(sql, &[&scope_channel(scope)])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn adopt_unclocked_games(
        &self,
        now: i64,
        abandon_ms: i64,
    ) -> Result<Vec<(i64, u64, i64, u32)>, StoreError> {
        self.rows(
            "UPDATE games SET clock_at = CAST(?1 AS BIGINT),
                 deadline = CAST(?1 AS BIGINT) + CAST(?2 AS BIGINT)
             WHERE status = 'active' AND clock_at IS NULL
             RETURNING id, channel_id, seq, ply",
            &[&now, &abandon_ms],
            |c| Ok((c.i64()?, c.id()?, c.i64()?, c.u32()?)),
        )
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
            let plan = store.query_plan(sql, n).unwrap();
            assert_eq!(plan.len(), 1, "{plan:?}");
            assert!(
                plan[0].starts_with("SEARCH games USING ")
                    && plan[0].contains("INDEX games_event_due_local (event_due"),
                "{plan:?}"
            );
        }
    }
}
