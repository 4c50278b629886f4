-- 0002 (PostgreSQL): small settings of the bot front ends (e.g. the hash of the slash commands
-- last registered with Discord, so a restart does not register them again).
CREATE TABLE bot_settings (
    key         TEXT   PRIMARY KEY CHECK (length(key) <= 200),
    value       TEXT   NOT NULL CHECK (length(value) <= 1000),
    updated_at  BIGINT NOT NULL
);
