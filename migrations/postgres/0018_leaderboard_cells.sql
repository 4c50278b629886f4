-- 0018 (PostgreSQL): the leaderboard's counts per cell of (epoch, band), kept by a trigger
-- (see ../0018_leaderboard_cells.sql). The band is `trunc(rating / 50.0)::bigint`: a cast
-- from double precision alone would round (1549.9 to band 31), where SQLite's CAST and Rust
-- truncate. The epoch is `steady_until / 604800000` (bigint division truncates, as SQLite's
-- and Rust's). Writers of a pool and speed serialize on its advisory lock, taken with their
-- players' locks (`Backend::lock_players`), so the trigger's row locks on the shared cells
-- never wait in a cycle, and its test of a cell's count (remove it at 1, else decrement)
-- reads the count the last writer committed.
CREATE TABLE leaderboard_cells (
    pool   BIGINT NOT NULL,
    speed  TEXT   NOT NULL,
    epoch  BIGINT NOT NULL,
    band   BIGINT NOT NULL,
    n      BIGINT NOT NULL CHECK (n > 0),
    PRIMARY KEY (pool, speed, epoch, band)
);

INSERT INTO leaderboard_cells (pool, speed, epoch, band, n)
SELECT pool, speed, steady_until / 604800000,
    trunc(rating / 50.0::DOUBLE PRECISION)::BIGINT, count(*)
FROM ratings
WHERE games >= 5 AND deviation < 110
GROUP BY 1, 2, 3, 4;

CREATE INDEX ratings_steady ON ratings (pool, speed, steady_until)
    INCLUDE (rating, games, deviation)
    WHERE games >= 5 AND deviation < 110;

CREATE FUNCTION leaderboard_cells_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        IF OLD.games >= 5 AND OLD.deviation < 110 THEN
            DELETE FROM leaderboard_cells
            WHERE pool = OLD.pool AND speed = OLD.speed
                AND epoch = OLD.steady_until / 604800000
                AND band = trunc(OLD.rating / 50.0::DOUBLE PRECISION)::BIGINT AND n = 1;
            IF NOT FOUND THEN
                UPDATE leaderboard_cells SET n = n - 1
                WHERE pool = OLD.pool AND speed = OLD.speed
                    AND epoch = OLD.steady_until / 604800000
                    AND band = trunc(OLD.rating / 50.0::DOUBLE PRECISION)::BIGINT;
            END IF;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF NEW.games >= 5 AND NEW.deviation < 110 THEN
            INSERT INTO leaderboard_cells (pool, speed, epoch, band, n)
            VALUES (NEW.pool, NEW.speed, NEW.steady_until / 604800000,
                trunc(NEW.rating / 50.0::DOUBLE PRECISION)::BIGINT, 1)
            ON CONFLICT (pool, speed, epoch, band)
                DO UPDATE SET n = leaderboard_cells.n + 1;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER leaderboard_cells_follow AFTER INSERT OR UPDATE OR DELETE ON ratings
    FOR EACH ROW EXECUTE FUNCTION leaderboard_cells_follow();
