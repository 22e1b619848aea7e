-- The word a board opens with on why it comes ("alice resigned…", "⏰ … ran out of time"), kept with the board it
-- is owed in: a board posted later from the outbox still says it (it is in no move's events, so not in /log).
ALTER TABLE outbox ADD COLUMN note TEXT NOT NULL DEFAULT '';
