-- What an outbox row owes, now that every change that owes a post writes one (not only moves): a board (the
-- game's, or a cancelled game's notice) and/or the lobby card (opened, seats changed, started, cancelled). A row
-- written before this migration owed a board.
ALTER TABLE outbox ADD COLUMN board INTEGER NOT NULL DEFAULT 1;
ALTER TABLE outbox ADD COLUMN lobby INTEGER NOT NULL DEFAULT 0;
