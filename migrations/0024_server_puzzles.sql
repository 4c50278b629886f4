-- 0024: puzzles found in the server's own games (issue 30). A finished game worth searching
-- (see the README, "Puzzles from your server's games") gets a row in `puzzle_searches` in the
-- transaction that ends it: the search is pending until a process's searcher claims it
-- (`owner`, a random id per process, until `claim_until`, Unix ms) and marks it done with the
-- number of puzzles found. A claim that lapses (a crash, a restart) is taken again; a search
-- the engine failed is tried again later, `tries` times at most, then marked failed.
CREATE TABLE puzzle_searches (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    queued_at    INTEGER NOT NULL,
    owner        INTEGER,
    claim_until  INTEGER NOT NULL,
    tries        INTEGER NOT NULL CHECK (tries >= 0),
    found        INTEGER,
    done_at      INTEGER
);
CREATE INDEX puzzle_searches_pending ON puzzle_searches (claim_until, game_id)
    WHERE status = 'pending';

-- One row per puzzle found: lichess's fields (`fen`, `moves` in UCI, `themes`, `game_url`),
-- the pool it belongs to (the server, else the channel, as ratings), its source game (id,
-- players, the mistake's index in the game's moves, the thread it was played in), and the
-- puzzle's own Glicko-2 state, which every rated attempt moves (1500 / 500 at first).
CREATE TABLE server_puzzles (
    id           TEXT    PRIMARY KEY,
    pool         INTEGER NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    white_id     INTEGER NOT NULL REFERENCES users (id),
    black_id     INTEGER NOT NULL REFERENCES users (id),
    ply          INTEGER NOT NULL CHECK (ply >= 0),
    guild_id     INTEGER,
    thread_id    INTEGER,
    fen          TEXT    NOT NULL,
    moves        TEXT    NOT NULL,
    themes       TEXT    NOT NULL,
    game_url     TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL CHECK (deviation >= 0),
    volatility   REAL    NOT NULL CHECK (volatility >= 0),
    plays        INTEGER NOT NULL CHECK (plays >= 0),
    created_at   INTEGER NOT NULL
);
CREATE INDEX server_puzzles_pool ON server_puzzles (pool, rating);
