-- The finished table a lobby is the rematch of: one rematch per game, wherever it is opened.
ALTER TABLE tables ADD COLUMN rematch_of INTEGER REFERENCES tables (id);
CREATE UNIQUE INDEX tables_one_rematch ON tables (rematch_of) WHERE rematch_of IS NOT NULL;
