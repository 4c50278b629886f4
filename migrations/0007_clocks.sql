-- 0007: time controls, the server's clock, and the scheduler's events.
--
-- A time control is stored as its kind and two numbers: the base (days per move or the live
-- starting time) and the live increment, in ms. Games that exist when this ships become
-- untimed; the service gives them their abandonment period from the upgrade (clock_at NULL
-- means "not adopted yet").
ALTER TABLE challenges ADD COLUMN tc_kind TEXT NOT NULL DEFAULT 'untimed'
    CHECK (tc_kind IN ('untimed', 'correspondence', 'live'));
ALTER TABLE challenges ADD COLUMN tc_base_ms INTEGER NOT NULL DEFAULT 0 CHECK (tc_base_ms >= 0);
ALTER TABLE challenges ADD COLUMN tc_inc_ms INTEGER NOT NULL DEFAULT 0 CHECK (tc_inc_ms >= 0);

ALTER TABLE games ADD COLUMN tc_kind TEXT NOT NULL DEFAULT 'untimed'
    CHECK (tc_kind IN ('untimed', 'correspondence', 'live'));
ALTER TABLE games ADD COLUMN tc_base_ms INTEGER NOT NULL DEFAULT 0 CHECK (tc_base_ms >= 0);
ALTER TABLE games ADD COLUMN tc_inc_ms INTEGER NOT NULL DEFAULT 0 CHECK (tc_inc_ms >= 0);
-- Both remaining times as of clock_at (when the current turn began), and the deadline of the
-- player to move (timed games), or when the waiting player may claim the game (untimed).
ALTER TABLE games ADD COLUMN white_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_at INTEGER;
ALTER TABLE games ADD COLUMN deadline INTEGER;
-- Grows on every move and takeback: an event of an older seq is stale.
ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0);

-- The scheduler's events: a timeout, a correspondence reminder, or an untimed game's
-- reminder before the opponent may claim it. Each game has at most one pending event (not
-- done); a move or takeback replaces it. An event is claimed and marked done in one
-- transaction with what it does to the game; its post goes out after that with the nonce
-- 'cj' + id in base 36, and only then is it marked posted.
CREATE TABLE clock_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('timeout', 'reminder', 'idle_reminder')),
    channel_id  INTEGER NOT NULL,
    due_at      INTEGER NOT NULL,
    done_at     INTEGER,
    posted_at   INTEGER,
    UNIQUE (game_id, seq, kind)
);
CREATE UNIQUE INDEX clock_events_one_pending_per_game ON clock_events (game_id)
    WHERE done_at IS NULL;
-- The next event due: one index walk (O(log n)), for every channel or all but one ...
CREATE INDEX clock_events_due ON clock_events (due_at) WHERE done_at IS NULL;
-- ... or for one channel (`cajitas local` and its channel `local`).
CREATE INDEX clock_events_due_by_channel ON clock_events (channel_id, due_at)
    WHERE done_at IS NULL;
-- Done but not posted yet (a restart posts them again, with the same nonce).
CREATE INDEX clock_events_to_post ON clock_events (done_at)
    WHERE done_at IS NOT NULL AND posted_at IS NULL;
