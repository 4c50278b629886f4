-- 0006 (PostgreSQL): a game gets its own thread (see ../0006_threads.sql). `thread_id` is the
-- thread a game is played in (NULL: in its channel); a challenge keeps its message's id, on
-- which the game's thread is opened when it is accepted.
ALTER TABLE games ADD COLUMN thread_id BIGINT;
ALTER TABLE challenges ADD COLUMN message_id BIGINT;

-- One game in progress per thread, and per channel among the games played in the channel.
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_thread ON games (thread_id)
    WHERE status = 'active' AND thread_id IS NOT NULL;
CREATE UNIQUE INDEX games_one_active_in_channel ON games (channel_id)
    WHERE status = 'active' AND thread_id IS NULL;
CREATE INDEX games_by_thread ON games (thread_id, id) WHERE thread_id IS NOT NULL;

-- One pending challenge per challenger per channel.
DROP INDEX challenges_one_pending_per_channel;
CREATE UNIQUE INDEX challenges_one_pending_per_challenger ON challenges (channel_id, challenger_id)
    WHERE status = 'pending';
