-- 0014: an untimed game has no reminder before both sides have moved (no reminder goes out
-- before both players moved, and a claim at that point only aborts the game). Earlier
-- versions scheduled one when the game started, and White's first move kept it: drop those
-- still pending. Later moves and takebacks schedule the game's event as it should be.
UPDATE games SET event_kind = NULL, event_due = NULL
WHERE status = 'active' AND event_kind = 'idle_reminder' AND ply < 2;
