-- 0020: Puzzle Streak (issue 30). A run is a person's climb of a ladder of puzzles drawn at
-- its start (`ladder`: the puzzles' ids, space-separated, in the order served), played in one
-- place, unrated, without hints, until the first mistake. `solved` counts the puzzles solved
-- so far; a run ends on a failure, a give-up, another puzzle started in its place, or the
-- ladder's top. Each of its puzzles is an attempt (`puzzle_attempts.run_id`).
CREATE TABLE puzzle_runs (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    pool        BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL REFERENCES users (id),
    ladder      TEXT    NOT NULL CHECK (length(ladder) <= 4000),
    solved      INTEGER NOT NULL CHECK (solved >= 0),
    status      TEXT    NOT NULL CHECK (status IN ('playing', 'ended')),
    started_at  BIGINT  NOT NULL,
    finished_at BIGINT
);
-- The best run per person and pool, for the streak leaderboard and the stats.
CREATE INDEX puzzle_runs_best ON puzzle_runs (pool, solved, user_id);

ALTER TABLE puzzle_attempts ADD COLUMN run_id BIGINT REFERENCES puzzle_runs (id);
