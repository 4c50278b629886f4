-- 0010: a game's pending event (its next timeout or reminder) lives in its own row.
--
-- Until now it was a row of clock_events, moved on every move: one more table row and three
-- index entries (the UNIQUE (game_id, seq, kind) and both due-time indexes) written beside the
-- games row each move already writes. Now a move sets two more columns of the games row it
-- writes anyway, and only the two due-time indexes below change. clock_events keeps the events the scheduler (or a late move)
-- claimed: a row is inserted, done, when its event is claimed, and keeps its id for the
-- post's nonce and its posted_at; its seq is the game's seq at the time.
ALTER TABLE games ADD COLUMN event_kind TEXT
    CHECK (event_kind IN ('timeout', 'reminder', 'idle_reminder'));
-- When the pending event falls due (Unix ms); NULL with event_kind NULL when the game has none
-- (untimed engine games, finished games).
ALTER TABLE games ADD COLUMN event_due INTEGER;

-- The pending events of active games move into their games; a stale one (of an older seq) would
-- have been done as a no-op, and finished games have none.
UPDATE games SET
    event_kind = (SELECT e.kind FROM clock_events e
                  WHERE e.game_id = games.id AND e.done_at IS NULL AND e.seq = games.seq),
    event_due = (SELECT e.due_at FROM clock_events e
                 WHERE e.game_id = games.id AND e.done_at IS NULL AND e.seq = games.seq)
WHERE status = 'active';
DELETE FROM clock_events WHERE done_at IS NULL;
DROP INDEX clock_events_one_pending_per_game;
DROP INDEX clock_events_due;
DROP INDEX clock_events_due_by_channel;

-- The next event due: one index walk (O(log n)), for every channel or all but one ...
CREATE INDEX games_event_due ON games (event_due) WHERE event_due IS NOT NULL;
-- ... or for one channel (`cajitas local` and its channel `local`).
CREATE INDEX games_event_due_by_channel ON games (channel_id, event_due)
    WHERE event_due IS NOT NULL;
