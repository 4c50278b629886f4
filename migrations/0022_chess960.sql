-- 0022: Chess960 (issue 31). A challenge and its game name their start position by
-- Scharnagl's number (0-959, 518 being the standard position): NULL is standard chess. A
-- Chess960 game reads its `start_fen` in Chess960 mode (castling by the 960 rule, UCI
-- castling stored as the king taking its own rook), and its ratings go to the pool's
-- `chess960` speed, one rating for all clocks as lichess has.
ALTER TABLE challenges ADD COLUMN chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959);
ALTER TABLE games ADD COLUMN chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959);

-- The `chess960` speed: SQLite cannot change a CHECK, so `ratings` and `rating_history` are
-- rebuilt with the wider one (the documented way: a new table, the rows copied, the old one
-- dropped, the new one renamed), then their indexes and the triggers of 0018 made again.
-- `leaderboard_cells` is left as it is: the copied rows are the same ratings.
CREATE TABLE ratings_0022 (
    pool        INTEGER NOT NULL,
    speed       TEXT    NOT NULL CHECK (speed IN ('live', 'correspondence', 'chess960')),
    user_id     INTEGER NOT NULL REFERENCES users (id),
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL CHECK (deviation >= 0),
    volatility  REAL    NOT NULL CHECK (volatility >= 0),
    games       INTEGER NOT NULL CHECK (games >= 0),
    rated_at    INTEGER NOT NULL,
    steady_until INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (pool, speed, user_id)
) WITHOUT ROWID;
INSERT INTO ratings_0022 (pool, speed, user_id, rating, deviation, volatility, games, rated_at,
    steady_until)
SELECT pool, speed, user_id, rating, deviation, volatility, games, rated_at, steady_until
FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_0022 RENAME TO ratings;
CREATE INDEX ratings_leaderboard
    ON ratings (pool, speed, rating DESC, user_id, games, deviation, steady_until)
    WHERE games >= 5 AND deviation < 110;
CREATE INDEX ratings_steady ON ratings (pool, speed, steady_until, rating, games, deviation)
    WHERE games >= 5 AND deviation < 110;

CREATE TRIGGER leaderboard_cells_insert AFTER INSERT ON ratings
WHEN NEW.games >= 5 AND NEW.deviation < 110
BEGIN
    INSERT INTO leaderboard_cells (pool, speed, epoch, band, n)
    VALUES (NEW.pool, NEW.speed, NEW.steady_until / 604800000,
        CAST(NEW.rating / 50.0 AS INTEGER), 1)
    ON CONFLICT (pool, speed, epoch, band) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER leaderboard_cells_delete AFTER DELETE ON ratings
WHEN OLD.games >= 5 AND OLD.deviation < 110
BEGIN
    DELETE FROM leaderboard_cells
    WHERE pool = OLD.pool AND speed = OLD.speed AND epoch = OLD.steady_until / 604800000
        AND band = CAST(OLD.rating / 50.0 AS INTEGER) AND n = 1;
    UPDATE leaderboard_cells SET n = n - 1
    WHERE pool = OLD.pool AND speed = OLD.speed AND epoch = OLD.steady_until / 604800000
        AND band = CAST(OLD.rating / 50.0 AS INTEGER);
END;

CREATE TRIGGER leaderboard_cells_update_old AFTER UPDATE ON ratings
WHEN OLD.games >= 5 AND OLD.deviation < 110
BEGIN
    DELETE FROM leaderboard_cells
    WHERE pool = OLD.pool AND speed = OLD.speed AND epoch = OLD.steady_until / 604800000
        AND band = CAST(OLD.rating / 50.0 AS INTEGER) AND n = 1;
    UPDATE leaderboard_cells SET n = n - 1
    WHERE pool = OLD.pool AND speed = OLD.speed AND epoch = OLD.steady_until / 604800000
        AND band = CAST(OLD.rating / 50.0 AS INTEGER);
END;

CREATE TRIGGER leaderboard_cells_update_new AFTER UPDATE ON ratings
WHEN NEW.games >= 5 AND NEW.deviation < 110
BEGIN
    INSERT INTO leaderboard_cells (pool, speed, epoch, band, n)
    VALUES (NEW.pool, NEW.speed, NEW.steady_until / 604800000,
        CAST(NEW.rating / 50.0 AS INTEGER), 1)
    ON CONFLICT (pool, speed, epoch, band) DO UPDATE SET n = n + 1;
END;

CREATE TABLE rating_history_0022 (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id           INTEGER NOT NULL REFERENCES games (id),
    pool              INTEGER NOT NULL,
    speed             TEXT    NOT NULL CHECK (speed IN ('live', 'correspondence', 'chess960')),
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
INSERT INTO rating_history_0022 (id, game_id, pool, speed, user_id, colour, score,
    rating_before, deviation_before, rating_after, deviation_after, volatility_after, at)
SELECT id, game_id, pool, speed, user_id, colour, score, rating_before, deviation_before,
    rating_after, deviation_after, volatility_after, at
FROM rating_history;
DROP TABLE rating_history;
ALTER TABLE rating_history_0022 RENAME TO rating_history;
CREATE INDEX rating_history_by_player ON rating_history (pool, user_id, speed, at);
CREATE INDEX rating_history_by_pool ON rating_history (pool, speed);
