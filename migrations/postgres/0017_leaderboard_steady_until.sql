-- 0017 (PostgreSQL): the leaderboard tests one stored moment per player, `steady_until`
-- (see ../0017_leaderboard_steady_until.sql).
ALTER TABLE ratings ADD COLUMN steady_until BIGINT NOT NULL DEFAULT 0;
UPDATE ratings SET steady_until = CASE
    WHEN deviation >= 110 THEN -9223372036854775808
    WHEN volatility = 0 THEN rated_at + 1000000000000000
    ELSE rated_at + ceil(LEAST((12100.0::DOUBLE PRECISION - deviation * deviation)
        / (7.487186433491925e-05::DOUBLE PRECISION * (volatility * volatility)), 1e15))::BIGINT
END;
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard ON ratings (pool, speed, rating DESC, user_id)
    INCLUDE (games, deviation, steady_until)
    WHERE games >= 5 AND deviation < 110;
