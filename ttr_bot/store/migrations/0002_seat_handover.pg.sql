-- PostgreSQL dialect of 0002_seat_handover.sqlite.sql (see there for what it is for).
ALTER TABLE seats ADD COLUMN former_user_id BIGINT
    CHECK (former_user_id IS NULL OR user_id IS NULL);  -- only a computer seat has a former holder

ALTER TABLE results ADD COLUMN former_user_id BIGINT;
CREATE INDEX results_by_former_user ON results (former_user_id, finished_at)
    WHERE former_user_id IS NOT NULL;
