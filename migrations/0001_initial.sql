-- 0001: the initial schema of Cajitas.
-- Ids of Discord objects (users, guilds, channels) are u64 snowflakes stored as the i64 with the
-- same bits. Times are Unix milliseconds. Applied once by rusqlite_migration (user_version).

-- Users as last seen: the display name is refreshed on every operation they make.
CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) <= 100),
    is_bot      INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    updated_at  INTEGER NOT NULL
);

-- Games. The start FEN and the moves (table `moves`) are the truth; `fen` and `ply` are a
-- cache of the current position that every move updates under a ply check.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER,
    channel_id   INTEGER NOT NULL,
    white_id     INTEGER NOT NULL REFERENCES users (id),
    black_id     INTEGER NOT NULL REFERENCES users (id),
    start_fen    TEXT    NOT NULL,
    fen          TEXT    NOT NULL,
    ply          INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    status       TEXT    NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'finished', 'aborted')),
    result       TEXT    NOT NULL DEFAULT '*' CHECK (result IN ('*', '1-0', '0-1', '1/2-1/2')),
    winner       TEXT    CHECK (winner IN ('white', 'black')),
    termination  TEXT,
    -- A draw claimed together with a move (FIDE 9.2/9.3): the move written, not played.
    claim_move   TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    CHECK (white_id <> black_id)
);
-- One game in progress per channel.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_channel ON games (channel_id, id);

-- Every move played, in order: exactly one row per ply.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL CHECK (ply >= 0),
    uci        TEXT    NOT NULL CHECK (length(uci) BETWEEN 4 AND 5),
    san        TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    played_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Challenges. opponent_id NULL is an open challenge; colour is the challenger's choice.
CREATE TABLE challenges (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER,
    channel_id     INTEGER NOT NULL,
    challenger_id  INTEGER NOT NULL REFERENCES users (id),
    opponent_id    INTEGER REFERENCES users (id),
    colour         TEXT    NOT NULL CHECK (colour IN ('white', 'black', 'random')),
    status         TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    resolved_at    INTEGER,
    resolved_by    INTEGER REFERENCES users (id),
    game_id        INTEGER REFERENCES games (id)
);
-- One pending challenge per channel.
CREATE UNIQUE INDEX challenges_one_pending_per_channel ON challenges (channel_id)
    WHERE status = 'pending';

-- Draw offers. An offer stands until the opponent accepts, declines or moves.
CREATE TABLE draw_offers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    by_colour    TEXT    NOT NULL CHECK (by_colour IN ('white', 'black')),
    ply          INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    created_at   INTEGER NOT NULL,
    resolved_at  INTEGER
);
-- At most one open offer per game (a player's second offer, or the opponent's counter-offer,
-- is handled by the service before it reaches here).
CREATE UNIQUE INDEX draw_offers_one_open_per_game ON draw_offers (game_id) WHERE status = 'open';

-- Interactions already handled (Discord may deliver one twice); old rows may be pruned.
CREATE TABLE processed_interactions (
    id          INTEGER PRIMARY KEY,
    handled_at  INTEGER NOT NULL
) WITHOUT ROWID;
