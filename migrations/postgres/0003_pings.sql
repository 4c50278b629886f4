-- 0003 (PostgreSQL): how often one person made the bot ping another, so the bot can refuse to
-- be used to spam someone. The count holds across restarts and across processes.
CREATE TABLE pings (
    from_user  BIGINT NOT NULL REFERENCES users (id),
    to_user    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT   NOT NULL CHECK (kind IN ('challenge', 'draw_offer', 'takeback')),
    at         BIGINT NOT NULL
);
CREATE INDEX pings_pair_at ON pings (from_user, to_user, at);

-- The hourly pruning of handled interactions reads them by age.
CREATE INDEX processed_interactions_handled_at ON processed_interactions (handled_at);
