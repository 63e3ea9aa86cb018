-- Cups (issue 34): Swiss tournaments of a server (service/cups.py). One row per cup: who made
-- it, where its post is (`channel_id`, `message_id` once posted), its status, and its whole
-- state as one JSON document (settings, players, rounds, tables and their results), written
-- with `version` + 1 in the transaction of each change together with what the change owes
-- (outbox rows, timers), so a change is all or nothing and two writers cannot both win.
CREATE TABLE cups (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    created_by  INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    version     INTEGER NOT NULL DEFAULT 0,
    state       TEXT    NOT NULL CHECK (json_valid(state)),
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
CREATE INDEX cups_guild ON cups (guild_id, status);
