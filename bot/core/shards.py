"""Which guilds this process serves, and so which periodic jobs are its own.

Past 2,500 servers Discord requires sharding: the gateway splits guilds between shards by
``(guild_id >> 22) % shard_count`` and a process connects with some of the shards. Several
processes then share one database; each runs the periodic work (reminders, deadlines, the
outbox, AI turns to resume) of the games whose guild is on one of its shards, so no job is
done twice and a restarted process picks up exactly its own pending jobs.

A game without a guild (none today; DMs are shard 0's on Discord) and the jobs that belong to
a user rather than to a game (a vacation that ends) are the *home* shard's: shard 0.
"""

from __future__ import annotations

from dataclasses import dataclass

HOME = 0  # the shard that receives DMs on Discord; it also owns user-level jobs


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards of one process: ``ids`` out of ``count`` (one process, one shard: 0/1)."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} out of 0..{self.count - 1}")

    @classmethod
    def of_process(cls, count: int | None, ids: tuple[int, ...] | None) -> Shards:
        """The settings' pair: nothing set is one shard; a count alone is all of its shards."""
        if count is None:
            return cls()
        return cls(count, frozenset(range(count) if ids is None else ids))

    def shard_of(self, guild_id: int | None) -> int:
        """Discord's rule for which shard receives a guild's events."""
        return HOME if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process does the periodic work of a game in this guild."""
        return self.shard_of(guild_id) in self.ids

    @property
    def home(self) -> bool:
        """Whether this process runs the user-level jobs (shard 0 is one of its shards)."""
        return HOME in self.ids

    def where(self, guild_column: str) -> tuple[str, list[int]]:
        """:meth:`owns` as an SQL condition on ``guild_column`` (``?`` marks and their values),
        the same in SQLite and PostgreSQL; always true when this process holds every shard."""
        if self.everything:
            return "1 = 1", []
        marks = ", ".join("?" * len(self.ids))
        return (f"COALESCE({guild_column} >> 22, 0) % ? IN ({marks})",
                [self.count, *sorted(self.ids)])

    @property
    def everything(self) -> bool:
        """One process serves every shard: no filter is needed."""
        return len(self.ids) == self.count


ALL = Shards()  # one process holding every guild: the default, and no filter at all
