-- 0015 (PostgreSQL): the leaderboard lists players by their RD as of now, widened by
-- inactivity (see ../0015_leaderboard_inactivity.sql): the index also carries what that test
-- reads.
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard ON ratings (pool, speed, rating DESC, user_id)
    INCLUDE (games, deviation, volatility, rated_at)
    WHERE games >= 5 AND deviation < 110;
