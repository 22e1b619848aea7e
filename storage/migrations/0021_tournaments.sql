-- Tournaments (issue 23): the tournament as a pure value's JSON (community.tournament), the game tables each round
-- opens, and what it owes its channel.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,   -- where its posts go and its games' threads open
    message_id     INTEGER,            -- the sign-up post, once posted
    name           TEXT    NOT NULL,
    game           TEXT    NOT NULL,
    options        TEXT    NOT NULL,   -- the game's resolved options (JSON)
    status         TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    organiser_id   INTEGER NOT NULL,
    state          TEXT    NOT NULL,   -- community.tournament.Tournament.dump()
    names          TEXT    NOT NULL DEFAULT '{}',  -- each player's display name (JSON: id -> name)
    turn_seconds   INTEGER,            -- its games' turn clock
    on_timeout     TEXT    NOT NULL DEFAULT 'bot',
    rated          INTEGER NOT NULL DEFAULT 1,
    version        INTEGER NOT NULL DEFAULT 0,  -- bumped by every change: two clicks never change it twice
    created_at     REAL    NOT NULL,
    updated_at     REAL    NOT NULL
);

-- One row per game a round owes: a table of a round (and, in an elimination, each replay of a drawn game).
-- table_id is NULL until the game is opened in its thread (exactly once: the row is claimed in that write).
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    game          INTEGER NOT NULL DEFAULT 1,
    table_id      INTEGER UNIQUE,
    PRIMARY KEY (tournament_id, round, number, game)
);

-- What a tournament owes its channel: 'card' (the sign-up card), 'round' (a round's pairings, once its games are
-- open), 'standings' (after a round), 'final', 'cancelled'; written in the change's own transaction.
CREATE TABLE tournament_posts (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    round         INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL,
    delivered_at  REAL,
    PRIMARY KEY (tournament_id, seq)
);

ALTER TABLE tables ADD COLUMN tournament_id INTEGER;  -- the tournament a game belongs to
