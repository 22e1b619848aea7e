-- A new server's lobbies get a 24 h turn clock until /settings chooses (storage.db.DEFAULT_CLOCK): a row made by
-- another setting (/ratings settings, the organiser role) must not read as "no clock". clock_set says /settings
-- chose the clock_seconds stored (NULL then means none). Rows from before were all written by /settings or read
-- as chosen: they keep what they said.
ALTER TABLE guild_settings ADD COLUMN clock_set INTEGER NOT NULL DEFAULT 0;
UPDATE guild_settings SET clock_set = 1;
