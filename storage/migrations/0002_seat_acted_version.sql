-- The table version right after each seat's latest move. In a game where every seat picks at once, another
-- seat's pick bumps the table version without changing what this seat may do, so this seat's controls stay
-- good until the seat itself acts.
ALTER TABLE seats ADD COLUMN acted_version INTEGER NOT NULL DEFAULT 0;
