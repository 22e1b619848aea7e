-- Community play: every finished game's result per seat (the source of truth for ratings and records), the ratings
-- they give, and what decides whether a game is rated.

-- The host's choice: 0 makes the table unrated (rated=no in its options); 1 rates it when the server's rules allow.
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tables ADD COLUMN started_at REAL;   -- when the lobby became a game (NULL for games started before)
ALTER TABLE tables ADD COLUMN finished_at REAL;  -- when the game ended

-- 1 once a person's seat was given to a bot during the game (/game replace without a member): such a game is unrated,
-- or rated for the people who stayed, as the server chooses.
ALTER TABLE seats ADD COLUMN handed INTEGER NOT NULL DEFAULT 0;

-- The server's rating rules: games against bots rated (each bot level one identity), and games where a seat was
-- handed to a bot: 'unrated', or 'stayed' (rated for the people who stayed).
ALTER TABLE guild_settings ADD COLUMN rate_bots INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN rate_handed TEXT NOT NULL DEFAULT 'unrated';
ALTER TABLE guild_settings ADD COLUMN organiser_role INTEGER;  -- a role that may run tournaments (Manage Server may)

CREATE TABLE results (
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    seq          INTEGER NOT NULL,  -- the order games ended in (one number per game): ratings are rebuilt in it
    guild_id     INTEGER,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,  -- a member's id in decimal, or 'bot:<level>'
    user_id      INTEGER,           -- the member (NULL for a bot seat)
    name         TEXT    NOT NULL,
    place        INTEGER NOT NULL,  -- 1 = first; tied seats share a place
    seats        INTEGER NOT NULL,  -- how many seats the table had
    score        REAL,
    outcome      TEXT    NOT NULL,  -- 'win', 'shared win' or 'loss'
    left_how     TEXT    NOT NULL DEFAULT '',
    role         TEXT    NOT NULL DEFAULT '',  -- the part played (Bloc by Bloc's factions)
    setup        TEXT    NOT NULL DEFAULT '',  -- the table's options in words
    rung         TEXT    NOT NULL DEFAULT '',  -- a solo game's ladder rung
    cooperative  INTEGER NOT NULL DEFAULT 0,
    rated        INTEGER NOT NULL,  -- 1: this seat's result moved its rating
    unrated_why  TEXT    NOT NULL DEFAULT '',
    turns        INTEGER NOT NULL DEFAULT 0,   -- turns the player took (runs of their own moves)
    turn_seconds REAL    NOT NULL DEFAULT 0,   -- the time those turns took, in all
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_by_user ON results (user_id, finished_at);
CREATE INDEX results_by_game ON results (guild_id, game, seq);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
