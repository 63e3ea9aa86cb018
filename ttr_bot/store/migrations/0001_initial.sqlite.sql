-- The first schema. Run inside one transaction by ttr_bot/store/migrate.py: no PRAGMA,
-- BEGIN or COMMIT statements in migration files.
-- Discord ids (snowflakes) fit in SQLite's signed 64-bit INTEGER. Times are epoch seconds (REAL).
-- JSON columns are TEXT with a json_valid() check so nothing unreadable is ever written.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so old references stay unambiguous
    guild_id    INTEGER,                            -- NULL outside a guild
    channel_id  INTEGER NOT NULL,
    map         TEXT    NOT NULL,
    variant     TEXT    NOT NULL DEFAULT '',
    options     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed        INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                        CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id     INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    finished_at REAL,
    seq         INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0)  -- actions applied so far
);
-- One lobby or game in play per channel; finished and cancelled games do not count.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,           -- NULL for a computer player
    display_name TEXT    NOT NULL,
    bot_level    INTEGER,           -- NULL for a human
    notify       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(notify)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),      -- NULLs are distinct, so several bots may sit at one table
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))  -- a seat is either a human or a bot
) WITHOUT ROWID;
CREATE INDEX seats_by_user ON seats (user_id);

-- The action log: the game's history, append-only. The snapshot is a cache of replaying it.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    actor      INTEGER,             -- seat index; NULL for actions the bot takes (timeouts)
    action     TEXT    NOT NULL CHECK (json_valid(action)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    state      TEXT    NOT NULL CHECK (json_valid(state)),
    updated_at REAL    NOT NULL
);

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: not about one game
    kind       TEXT    NOT NULL,
    due_at     REAL    NOT NULL,
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0  -- handler failures, so retries are bounded across restarts
);
CREATE INDEX timers_by_due ON timers (due_at, id);
CREATE INDEX timers_by_game_kind ON timers (game_id, kind);

CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    locale     TEXT,                -- NULL: use the guild's or Discord's locale
    dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1)),
    updated_at REAL    NOT NULL
);

-- Statistics: one row per seat of a finished game. map/variant/finished_at are copied from the
-- game so statistics queries need no join.
CREATE TABLE results (
    game_id           INTEGER NOT NULL REFERENCES games (id),
    seat              INTEGER NOT NULL,
    user_id           INTEGER,      -- NULL for a computer player
    score             INTEGER NOT NULL,
    rank              INTEGER NOT NULL CHECK (rank >= 1),
    won               INTEGER NOT NULL CHECK (won IN (0, 1)),
    tickets_completed INTEGER NOT NULL CHECK (tickets_completed >= 0),
    map               TEXT    NOT NULL,
    variant           TEXT    NOT NULL,
    finished_at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_by_user ON results (user_id, finished_at);

-- The bot's own messages it edits later (the turn panel, ...), one per (game, kind).
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
