-- 0025: a round robin player's withdrawal, by FIDE's rule (Tournament Rules, C.06 5.4), decided
-- once when they withdraw: 'cancelled' (less than half their games were over: their results
-- no longer count) or 'forfeits' (half or more: their results stay, their games not yet
-- played are lost by forfeit). NULL for a player who has not withdrawn, and in an arena.
ALTER TABLE tournament_players ADD COLUMN withdrawal TEXT
    CHECK (withdrawal IN ('cancelled', 'forfeits'));
