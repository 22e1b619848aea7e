-- A player's own settings across tables: how they are told it is their turn (mention in the game's channel, a DM,
-- or both).
CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    notify     TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'both')),
    updated_at REAL NOT NULL
);
