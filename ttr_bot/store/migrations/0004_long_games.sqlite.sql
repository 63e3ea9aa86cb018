-- Games that last for weeks (issue 16): what the bot owes players survives a crash (the outbox),
-- per-player notification settings, away periods, votes, and why a game ended.

-- Why a game ended other than by being played out or cancelled by command: 'abandoned' (no
-- action for 30 days), 'channel_gone', 'lobby_expired', 'vote', 'computers' (every human seat
-- had been handed to a computer player and it finished by itself). NULL otherwise.
ALTER TABLE games ADD COLUMN end_reason TEXT;

-- Consecutive turns of the seat that ran out of time (reset when its player moves). Why a
-- computer plays a seat a human held is seats.handover (0003): 'left', 'replaced', 'timeout',
-- 'vote', 'left_server' (only 'timeout' seats can be taken back with /ttr return).
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);

-- How a player wants to be told it is their turn, and their quiet hours: {"how": "ping",
-- "tz": "Asia/Bangkok", "quiet": [1320, 480]} (minutes after local midnight).
ALTER TABLE users ADD COLUMN notify TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(notify));

-- /ttr away: a player's deadlines in one server wait (or a computer covers) until `until`.
CREATE TABLE away (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    since    REAL    NOT NULL,
    until    REAL    NOT NULL CHECK (until >= since),
    PRIMARY KEY (user_id, guild_id)
) WITHOUT ROWID;

-- What the bot owes players: written in the same transaction as the change that owes it,
-- delivered by the adapter's worker in id order per lane, marked sent after Discord took it.
-- The id is the messages' nonce (Discord returns the first copy of a retried post).
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused: nonces stay unique
    game_id    INTEGER REFERENCES games (id),
    kind       TEXT    NOT NULL,
    lane       TEXT    NOT NULL,                    -- 'c<channel id>', 'u<user id>', ...
    payload    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    key        TEXT    UNIQUE,                      -- a second row with the same key is not written
    held       INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1)),  -- part of a turn not over yet
    seq        INTEGER,                             -- the game's seq the row describes
    due_at     REAL    NOT NULL,
    created_at REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    sent_at    REAL,                                -- NULL while owed
    error      TEXT                                 -- why it was given up, if it was
);
CREATE INDEX outbox_owed ON outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent ON outbox (sent_at) WHERE sent_at IS NOT NULL;

-- /ttr vote: hand an absent player's seat to a computer, or cancel the game.
CREATE TABLE votes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('replace', 'cancel')),
    target_seat INTEGER,                             -- the seat index to replace
    proposer    INTEGER NOT NULL,
    voters      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(voters)),   -- user ids
    ballots     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(ballots)),  -- user id -> yes
    status      TEXT    NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'passed', 'failed', 'expired', 'void')),
    created_at  REAL    NOT NULL,
    expires_at  REAL    NOT NULL,
    closed_at   REAL
);
CREATE UNIQUE INDEX votes_one_open_per_game ON votes (game_id) WHERE status = 'open';
