-- 0008 (PostgreSQL): Glicko-2 ratings per pool (server, else channel) and speed (see
-- ../0008_ratings.sql). Games from before are casual (unrated).
ALTER TABLE challenges ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE ratings (
    pool        BIGINT           NOT NULL,
    speed       TEXT             NOT NULL CHECK (speed IN ('live', 'correspondence')),
    user_id     BIGINT           NOT NULL REFERENCES users (id),
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL CHECK (deviation >= 0),
    volatility  DOUBLE PRECISION NOT NULL CHECK (volatility >= 0),
    games       INTEGER          NOT NULL CHECK (games >= 0),
    rated_at    BIGINT           NOT NULL,
    PRIMARY KEY (pool, speed, user_id)
);
-- The leaderboard (players with at least 5 rated games and a stored RD below 110), covering
-- the rank counts.
CREATE INDEX ratings_leaderboard ON ratings (pool, speed, rating DESC, user_id)
    INCLUDE (games, deviation)
    WHERE games >= 5 AND deviation < 110;

-- Every change, one row per player and rated game.
CREATE TABLE rating_history (
    id                BIGINT           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id           BIGINT           NOT NULL REFERENCES games (id),
    pool              BIGINT           NOT NULL,
    speed             TEXT             NOT NULL CHECK (speed IN ('live', 'correspondence')),
    user_id           BIGINT           NOT NULL REFERENCES users (id),
    colour            TEXT             NOT NULL CHECK (colour IN ('white', 'black')),
    score             DOUBLE PRECISION NOT NULL CHECK (score IN (0, 0.5, 1)),
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    at                BIGINT           NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_by_player ON rating_history (pool, user_id, speed, at);
CREATE INDEX rating_history_by_pool ON rating_history (pool, speed);
