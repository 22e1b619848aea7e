-- The longest vacation (/away) a server allows its players.
ALTER TABLE guild_settings ADD COLUMN away_days INTEGER NOT NULL DEFAULT 14;
