-- 0021: the daily puzzle (issue 30). A server that asks for one names a channel and an hour
-- (UTC); each day at that hour one puzzle is posted there. `daily_puzzles` holds a row per
-- server and day (days since 1970-01-01, UTC), inserted by the one process that claims the
-- day's post: the primary key makes the post once across restarts and processes. A claim
-- lasts until `claimed_until`; a post not marked done by then (a crash, a failed request) is
-- claimed again and posted with the same nonce. `solved` and `failed` count each person's
-- first attempt at it. An attempt at a daily puzzle carries its day.
CREATE TABLE daily_puzzle_settings (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    hour        INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    updated_at  INTEGER NOT NULL
);

CREATE TABLE daily_puzzles (
    guild_id       INTEGER NOT NULL,
    day            INTEGER NOT NULL,
    puzzle_id      TEXT    NOT NULL,
    channel_id     INTEGER NOT NULL,
    claimed_until  INTEGER NOT NULL,
    message_id     INTEGER,
    solved         INTEGER NOT NULL CHECK (solved >= 0),
    failed         INTEGER NOT NULL CHECK (failed >= 0),
    PRIMARY KEY (guild_id, day)
);

ALTER TABLE puzzle_attempts ADD COLUMN daily_day INTEGER;
