-- 0013: an engine's move is claimed before it is searched, so that of several processes
-- sharing a database one searches it. A claim names the game, the ply it is for, the engine
-- player that holds it (a random id per process) and when it lapses (Unix ms). A claim is
-- taken when there is none for the game, or it is for another ply, or it has lapsed, or its
-- holder takes it again (renewing it): one `INSERT … ON CONFLICT DO UPDATE … WHERE`, which
-- two processes racing for the same row run one after the other, the second seeing the
-- first's claim. A process that dies leaves its claim to lapse, and another process's engine
-- player picks the move up on its next look at the games.
CREATE TABLE engine_claims (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id),
    ply         INTEGER NOT NULL,
    owner       BIGINT  NOT NULL,
    claim_until BIGINT  NOT NULL
);
