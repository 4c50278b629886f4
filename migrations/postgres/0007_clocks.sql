-- 0007 (PostgreSQL): time controls, the server's clock, and the scheduler's events (see
-- ../0007_clocks.sql). Several processes share the events: each claims due events with
-- `FOR UPDATE SKIP LOCKED`, and a new deadline is announced on channel `cajitas_deadline`.
ALTER TABLE challenges ADD COLUMN tc_kind TEXT NOT NULL DEFAULT 'untimed'
    CHECK (tc_kind IN ('untimed', 'correspondence', 'live'));
ALTER TABLE challenges ADD COLUMN tc_base_ms BIGINT NOT NULL DEFAULT 0 CHECK (tc_base_ms >= 0);
ALTER TABLE challenges ADD COLUMN tc_inc_ms BIGINT NOT NULL DEFAULT 0 CHECK (tc_inc_ms >= 0);

ALTER TABLE games ADD COLUMN tc_kind TEXT NOT NULL DEFAULT 'untimed'
    CHECK (tc_kind IN ('untimed', 'correspondence', 'live'));
ALTER TABLE games ADD COLUMN tc_base_ms BIGINT NOT NULL DEFAULT 0 CHECK (tc_base_ms >= 0);
ALTER TABLE games ADD COLUMN tc_inc_ms BIGINT NOT NULL DEFAULT 0 CHECK (tc_inc_ms >= 0);
-- Both remaining times as of clock_at (when the current turn began), and the deadline of the
-- player to move (timed games), or when the waiting player may claim the game (untimed).
ALTER TABLE games ADD COLUMN white_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_at BIGINT;
ALTER TABLE games ADD COLUMN deadline BIGINT;
-- Grows on every move and takeback: an event of an older seq is stale.
ALTER TABLE games ADD COLUMN seq BIGINT NOT NULL DEFAULT 0 CHECK (seq >= 0);

-- The scheduler's events: at most one pending (not done) per game; done, then posted.
CREATE TABLE clock_events (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    seq         BIGINT  NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('timeout', 'reminder', 'idle_reminder')),
    channel_id  BIGINT  NOT NULL,
    due_at      BIGINT  NOT NULL,
    done_at     BIGINT,
    posted_at   BIGINT,
    UNIQUE (game_id, seq, kind)
);
CREATE UNIQUE INDEX clock_events_one_pending_per_game ON clock_events (game_id)
    WHERE done_at IS NULL;
CREATE INDEX clock_events_due ON clock_events (due_at) WHERE done_at IS NULL;
CREATE INDEX clock_events_due_by_channel ON clock_events (channel_id, due_at)
    WHERE done_at IS NULL;
CREATE INDEX clock_events_to_post ON clock_events (done_at)
    WHERE done_at IS NOT NULL AND posted_at IS NULL;
