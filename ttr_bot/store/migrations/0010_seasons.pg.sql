-- PostgreSQL dialect of 0010_seasons.sqlite.sql (see there for what it is for).
ALTER TABLE guild_settings ADD COLUMN timezone TEXT;
CREATE TABLE season_settings (
    guild_id   BIGINT PRIMARY KEY,
    period     TEXT   NOT NULL CHECK (period IN ('monthly', 'quarterly')),
    channel_id BIGINT NOT NULL,
    role_id    BIGINT,
    set_by     BIGINT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE seasons_closed (
    guild_id    BIGINT NOT NULL,
    season      TEXT   NOT NULL,
    champion_id BIGINT,
    closed_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season)
);
