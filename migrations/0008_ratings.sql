-- 0008: Glicko-2 ratings (issue 17), one pool per server (guild; outside a server, per
-- channel: the console's `local` channel is a pool of its own) and per speed.
--
-- Whether a challenge, and the game it starts, counts for the ratings. Games played before
-- this migration were casual games: they stay unrated (0); new rows say so explicitly.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- Each player's current rating in a pool and speed. `deviation` is the stored RD (as of
-- `rated_at`, the end of their last rated game); inactivity widens it when it is used or shown.
CREATE TABLE ratings (
    pool        INTEGER NOT NULL,
    speed       TEXT    NOT NULL CHECK (speed IN ('live', 'correspondence')),
    user_id     INTEGER NOT NULL REFERENCES users (id),
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL CHECK (deviation >= 0),
    volatility  REAL    NOT NULL CHECK (volatility >= 0),
    games       INTEGER NOT NULL CHECK (games >= 0),
    rated_at    INTEGER NOT NULL,
    PRIMARY KEY (pool, speed, user_id)
) WITHOUT ROWID;
-- The leaderboard: players with at least 5 rated games and a stored RD below 110, best first;
-- a player's rank is a count over this index. `games` and `deviation` ride along so that the
-- counts never read the table (a covering index).
CREATE INDEX ratings_leaderboard ON ratings (pool, speed, rating DESC, user_id, games, deviation)
    WHERE games >= 5 AND deviation < 110;

-- Every change, one row per player and rated game: before and after, with the RD (before:
-- widened by inactivity, as used) and the volatility after. One row per (game, player): a
-- result is counted once.
CREATE TABLE rating_history (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id           INTEGER NOT NULL REFERENCES games (id),
    pool              INTEGER NOT NULL,
    speed             TEXT    NOT NULL CHECK (speed IN ('live', 'correspondence')),
    user_id           INTEGER NOT NULL REFERENCES users (id),
    colour            TEXT    NOT NULL CHECK (colour IN ('white', 'black')),
    score             REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),
    rating_before     REAL    NOT NULL,
    deviation_before  REAL    NOT NULL,
    rating_after      REAL    NOT NULL,
    deviation_after   REAL    NOT NULL,
    volatility_after  REAL    NOT NULL,
    at                INTEGER NOT NULL,
    UNIQUE (game_id, user_id)
);
-- A player's history in a pool and speed (stats, the chart).
CREATE INDEX rating_history_by_player ON rating_history (pool, user_id, speed, at);
-- The latest change of a pool and speed (the leaderboard's version, for stale buttons).
CREATE INDEX rating_history_by_pool ON rating_history (pool, speed);
