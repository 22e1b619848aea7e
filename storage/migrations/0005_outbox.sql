-- What must be posted for a committed move, written in the move's own transaction: "the table at this version has
-- a board to post". Delivered rows get delivered_at; rows left undelivered (the process died between the commit
-- and the post, or Discord refused it) are posted at the next start-up. A newer board covers older ones.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables(id),
    version INTEGER NOT NULL,
    first_ply INTEGER NOT NULL,
    last_ply INTEGER NOT NULL,
    created_at REAL NOT NULL,
    delivered_at REAL
);
CREATE INDEX outbox_undelivered ON outbox(table_id) WHERE delivered_at IS NULL;
