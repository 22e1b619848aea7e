-- Turn-clock reminders: when the next one is due (half time, then near the end), found by an index like deadlines;
-- and a paused clock's remaining time (while a host or moderator has paused the game).
ALTER TABLE tables ADD COLUMN remind_at REAL;
ALTER TABLE tables ADD COLUMN paused_left REAL;
CREATE INDEX tables_remind_at ON tables (remind_at) WHERE remind_at IS NOT NULL AND status = 'active';
