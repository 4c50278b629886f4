-- A done event's post is claimed before it goes out: `claim_until` (Unix ms) is when the
-- claim lapses. A scheduler claims the done, unposted events whose claim is free or lapsed,
-- posts them, then marks them posted; a process that dies between the claim and the mark
-- leaves its claim to lapse, and whoever claims the event next posts it (with the same
-- nonce). A failed post sets it to when the post may be tried again. With SQLite one process
-- owns the file, so the claim only keeps the same shape as PostgreSQL's.
ALTER TABLE clock_events ADD COLUMN claim_until INTEGER;
