-- How long an answer owed outside one's own turn waits (a stop, a split of losses, a trade offer…) before its
-- default is taken: play part D2's decision_timeout. NULL: the table's turn clock, or 12 hours without one.
ALTER TABLE tables ADD COLUMN answer_seconds INTEGER;
