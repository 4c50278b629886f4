-- 0009 (PostgreSQL): the computer as a player (see ../0009_engine_players.sql): a user of kind
-- 'engine' with its level (1-8); every other user is of kind 'human'.
ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'engine'));
ALTER TABLE users ADD COLUMN engine_level INTEGER
    CHECK ((kind = 'human' AND engine_level IS NULL)
        OR (kind = 'engine' AND engine_level BETWEEN 1 AND 8));
