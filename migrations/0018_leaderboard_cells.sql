-- 0018: the leaderboard counts without stepping over every ranked player (issue 25). A rank
-- (how many ranked players stand above a rating at `now`) and the ranked count were
-- COUNTs over `ratings_leaderboard`, one index entry per player: 6.5 ms of CPU for the last
-- of 100,000. `leaderboard_cells` keeps how many players of the partial index (at least 5
-- rated games and a stored RD below 110) fall in each cell of (epoch, band):
--   band  = CAST(rating / 50.0 AS INTEGER)   (truncated: 1500.0..1549.99… is band 30)
--   epoch = steady_until / 604800000         (integer division: a week of ms)
-- The constants are `store::LEADERBOARD_BAND` and `store::LEADERBOARD_EPOCH_MS`, which
-- compute the same keys in Rust with the same operations (a unit test ties both texts). Both
-- keys only ever grow with what they cut (rating, steady_until), which is all exactness needs:
-- the cells wholly above a rating and wholly after `now` are summed, and only the players of
-- the rating's own band and of `now`'s own epoch are counted one by one
-- (`store::records::ratings`).
--
-- The cells are derived: triggers keep them in the same transaction as every write to
-- `ratings` (an UPSERT that updates fires the UPDATE triggers), and a cell whose count falls
-- to 0 is removed. `cajitas migrate` does not copy them: the target's triggers rebuild them
-- as the ratings arrive.
CREATE TABLE leaderboard_cells (
    pool   INTEGER NOT NULL,
    speed  TEXT    NOT NULL,
    epoch  INTEGER NOT NULL,
    band   INTEGER NOT NULL,
    n      INTEGER NOT NULL CHECK (n > 0),
    -- Epoch first: the expired epochs (players idle since) stay behind the range of `now`.
    PRIMARY KEY (pool, speed, epoch, band)
) WITHOUT ROWID;

INSERT INTO leaderboard_cells (pool, speed, epoch, band, n)
SELECT pool, speed, steady_until / 604800000, CAST(rating / 50.0 AS INTEGER), count(*)
FROM ratings
WHERE games >= 5 AND deviation < 110
GROUP BY 1, 2, 3, 4;

-- The players of one epoch, by the moment they stop being steady: the exact count of
-- `now`'s epoch. `games` and `deviation` ride along (see 0017) so the count reads the index
-- alone.
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

-- An update leaves its old cell, then joins its new one (either may be no cell at all).
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
