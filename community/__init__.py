"""Community play: ratings, records and tournaments, as pure values (no Discord, no I/O)."""
