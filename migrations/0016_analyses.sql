-- 0016: the engine's analyses of finished games, so that /analysis of a game already
-- analysed answers at once from what was stored. An analysis searches every position with a
-- fixed node budget from an empty hash on one thread, so the same game at the same budget
-- always gets the same report: a stored one is as good as a new one. `budget` names the
-- budget (`nodes=100000`); `record` holds each position's evaluation and best move
-- (`cp:20 mate:-3 …|e2e4 - …`), from which the report is judged again.
CREATE TABLE analyses (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    budget     TEXT NOT NULL,
    record     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, budget)
);
