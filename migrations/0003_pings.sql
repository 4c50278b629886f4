-- 0003: how often one person made the bot ping another (a named challenge, a draw offer,
-- later a takeback request), so the bot can refuse to be used to spam someone. Rows older
-- than the window are deleted as new ones come in; the count holds across restarts and
-- across processes sharing the database.
CREATE TABLE pings (
    from_user  INTEGER NOT NULL REFERENCES users (id),
    to_user    INTEGER NOT NULL REFERENCES users (id),
    kind       TEXT    NOT NULL CHECK (kind IN ('challenge', 'draw_offer', 'takeback')),
    at         INTEGER NOT NULL
);
CREATE INDEX pings_pair_at ON pings (from_user, to_user, at);

-- The hourly pruning of handled interactions reads them by age.
CREATE INDEX processed_interactions_handled_at ON processed_interactions (handled_at);
