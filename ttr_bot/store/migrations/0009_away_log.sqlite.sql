-- What each player was away in a server over the last 30 days (issue 23, "away has an end"):
-- a renewed /ttr me away may not hold games for more than 14 days in any 30
-- (service/away.py). A row is written when an away period ends or is replaced, with the time
-- actually taken; rows older than 30 days are deleted as new ones come.
CREATE TABLE away_log (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    since    REAL NOT NULL,
    until    REAL NOT NULL CHECK (until >= since)
);
CREATE INDEX away_log_user ON away_log (user_id, guild_id, until);
