-- /away: a player's vacation; turn clocks waiting for them stop until it ends.
ALTER TABLE players ADD COLUMN away_until REAL;
