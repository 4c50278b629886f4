-- 0022 (PostgreSQL): Chess960 (issue 31); see the SQLite migration for the columns' meaning.
ALTER TABLE challenges ADD COLUMN chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959);
ALTER TABLE games ADD COLUMN chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959);

-- The `chess960` speed: the speed CHECKs of 0008 (named by PostgreSQL's default) widened.
ALTER TABLE ratings DROP CONSTRAINT ratings_speed_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_speed_check
    CHECK (speed IN ('live', 'correspondence', 'chess960'));
ALTER TABLE rating_history DROP CONSTRAINT rating_history_speed_check;
ALTER TABLE rating_history ADD CONSTRAINT rating_history_speed_check
    CHECK (speed IN ('live', 'correspondence', 'chess960'));
