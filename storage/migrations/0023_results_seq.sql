-- A game's end numbers its results after the last game's (MAX(seq)): an index answers that without reading every
-- result ever stored.
CREATE INDEX results_by_seq ON results (seq);
