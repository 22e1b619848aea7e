-- The newest board message of a table: when the next board is posted, the bot takes the controls off this one,
-- so only the newest board has live buttons.
ALTER TABLE tables ADD COLUMN board_message_id INTEGER;

-- The last ply the channel has been told about in a board. A move that continues the same seat's turn (Breaks:
-- the card just drawn is placed next) gets no board of its own; the board that ends the turn lists its events too.
ALTER TABLE tables ADD COLUMN announced_ply INTEGER NOT NULL DEFAULT 0;
