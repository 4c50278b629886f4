-- 0001 (PostgreSQL): the initial schema of Cajitas, the same tables as ../0001_initial.sql.
-- Ids of Discord objects (users, guilds, channels) are u64 snowflakes stored as the BIGINT with
-- the same bits. Times are Unix milliseconds. Applied once, under an advisory lock, and
-- recorded in `schema_migrations` (see src/store/postgres/mod.rs).

-- Users as last seen: the display name is refreshed on every operation they make.
CREATE TABLE users (
    id          BIGINT  PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) <= 100),
    is_bot      BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at  BIGINT  NOT NULL
);

-- Games. The start FEN and the moves (table `moves`) are the truth; `fen` and `ply` are a
-- cache of the current position that every move updates under a ply check.
CREATE TABLE games (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id     BIGINT,
    channel_id   BIGINT  NOT NULL,
    white_id     BIGINT  NOT NULL REFERENCES users (id),
    black_id     BIGINT  NOT NULL REFERENCES users (id),
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
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    finished_at  BIGINT,
    CHECK (white_id <> black_id)
);
-- One game in progress per channel.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_channel ON games (channel_id, id);

-- Every move played, in order: exactly one row per ply.
CREATE TABLE moves (
    game_id    BIGINT  NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL CHECK (ply >= 0),
    uci        TEXT    NOT NULL CHECK (length(uci) BETWEEN 4 AND 5),
    san        TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL REFERENCES users (id),
    played_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- Challenges. opponent_id NULL is an open challenge; colour is the challenger's choice.
CREATE TABLE challenges (
    id             BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id       BIGINT,
    channel_id     BIGINT  NOT NULL,
    challenger_id  BIGINT  NOT NULL REFERENCES users (id),
    opponent_id    BIGINT  REFERENCES users (id),
    colour         TEXT    NOT NULL CHECK (colour IN ('white', 'black', 'random')),
    status         TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at     BIGINT  NOT NULL,
    expires_at     BIGINT  NOT NULL,
    resolved_at    BIGINT,
    resolved_by    BIGINT  REFERENCES users (id),
    game_id        BIGINT  REFERENCES games (id)
);
-- One pending challenge per channel.
CREATE UNIQUE INDEX challenges_one_pending_per_channel ON challenges (channel_id)
    WHERE status = 'pending';

-- Draw offers. An offer stands until the opponent accepts, declines or moves.
CREATE TABLE draw_offers (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id      BIGINT  NOT NULL REFERENCES games (id),
    by_colour    TEXT    NOT NULL CHECK (by_colour IN ('white', 'black')),
    ply          INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'lapsed')),
    created_at   BIGINT  NOT NULL,
    resolved_at  BIGINT
);
-- At most one open offer per game.
CREATE UNIQUE INDEX draw_offers_one_open_per_game ON draw_offers (game_id) WHERE status = 'open';

-- Interactions already handled (Discord may deliver one twice, to any process); old rows may
-- be pruned. The primary key is what deduplicates them.
CREATE TABLE processed_interactions (
    id          BIGINT PRIMARY KEY,
    handled_at  BIGINT NOT NULL
);
