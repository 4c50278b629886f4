-- 0013: an engine's move is claimed before it is searched, so that of several processes
-- sharing a database one searches it. A claim names the game, the position it is for (the
-- game's `seq`, which every move and takeback raises), the engine player that holds it (a
-- random id per process) and when it lapses (Unix ms). A claim is taken when there is none
-- for the game, or it is for an earlier position, or it has lapsed, or its holder takes it
-- again (renewing it); never over a live claim on a later position. A process that dies
-- leaves its claim to lapse, and another process's engine player picks the move up on its
-- next look at the games.
CREATE TABLE engine_claims (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    seq         INTEGER NOT NULL,
    owner       INTEGER NOT NULL,
    claim_until INTEGER NOT NULL
);
-- Games against the engine have no events (no reminder pings the engine, nobody claims a
-- game it abandoned): drop those that earlier versions scheduled.
UPDATE games SET event_kind = NULL, event_due = NULL
WHERE status = 'active' AND event_kind IS NOT NULL
  AND (white_id IN (SELECT id FROM users WHERE kind = 'engine')
       OR black_id IN (SELECT id FROM users WHERE kind = 'engine'));
