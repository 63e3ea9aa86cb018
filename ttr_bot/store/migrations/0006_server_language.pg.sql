-- PostgreSQL dialect of 0006_server_language.sqlite.sql (see there for what it is for).
CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    locale     TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);
