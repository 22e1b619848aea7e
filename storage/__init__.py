"""Persistence: SQLite via aiosqlite, or PostgreSQL via asyncpg (a ``postgresql://`` setting), with one set of
numbered migrations in ``storage/migrations``."""

from storage.db import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    ChannelBusy,
    Database,
    MoveRow,
    Owed,
    SeatRow,
    StaleVersion,
    StorageError,
    TableRow,
)

__all__ = ["ACTIVE", "CANCELLED", "FINISHED", "LOBBY", "ChannelBusy", "Database", "MoveRow", "Owed", "SeatRow",
           "StaleVersion", "StorageError", "TableRow"]
