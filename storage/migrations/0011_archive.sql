-- When a finished game's thread is archived (after a grace period), so a busy server stays under Discord's limit
-- of 1,000 active threads.
ALTER TABLE tables ADD COLUMN archive_at REAL;
CREATE INDEX tables_archive_at ON tables (archive_at) WHERE archive_at IS NOT NULL;
