-- PostgreSQL dialect of 0011_board.sqlite.sql (see there for what it is for).
CREATE TABLE boards (
    guild_id   BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    digest     TEXT,
    owed_at    DOUBLE PRECISION,
    ticked_at  DOUBLE PRECISION,
    refused_at DOUBLE PRECISION,
    set_by     BIGINT NOT NULL,
    set_at     DOUBLE PRECISION NOT NULL
);
