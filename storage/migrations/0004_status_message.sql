-- The channel's status message of the turn in progress, in a game of simultaneous private picks (BLOCK): one
-- message per turn, edited as players finish, instead of a message per finished player. status_turn says which
-- turn it belongs to (the ply up to which the moves were public when it was posted).
ALTER TABLE tables ADD COLUMN status_message_id INTEGER;
ALTER TABLE tables ADD COLUMN status_turn INTEGER;
