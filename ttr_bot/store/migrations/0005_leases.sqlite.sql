-- Several bot processes on one database (issue 15): a due timer or an owed message is claimed
-- by one process for a while (its lease) before that process fires or sends it, so each fires
-- once across processes; a process that dies leaves leases that simply run out. NULL: nobody
-- holds it. Only the claiming process's id (host:pid:random) and the lease's end are kept.
ALTER TABLE timers ADD COLUMN lease_owner TEXT;
ALTER TABLE timers ADD COLUMN lease_until REAL;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until REAL;
-- the leases held now (few: what is being fired or sent this minute)
CREATE INDEX timers_leased ON timers (lease_until) WHERE lease_until IS NOT NULL;
