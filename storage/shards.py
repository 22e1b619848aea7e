"""Gateway shards across processes (issue 26): which tables a process owns, as SQL.

Discord sends a guild's events to the shard ``(guild_id >> 22) % shard_count``, and direct messages to shard 0. A
bot process given some shards (``BLOCKHOUSE_SHARDS``, ``BLOCKHOUSE_SHARD_COUNT``) answers the interactions of their
guilds, and it alone runs what no interaction starts for those guilds' tables: the turn clock's time-outs and
reminders, the outbox's owed boards, the start-up catch-up of bots cut short, threads archived, tournaments' rounds.
A table without a guild (a DM's) falls on shard 0, as its DMs do. A process without shard settings owns everything
(:attr:`storage.db.Database.shards` None: no filter at all, today's SQL).

Ownership is a filter, not a guarantee: two processes given overlapping shards (a mistaken configuration, or a
re-shard while old processes still run) both select a table. What the clock and the outbox take on is therefore also
*claimed* in the database (:meth:`storage.db.Database.claim_due`, :meth:`~storage.db.Database.claim_reminders`,
:meth:`~storage.db.Database.claim_owed`), one statement each, with a lease that runs out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SNOWFLAKE_SHIFT = 22  # a Discord id's milliseconds start at bit 22: Discord's shard formula shifts them down


class ShardError(ValueError):
    """Shard settings that do not make sense (the message says why, in the settings' own words)."""


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` (sorted, distinct) out of ``count``."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ShardError(f"the shard count must be 1 or more, not {self.count}")
        if not self.ids:
            raise ShardError("a process needs at least one shard")
        if list(self.ids) != sorted(set(self.ids)):
            raise ShardError(f"shard ids must be sorted and distinct: {list(self.ids)}")
        out = [i for i in self.ids if not 0 <= i < self.count]
        if out:
            raise ShardError(f"shard {out[0]} is outside 0-{self.count - 1} (the shard count is {self.count})")

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        return cls(tuple(sorted(set(ids))), count)

    @property
    def everything(self) -> bool:
        """All the shards of the count: the same tables as no filter."""
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord sends ``guild_id``'s events to (a DM, without a guild: shard 0)."""
        return 0 if guild_id is None else (guild_id >> SNOWFLAKE_SHIFT) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

    def sql(self, column: str = "guild_id") -> str:
        """The condition "``column``'s guild falls on one of these shards", in SQL both backends run (``>>`` and
        ``%`` on 64-bit integers; a NULL guild is shard 0). The numbers are written in (they are the process's
        own, never user text): one statement text per process, prepared once."""
        marks = ", ".join(str(int(i)) for i in self.ids)
        return f"((COALESCE({column}, 0) >> {SNOWFLAKE_SHIFT}) % {int(self.count)}) IN ({marks})"


def parse_ids(text: str) -> list[int]:
    """``0-3``, ``0,2,5``, ``4``, ``0-1,6`` → the shard ids (raises :class:`ShardError` saying what is wrong)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ShardError(f"an empty item in {text!r}")
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ShardError(f"{part!r} is not a shard id (digits) nor a range of them (like 0-3)")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ShardError(f"the range {part!r} runs backwards")
        ids += range(first, last + 1)
    if len(set(ids)) != len(ids):
        raise ShardError(f"a shard is named twice in {text!r}")
    return ids


def mine(shards: Shards | None, column: str = "guild_id") -> str:
    """``" AND <ownership>"`` for a query's WHERE, or ``""`` when the process owns everything."""
    if shards is None or shards.everything:
        return ""
    return " AND " + shards.sql(column)
