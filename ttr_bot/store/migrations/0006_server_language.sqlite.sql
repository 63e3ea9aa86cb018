-- A server's own settings (issue 24): the language new games of the server are played in
-- (/ttr server language), when the host does not choose one with /ttr new language:.
-- NULL: no choice, the server's Discord locale applies when the bot speaks it, else English.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    locale     TEXT,
    updated_at REAL    NOT NULL
) WITHOUT ROWID;
