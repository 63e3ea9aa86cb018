-- PostgreSQL dialect of 0005_leases.sqlite.sql (see there for what it is for).
ALTER TABLE timers ADD COLUMN lease_owner TEXT;
ALTER TABLE timers ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION;
CREATE INDEX timers_leased ON timers (lease_until) WHERE lease_until IS NOT NULL;

-- Store.lock_game in one round trip: take the game's advisory lock (session level: held until
-- unlocked, or until the connection ends with its process), then read what the game is at.
-- VOLATILE plpgsql: the SELECT after the lock takes a new snapshot, so it sees the commit of
-- whoever held the lock before.
CREATE FUNCTION ttr_lock_game(game BIGINT, OUT seq BIGINT, OUT status TEXT)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_lock(game);
    SELECT g.seq, g.status INTO seq, status FROM games g WHERE g.id = game;
END
$$;
