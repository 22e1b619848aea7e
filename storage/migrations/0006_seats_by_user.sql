-- /mygames finds a player's tables by their user id.
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
