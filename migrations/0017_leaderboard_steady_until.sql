-- 0017: the leaderboard's test of the RD as of now reads one stored moment per player,
-- `steady_until`: the first Unix ms at which their deviation, widened by inactivity since
-- `rated_at`, is no longer below 110 (`store::steady_until`, which writes it with every
-- rating). Testing `steady_until > now` per index entry costs a fraction of the arithmetic of
-- 0015 (RD² + t·k·σ² < 110² for each entry): the caller's rank among 100,000 players went
-- from 19 ms of CPU back under 5 ms. Existing rows get the same value, computed in the same
-- order of floating-point operations (k = RANKED_RD2_PER_MS). The index keeps `games` and
-- `deviation` as columns: without them SQLite reads each entry's table row to test the
-- partial index's own conditions (SEARCH … USING INDEX instead of USING COVERING INDEX).
ALTER TABLE ratings ADD COLUMN steady_until INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET steady_until = CASE
    WHEN deviation >= 110 THEN -9223372036854775807 - 1
    WHEN volatility = 0 THEN rated_at + 1000000000000000
    ELSE rated_at + CAST(MIN((12100.0 - deviation * deviation) / (7.487186433491925e-05 * (volatility * volatility)), 1e15) AS INTEGER)
        + (MIN((12100.0 - deviation * deviation) / (7.487186433491925e-05 * (volatility * volatility)), 1e15)
           > CAST(MIN((12100.0 - deviation * deviation) / (7.487186433491925e-05 * (volatility * volatility)), 1e15) AS INTEGER))
END;
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard
    ON ratings (pool, speed, rating DESC, user_id, games, deviation, steady_until)
    WHERE games >= 5 AND deviation < 110;
