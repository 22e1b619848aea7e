-- Turn clocks: how long a player has for their turn (NULL: no clock), what happens when it runs out (a bot plays
-- the turn, the turn is skipped with the game's default, or the player forfeits), and when the seats to act run
-- out of time. Due deadlines are found by the index, not by loading every game.
ALTER TABLE tables ADD COLUMN turn_seconds INTEGER;
ALTER TABLE tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'bot';
ALTER TABLE tables ADD COLUMN deadline REAL;
CREATE INDEX tables_deadline ON tables (deadline) WHERE deadline IS NOT NULL AND status = 'active';
