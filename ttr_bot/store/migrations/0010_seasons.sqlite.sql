-- Seasons (issue 34): a server's rated games fall into monthly or quarterly seasons, counted
-- in the server's time zone (/ttr server timezone; NULL: UTC). The standings of a season are
-- read from `results` (a game belongs to the season of its finished_at), so nothing here
-- holds points: `season_settings` says how a server's seasons run (off without a row), and
-- `seasons_closed` says which seasons have had their end post (written in the transaction
-- that owes that post: once each), with the champion, whose role passes to the next one.
ALTER TABLE guild_settings ADD COLUMN timezone TEXT;
CREATE TABLE season_settings (
    guild_id   INTEGER PRIMARY KEY,
    period     TEXT    NOT NULL CHECK (period IN ('monthly', 'quarterly')),
    channel_id INTEGER NOT NULL,
    role_id    INTEGER,
    set_by     INTEGER NOT NULL,
    updated_at REAL    NOT NULL
) WITHOUT ROWID;
CREATE TABLE seasons_closed (
    guild_id    INTEGER NOT NULL,
    season      TEXT    NOT NULL,
    champion_id INTEGER,
    closed_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;
