-- 0005: takeback requests. A player asks the opponent to take back their last move (1 ply,
-- when the opponent has not replied) or their last move and the reply (2 plies). The request
-- stands until the opponent accepts or declines it, or another request replaces it; it is
-- only valid at the ply it was made at (`ply`), so a move in between makes it stale.
CREATE TABLE takebacks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    by_colour    TEXT    NOT NULL CHECK (by_colour IN ('white', 'black')),
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    plies        INTEGER NOT NULL CHECK (plies IN (1, 2) AND plies <= ply),
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    created_at   INTEGER NOT NULL,
    resolved_at  INTEGER
);
-- At most one open request per game.
CREATE UNIQUE INDEX takebacks_one_open_per_game ON takebacks (game_id) WHERE status = 'open';
