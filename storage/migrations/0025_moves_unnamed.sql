-- A move that answered a question whose asking is secret (engine Decision.unnamed: Bloc by Bloc's Lookouts,
-- Communiqué, Police Scanner, asked only of a card's holder): /log and /board move: show it without its player's
-- name or its notation while the game runs.
ALTER TABLE moves ADD COLUMN unnamed INTEGER NOT NULL DEFAULT 0;
