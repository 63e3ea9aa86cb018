-- A destination (a channel, a thread, a player's DMs: an outbox lane) Discord refuses (403:
-- the bot lost Send Messages or View Channel, a locked thread...): retried with backoff on its
-- own, so it never delays another destination's rows; given up after a while (the adapter's
-- outbox worker states the rule). One row per refused destination while it is refused; deleted
-- when a post goes through again, or when it is given up.
CREATE TABLE outbox_lanes (
    lane          TEXT    PRIMARY KEY,                -- 'c<channel id>', 'u<user id>', ...
    guild_id      INTEGER,                            -- its server (gateway events name it)
    refused_since REAL    NOT NULL,                   -- the first refusal of this block
    retry_at      REAL    NOT NULL,                   -- its rows are not tried before
    attempts      INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    code          INTEGER                             -- Discord's error code (50013, 50001...)
) WITHOUT ROWID;

-- The worker reads the first owed rows of each destination (not the oldest rows overall).
CREATE INDEX outbox_owed_lane ON outbox (lane, id) WHERE sent_at IS NULL;
