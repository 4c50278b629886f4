-- 0006: a game gets its own thread. A game's `channel_id` is its channel; `thread_id` the
-- thread it is played in (NULL: played in the channel itself, as every game before this
-- migration, and games where the bot may not open threads). A challenge keeps the id of its
-- message, on which the game's thread is opened when it is accepted (maybe days later).
ALTER TABLE games ADD COLUMN thread_id INTEGER;
ALTER TABLE challenges ADD COLUMN message_id INTEGER;

-- One game in progress per thread, and per channel among the games played in the channel.
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_thread ON games (thread_id)
    WHERE status = 'active' AND thread_id IS NOT NULL;
CREATE UNIQUE INDEX games_one_active_in_channel ON games (channel_id)
    WHERE status = 'active' AND thread_id IS NULL;
CREATE INDEX games_by_thread ON games (thread_id, id) WHERE thread_id IS NOT NULL;

-- One pending challenge per challenger per channel (the service keeps one per channel
-- where games cannot get threads).
DROP INDEX challenges_one_pending_per_channel;
CREATE UNIQUE INDEX challenges_one_pending_per_challenger ON challenges (channel_id, challenger_id)
    WHERE status = 'pending';
