-- A channel's tables, newest first (/move, /board, /log after a game ended; the lobby's "is this channel free"):
-- the partial unique index only covers a channel's open table.
CREATE INDEX tables_by_channel ON tables (channel_id, id);
