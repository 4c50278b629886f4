-- 0009: the computer as a player. An engine is a user of kind 'engine' with its level (1-8,
-- lichess's AI levels); every other user is of kind 'human'. Engine users have fixed ids
-- (see `src/game/engine.rs`), far above any Discord snowflake. Games against an engine go
-- through the same tables; ratings and clocks leave them out (an engine game is unrated and
-- untimed).
ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'engine'));
ALTER TABLE users ADD COLUMN engine_level INTEGER
    CHECK ((kind = 'human' AND engine_level IS NULL)
        OR (kind = 'engine' AND engine_level BETWEEN 1 AND 8));
