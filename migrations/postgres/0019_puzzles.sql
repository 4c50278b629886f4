-- 0019: puzzles (issue 30). One row of `puzzle_attempts` per attempt at a puzzle of the shipped
-- set (`puzzle_id`, lichess's id): who, in which pool (the server, else the channel, as the
-- game ratings) and place (the channel or thread it is played in), how many moves of the
-- puzzle's line are on the board (`ply`, checked by every answer's UPDATE as a game's ply is),
-- whether a hint was given, whether it counts for the rating (decided at its start: the first
-- attempt of that puzzle in the pool), and how it ended. A rated attempt keeps its rating
-- change. One attempt is played at a time per person and place.
CREATE TABLE puzzle_attempts (
    id                BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    pool              BIGINT  NOT NULL,
    channel_id        BIGINT  NOT NULL,
    user_id           BIGINT  NOT NULL REFERENCES users (id),
    puzzle_id         TEXT    NOT NULL,
    ply               INTEGER NOT NULL CHECK (ply >= 1),
    hinted            BOOLEAN NOT NULL,
    rated             BOOLEAN NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('playing', 'solved', 'failed', 'abandoned')),
    started_at        BIGINT  NOT NULL,
    finished_at       BIGINT,
    rating_before     DOUBLE PRECISION,
    deviation_before  DOUBLE PRECISION,
    rating_after      DOUBLE PRECISION,
    deviation_after   DOUBLE PRECISION
);
CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (channel_id, user_id)
    WHERE status = 'playing';
CREATE INDEX puzzle_attempts_seen ON puzzle_attempts (pool, user_id, puzzle_id);

-- A puzzle rating per person per pool: Glicko-2 with the games' parameters, apart from the
-- game pools.
CREATE TABLE puzzle_ratings (
    pool        BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL REFERENCES users (id),
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL CHECK (deviation >= 0),
    volatility  DOUBLE PRECISION NOT NULL CHECK (volatility >= 0),
    attempts    INTEGER NOT NULL CHECK (attempts >= 0),
    rated_at    BIGINT  NOT NULL,
    PRIMARY KEY (pool, user_id)
);
