-- The newest board message of a table: when the next board is posted, the bot takes the controls off this one,
-- so only the newest board has live buttons.
ALTER TABLE tables ADD COLUMN board_message_id INTEGER;
