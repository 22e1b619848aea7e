-- How a player left a game in progress: 'resigned' (/resign), 'removed' (/game kick by the host or a moderator) or
-- 'forfeit' (their turn clock ran out under timeout=forfeit); '' while they play. A rematch invites only those who
-- did not leave against their will; ratings may tell a resignation from a removal. Seats that left before this
-- migration are all 'resigned' (kicks and forfeits were not told apart then).
ALTER TABLE seats ADD COLUMN left_how TEXT NOT NULL DEFAULT '';
UPDATE seats SET left_how = 'resigned' WHERE resigned > 0;
