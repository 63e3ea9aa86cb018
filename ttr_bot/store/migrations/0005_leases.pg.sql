-- PostgreSQL dialect of 0005_leases.sqlite.sql (see there for what it is for).
ALTER TABLE timers ADD COLUMN lease_owner TEXT;
ALTER TABLE timers ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION;
CREATE INDEX timers_leased ON timers (lease_until) WHERE lease_until IS NOT NULL;
