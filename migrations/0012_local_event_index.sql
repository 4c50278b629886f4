-- 0012: the index of one channel's pending events covers only the console's channel.
--
-- `cajitas local` looks for the next event of its own channel (`local`) only; every other
-- scheduler looks at all channels, or all but `local`, through games_event_due. An index on
-- (channel_id, event_due) over every game cost each move of every game one more index entry
-- rewritten (a page more in the commit: 16% of the moves per second of two threads in RAM).
-- Partial on the console's channel, it holds only the console's games, and a move elsewhere
-- leaves it alone. The number is the console's channel id as stored (FNV-1a of "local" with
-- the top bit set, as a signed 64-bit integer); `store::LOCAL_CHANNEL_ID` is the same number,
-- checked by a test, and the queries of that channel name it literally so that the planner
-- sees the index applies.
DROP INDEX games_event_due_by_channel;
CREATE INDEX games_event_due_local ON games (event_due)
    WHERE event_due IS NOT NULL AND channel_id = -6584509259560091416;
