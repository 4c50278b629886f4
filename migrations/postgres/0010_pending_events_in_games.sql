-- 0010 (PostgreSQL): a game's pending event lives in its own row (see
-- ../0010_pending_events_in_games.sql): a move sets two more columns of the games row it writes
-- anyway; clock_events keeps the claimed events (inserted done, with their id for the nonce).
ALTER TABLE games ADD COLUMN event_kind TEXT
    CHECK (event_kind IN ('timeout', 'reminder', 'idle_reminder'));
-- When the pending event falls due (Unix ms); NULL with event_kind NULL when the game has none
-- (untimed engine games, finished games).
ALTER TABLE games ADD COLUMN event_due BIGINT;

-- The pending events of active games move into their games; a stale one (of an older seq) would
-- have been done as a no-op, and finished games have none.
UPDATE games g SET event_kind = e.kind, event_due = e.due_at
FROM clock_events e
WHERE e.game_id = g.id AND e.done_at IS NULL AND e.seq = g.seq AND g.status = 'active';
DELETE FROM clock_events WHERE done_at IS NULL;
DROP INDEX clock_events_one_pending_per_game;
DROP INDEX clock_events_due;
DROP INDEX clock_events_due_by_channel;

-- The next event due: one index walk (O(log n)), for every channel or all but one ...
CREATE INDEX games_event_due ON games (event_due) WHERE event_due IS NOT NULL;
-- ... or for one channel (`cajitas local` and its channel `local`).
CREATE INDEX games_event_due_by_channel ON games (channel_id, event_due)
    WHERE event_due IS NOT NULL;
