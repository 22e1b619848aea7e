-- Several bot processes over one database (issue 26): what a process's clock and outbox take on is claimed here, so
-- that two processes (overlapping shards, or a re-shard while old processes still run) never time out the same turn
-- nor post the same owed board. Each claim is a lease: a process that dies holding one lets go when it runs out.
-- (A reminder is claimed by moving its remind_at past the lease: no column.)
-- clock_claim: the deadline a process is timing out; clock_until: until when that claim holds. A claim ends by
-- itself when the time-out moves the deadline (a new turn), so nothing clears it.
ALTER TABLE tables ADD COLUMN clock_claim REAL;
ALTER TABLE tables ADD COLUMN clock_until REAL;
-- owed_until: a process is posting what the table owes (its outbox rows) until then.
ALTER TABLE tables ADD COLUMN owed_until REAL;
