-- A done event's post is claimed before it goes out, so two processes never both post it:
-- `claim_until` (Unix ms) is when the claim lapses. A scheduler claims the done, unposted
-- events whose claim is free or lapsed (`FOR UPDATE SKIP LOCKED`, in a short transaction of
-- its own), posts them, then marks them posted; a process that dies between the claim and
-- the mark leaves its claim to lapse, and whoever claims the event next posts it (with the
-- same nonce, so Discord drops a repeat). A failed post sets it to when the post may be tried
-- again.
ALTER TABLE clock_events ADD COLUMN claim_until BIGINT;
