-- Tables (lobbies and games), their seats and the move log.
CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,   -- where the game is played: a thread or a channel
    lobby_channel_id INTEGER,            -- where the lobby message was posted
    lobby_message_id INTEGER,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL,   -- JSON, resolved with defaults
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    seed             INTEGER,
    state            TEXT,               -- the engine's JSON dump
    version          INTEGER NOT NULL DEFAULT 0,  -- bumped by every change; guards double clicks
    result           TEXT,               -- JSON standings once finished
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);

-- One lobby or game in progress per channel or thread.
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,           -- 0-based; the turn order once the game starts
    user_id  INTEGER,                    -- NULL for a bot seat
    name     TEXT    NOT NULL,
    bot      TEXT,                       -- bot strength for a bot seat, NULL for a person
    resigned INTEGER NOT NULL DEFAULT 0, -- 0, or the order in which the seat resigned (1, 2…)
    dm_open  INTEGER NOT NULL DEFAULT 1, -- 0 once a DM to this player has failed
    PRIMARY KEY (table_id, seat)
);

CREATE UNIQUE INDEX seats_one_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE moves (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,         -- 1, 2, 3… in the order applied
    seat       INTEGER NOT NULL,
    notation   TEXT    NOT NULL,
    events     TEXT    NOT NULL,         -- JSON list of event texts with {pN} placeholders
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, ply)
);
