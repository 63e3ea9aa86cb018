"""Which guilds' games a bot process serves: Discord's shard formula, in Python and in SQL.

A guild is on shard `(guild_id >> 22) % shard_count`; direct messages (and rows without a game
or a guild: housekeeping) are on shard 0, as Discord sends DMs to shard 0. A process started
with shard ids serves only the games of guilds on them: their interactions, their timers and
the messages they owe. `Shards()` (one shard) is every guild.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a shard count is at least 1")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @property
    def every_guild(self) -> bool:
        return set(self.ids) == set(range(self.count))

    def shard_of(self, guild_id: int | None) -> int:
        return ((guild_id or 0) >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

    def sql(self, guild_column: str) -> str:
        """A condition that holds for rows whose guild is on these shards ('TRUE' for all);
        `guild_column` may be NULL (no game, no guild: shard 0). Integers only: inlined."""
        if self.every_guild:
            return "TRUE"
        ids = ", ".join(str(int(i)) for i in sorted(set(self.ids)))
        return f"((COALESCE({guild_column}, 0) >> 22) % {int(self.count)}) IN ({ids})"

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


EVERY_GUILD = Shards()


def on_shards(shards: Shards | None, guild_column: str) -> str:
    """The SQL condition of `Shards.sql`, for a filter that may be None (every guild)."""
    return "TRUE" if shards is None else shards.sql(guild_column)


def qualified(columns: str, alias: str) -> str:
    """'id, kind' -> 't.id, t.kind': a column list for a query that joins another table."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))
