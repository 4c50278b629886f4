-- 0005 (PostgreSQL): takeback requests (see ../0005_takebacks.sql).
CREATE TABLE takebacks (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id      BIGINT  NOT NULL REFERENCES games (id),
    by_colour    TEXT    NOT NULL CHECK (by_colour IN ('white', 'black')),
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    plies        INTEGER NOT NULL CHECK (plies IN (1, 2) AND plies <= ply),
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    created_at   BIGINT  NOT NULL,
    resolved_at  BIGINT
);
-- At most one open request per game.
CREATE UNIQUE INDEX takebacks_one_open_per_game ON takebacks (game_id) WHERE status = 'open';
