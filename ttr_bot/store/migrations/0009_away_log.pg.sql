-- PostgreSQL dialect of 0009_away_log.sqlite.sql (see there for what it is for).
CREATE TABLE away_log (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    since    DOUBLE PRECISION NOT NULL,
    until    DOUBLE PRECISION NOT NULL CHECK (until >= since)
);
CREATE INDEX away_log_user ON away_log (user_id, guild_id, until);
