-- PostgreSQL dialect of 0007_refused_destinations.sqlite.sql (see there for what it is for).
CREATE TABLE outbox_lanes (
    lane          TEXT             PRIMARY KEY,
    guild_id      BIGINT,
    refused_since DOUBLE PRECISION NOT NULL,
    retry_at      DOUBLE PRECISION NOT NULL,
    attempts      INTEGER          NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    code          INTEGER
);
CREATE INDEX outbox_owed_lane ON outbox (lane, id) WHERE sent_at IS NULL;
