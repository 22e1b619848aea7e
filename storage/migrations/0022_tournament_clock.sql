-- A tournament's round deadline (a round's games still running when it passes end as they stand), its sign-up
-- window, and its pause (no deadline runs and no new round opens while it is paused).
ALTER TABLE tournaments ADD COLUMN round_seconds INTEGER;   -- how long a round may last (NULL: no deadline)
ALTER TABLE tournaments ADD COLUMN round_deadline REAL;     -- when the current round ends
ALTER TABLE tournaments ADD COLUMN signup_until REAL;       -- sign-ups close (and it starts) then (NULL: by hand)
ALTER TABLE tournaments ADD COLUMN paused_left REAL;        -- paused: the round's time left (NULL: running)
ALTER TABLE tournaments ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
