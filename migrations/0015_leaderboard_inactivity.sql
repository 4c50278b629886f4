-- 0015: the leaderboard lists players by their RD as of now, widened by inactivity (issue 25):
-- a player idle for long enough drops off it, as their rating is shown provisional ("?").
-- The partial index keeps its conditions (at least 5 rated games and a stored RD below 110:
-- inactivity only widens the RD, so every listed player is among them); `volatility` and
-- `rated_at` ride along so that the counts test the RD as of now from the index alone.
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard
    ON ratings (pool, speed, rating DESC, user_id, games, deviation, volatility, rated_at)
    WHERE games >= 5 AND deviation < 110;
