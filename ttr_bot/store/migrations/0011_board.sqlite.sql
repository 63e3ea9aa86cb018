-- The live board (issue 34): one message per server, in the channel /ttr server board chose,
-- edited in place (service/board.py). `digest` is the hash of the content last owed (an edit
-- is owed only when it changes), `owed_at` when (at most one edit per interval), `message_id`
-- the message to edit (NULL: post a new one), `refused_at` when a refusal was reported to
-- `set_by` (once per refusal; NULL again when a post goes through), `set_at` names the chain
-- of board timers the latest /ttr server board started (older chains stop), `ticked_at` its
-- last tick (a tick fired twice, after a crash, starts no second chain).
CREATE TABLE boards (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    digest     TEXT,
    owed_at    REAL,
    ticked_at  REAL,
    refused_at REAL,
    set_by     INTEGER NOT NULL,
    set_at     REAL    NOT NULL
) WITHOUT ROWID;
