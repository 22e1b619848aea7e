-- How a player left a game in progress: 'resigned' (/resign), 'removed' (/game kick by the host or a moderator) or
-- 'forfeit' (their turn clock ran out under timeout=forfeit); '' while they play. A rematch invites only those who
-- did not leave against their will; ratings may tell a resignation from a removal.
ALTER TABLE seats ADD COLUMN left_how TEXT NOT NULL DEFAULT '';
UPDATE seats SET left_how = 'resigned' WHERE resigned > 0;
