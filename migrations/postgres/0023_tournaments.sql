-- 0023 (PostgreSQL): tournaments (issue 32), arenas and round robins alike.
-- `tournaments`: one row per tournament, made in a channel (its games get threads of their own
-- under it), with its time control as the games' columns, whether it is rated, its state, and
-- for an arena its start and end and the time of its next pairing wave (`next_wave_at`; the
-- wave is claimed by moving it forward in the transaction that pairs, so two processes never
-- run one wave). `message_id`/`standings_message_id`: the announcement and the live standings
-- post; `standings_due`: an edit of that post is owed, made at most every 5 s
-- (`standings_edited_at`: the last, claimed by the writer that moves it).
-- `tournament_players`: who joined, their state, the rating they pair by (their rating when
-- they joined), their score (arena points; round robin half-points), and for an arena the
-- colour history (lichess's strike and balance), when they became free to pair, whom they
-- played last, and the sums of lichess's performance (opponents' ratings ± 500, games).
-- `tournament_pairings`: each pairing and its game once started, its result as the
-- tournament scored it (points per side, on fire, berserk), in order of id; whether its post
-- went out (`posted`), claimed until `post_claimed_until` by the process posting it: a post
-- lost to a crash or a failure is claimed again and sent with the same nonce.
CREATE TABLE tournaments (
    id                    BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind                  TEXT    NOT NULL CHECK (kind IN ('arena', 'roundrobin')),
    guild_id              BIGINT ,
    channel_id            BIGINT  NOT NULL,
    name                  TEXT    NOT NULL,
    created_by            BIGINT  NOT NULL REFERENCES users (id),
    tc_kind               TEXT    NOT NULL CHECK (tc_kind IN ('untimed', 'correspondence', 'live')),
    tc_base_ms            INTEGER NOT NULL,
    tc_inc_ms             INTEGER NOT NULL,
    rated                 BOOLEAN NOT NULL,
    cycles                INTEGER NOT NULL DEFAULT 1 CHECK (cycles IN (1, 2)),
    status                TEXT    NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    lang                  TEXT    NOT NULL,
    created_at            BIGINT  NOT NULL,
    starts_at             BIGINT  NOT NULL,
    ends_at               BIGINT ,
    next_wave_at          BIGINT ,
    waves                 INTEGER NOT NULL DEFAULT 0,
    message_id            BIGINT ,
    standings_message_id  BIGINT ,
    standings_due         BOOLEAN NOT NULL DEFAULT FALSE,
    standings_edited_at   BIGINT
);
CREATE INDEX tournaments_in_channel ON tournaments (channel_id, status);
CREATE INDEX tournaments_next_wave ON tournaments (next_wave_at) WHERE next_wave_at IS NOT NULL;

CREATE TABLE tournament_players (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id),
    user_id         BIGINT  NOT NULL REFERENCES users (id),
    status          TEXT    NOT NULL CHECK (status IN ('active', 'paused', 'withdrawn')),
    joined_at       BIGINT  NOT NULL,
    seed            INTEGER NOT NULL,
    rating          INTEGER NOT NULL,
    score           INTEGER NOT NULL DEFAULT 0,
    colour_strike   INTEGER NOT NULL DEFAULT 0,
    colour_balance  INTEGER NOT NULL DEFAULT 0,
    free_since      BIGINT ,
    last_opponent   BIGINT ,
    perf_sum        BIGINT  NOT NULL DEFAULT 0,
    perf_games      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_of_user ON tournament_players (user_id);

CREATE TABLE tournament_pairings (
    id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    white_id        BIGINT  NOT NULL REFERENCES users (id),
    black_id        BIGINT  NOT NULL REFERENCES users (id),
    game_id         BIGINT  UNIQUE REFERENCES games (id),
    status          TEXT    NOT NULL CHECK (status IN ('playing', 'finished')),
    winner          TEXT    CHECK (winner IN ('white', 'black')),
    plies           INTEGER,
    berserk_white   BOOLEAN NOT NULL DEFAULT FALSE,
    berserk_black   BOOLEAN NOT NULL DEFAULT FALSE,
    points_white    INTEGER,
    points_black    INTEGER,
    fire_white      BOOLEAN NOT NULL DEFAULT FALSE,
    fire_black      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      BIGINT  NOT NULL,
    finished_at     BIGINT ,
    posted          BOOLEAN NOT NULL DEFAULT FALSE,
    post_claimed_until BIGINT
);
CREATE INDEX tournament_pairings_of ON tournament_pairings (tournament_id, id);
CREATE INDEX tournament_pairings_playing ON tournament_pairings (tournament_id)
    WHERE status = 'playing';
CREATE INDEX tournament_pairings_unposted ON tournament_pairings (post_claimed_until)
    WHERE posted = FALSE;
CREATE INDEX tournament_pairings_white ON tournament_pairings (tournament_id, white_id, id);
CREATE INDEX tournament_pairings_black ON tournament_pairings (tournament_id, black_id, id);

-- Berserk (arena): the sides that halved their own clock, as a bit set (1 White, 2 Black);
-- a berserk side earns no increment.
ALTER TABLE games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0;
