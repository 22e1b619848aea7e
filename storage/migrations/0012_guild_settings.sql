-- A server's defaults (/settings, Manage Server): the turn clock of new lobbies and the archive grace period.
CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    clock_seconds INTEGER,            -- NULL: no clock unless a lobby sets one
    on_timeout    TEXT NOT NULL DEFAULT 'bot',
    archive_hours INTEGER NOT NULL DEFAULT 24,
    updated_at    REAL NOT NULL
);
