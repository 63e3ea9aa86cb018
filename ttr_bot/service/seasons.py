"""Seasons: a server's rated games fall into monthly or quarterly seasons (docs/seasons.md), off
until someone with Manage Server sets a period. A collaborator of the service's core with its
own store subject (`SeasonStore`); registers SeasonEnd with the scheduler.

Standings are placement points, read from the stored results of the rated games that finished
in the season (season_calendar.py: [start, end) in the server's time zone; a season that follows
a close counts from where that close ended, so a time zone or period changed next to a boundary
neither skips a game nor counts one twice): a player gets a point for every rated player who finished behind them in a game. Ties: wins, then the sum of
their scores. Nothing of a season is stored but its close, so a game counts in exactly one
season and the all-time ratings are untouched.

At a season's end (its durable timer) one post is owed through the outbox, in the transaction
that closes the season (`close_season`: once per season): the standings, the champion, and the
champion's role passing from the last champion to the new one where the server named a role.
The timers form a chain named by the settings' time (`SeasonSettings.updated_at`): a new
setting or time zone starts a new chain, and a timer of an older one does nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..store import (
    NewTimer,
    OutboxItem,
    Owed,
    ResultRecord,
    SeasonSettings,
    SeasonStore,
    Timer,
    season_store,
)
from .community_messages import SeasonEndPost, SeasonLine
from .core_contract import CoreContract
from .effects import ServiceError
from .messages import Lane
from .notify import BadSetting, zone_name
from .season_calendar import (
    PERIODS,
    Season,
    next_season,
    previous_season,
    season_at,
    season_named,
)

DEFAULT_ZONE = "UTC"
ZONE_SLACK = 26 * 3600.0     # the widest gap between two time zones' midnights (UTC-12, UTC+14)


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """The timer of a season's end: the server, the season, the chain it belongs to."""
    KIND: ClassVar[str] = "season_end"
    guild: int
    season: str
    chain: float

    def to_payload(self) -> dict[str, Any]:
        return {"guild": self.guild, "season": self.season, "chain": self.chain}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> SeasonEnd:
        return cls(int(payload["guild"]), str(payload["season"]), float(payload["chain"]))


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """A season as /ttr server season shows it (`lines` best first; empty: no rated game yet)."""
    season: Season
    zone: str
    lines: tuple[SeasonLine, ...]
    current: bool


def standings(results: list[ResultRecord]) -> tuple[SeasonLine, ...]:
    """The placement standings of these rated seats (several games' results)."""
    games: dict[int, list[ResultRecord]] = {}
    for r in results:
        games.setdefault(r.game_id, []).append(r)
    table: dict[int, dict[str, Any]] = {}
    for seats in games.values():
        # a player who left by /ttr leave is last, as the ratings rate them (ratings.placings)
        last = max(r.rank for r in seats) + 1
        place = {r.seat: last if r.handover == "left" else r.rank for r in seats}
        for r in seats:
            user = r.user_id if r.user_id is not None else r.former_user_id
            if user is None:
                continue
            row = table.setdefault(user, {"points": 0, "games": 0, "wins": 0, "score": 0,
                                          "name": str(user)})
            row["points"] += sum(1 for o in seats if place[o.seat] > place[r.seat])
            row["games"] += 1
            row["wins"] += 1 if r.won and place[r.seat] == r.rank else 0
            row["score"] += r.score
            row["name"] = r.name or row["name"]
    order = sorted(table, key=lambda u: (-table[u]["points"], -table[u]["wins"],
                                         -table[u]["score"], u))
    lines: list[SeasonLine] = []
    for i, user in enumerate(order):
        row = table[user]
        key = (row["points"], row["wins"], row["score"])
        rank = i + 1
        if lines and (lines[-1].points, lines[-1].wins, lines[-1].score) == key:
            rank = lines[-1].rank
        lines.append(SeasonLine(rank, user, row["name"], row["points"], row["games"],
                                row["wins"], row["score"]))
    return tuple(lines)


class Seasons:
    def __init__(self, core: CoreContract, store: SeasonStore | None = None) -> None:
        self.core = core
        self.store: SeasonStore = store if store is not None else season_store(core.store)
        core.scheduler.on(SeasonEnd.KIND, self._on_season_end)

    # ----- settings ---------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SeasonSettings | None:
        return await self.store.get_season_settings(guild_id)

    async def timezone(self, guild_id: int) -> str:
        """The server's time zone (/ttr server timezone), UTC without one."""
        return await self.store.get_guild_timezone(guild_id) or DEFAULT_ZONE

    async def set_timezone(self, guild_id: int, zone: str | None) -> str:
        """Set the server's time zone (None: back to UTC); the season's end moves with it.
        ServiceError for a name that is no time zone. Returns the zone now in force."""
        name = None
        if zone is not None:
            try:
                name = zone_name(zone)
            except BadSetting:
                raise ServiceError("service.season.bad_zone", zone=str(zone)[:60]) from None
        settings = await self.settings(guild_id)
        now = self._chain_time(settings)
        owed = None
        if settings is not None:
            # the season under way stays the one to close next, its end now in the new zone
            # (at once, when that moment has passed there): none is skipped
            pending = await self._pending(guild_id, settings.period,
                                          await self.timezone(guild_id), now)
            owed = self._timer(guild_id, season_named(pending.name, name or DEFAULT_ZONE), now)
        await self.store.set_guild_timezone(guild_id, name, now=now, owed=owed)
        self.core.committed(owed)
        return name or DEFAULT_ZONE

    async def set_period(self, guild_id: int, period: str | None, *, channel_id: int,
                         role_id: int | None, user_id: int) -> SeasonSettings | None:
        """Seasons on (`period`: monthly, quarterly; their end posted in `channel_id`, the
        champion given `role_id`) or off (None). The current season's end gets its timer."""
        if period is not None and period not in PERIODS:
            raise ServiceError("service.season.bad_period")
        now = self._chain_time(await self.settings(guild_id))
        owed = None if period is None else self._timer(
            guild_id, await self._pending(guild_id, period, await self.timezone(guild_id), now),
            now)
        await self.store.set_season_settings(guild_id, period, channel_id=channel_id,
                                             role_id=role_id, set_by=user_id, now=now, owed=owed)
        self.core.committed(owed)
        return await self.settings(guild_id)

    def _chain_time(self, settings: SeasonSettings | None) -> float:
        """Now, as the name of a new chain of season timers: never the last one's."""
        now = self.core.clock()
        return now if settings is None else max(now, settings.updated_at + 1e-3)

    @staticmethod
    def _timer(guild_id: int, season: Season, chain: float) -> Owed:
        return Owed(timers=(NewTimer(SeasonEnd.KIND, season.end,
                                     SeasonEnd(guild_id, season.name, chain).to_payload()),))

    async def _pending(self, guild_id: int, period: str, zone: str, now: float) -> Season:
        """The season under way: the one `now` is in, or the next not closed yet (a zone
        moved west after a close puts `now` back in the season just closed)."""
        closed = {c.season for c in await self.store.closed_seasons(guild_id)}
        season = season_at(now, period, zone)
        while season.name in closed:
            season = next_season(season, zone)
        return season

    async def _counted(self, guild_id: int, season: Season) -> Season:
        """`season` as the span of finishing times it counts: a closed one's as it was closed;
        an open one from the last close when that lies at its start (where a time zone or
        period changed since, the boundary stays where the close put it), else from its
        calendar's start; to its calendar's end."""
        closed = await self.store.closed_seasons(guild_id)
        mine = next((c for c in closed if c.season == season.name), None)
        if mine is not None:
            if mine.started_at is None or mine.ended_at is None:
                return season
            return replace(season, start=mine.started_at, end=mine.ended_at)
        last = next((c.ended_at for c in closed if c.ended_at is not None), None)
        start = season.start
        if last is not None and season.start - ZONE_SLACK <= last < season.end:
            start = last
        return replace(season, start=start, end=max(start, season.end))

    # ----- standings --------------------------------------------------------------------------
    async def standings(self, guild_id: int, *, previous: bool = False) -> SeasonStandings:
        """The current season's standings (or the last one's); ServiceError when seasons are
        off in this server."""
        settings = await self.settings(guild_id)
        if settings is None:
            raise ServiceError("service.season.off")
        zone = await self.timezone(guild_id)
        season = await self._pending(guild_id, settings.period, zone, self.core.clock())
        if previous:
            closed = await self.store.closed_seasons(guild_id, limit=1)
            season = season_named(closed[0].season, zone) if closed else \
                previous_season(season, zone)
        season = await self._counted(guild_id, season)
        return SeasonStandings(season, zone, await self.lines(guild_id, season), not previous)

    async def lines(self, guild_id: int, season: Season) -> tuple[SeasonLine, ...]:
        """The standings of the games that finished in [season.start, season.end)."""
        return standings(await self.store.season_results(guild_id, season.start, season.end))

    # ----- a season's end ---------------------------------------------------------------------
    async def _on_season_end(self, timer: Timer) -> None:
        due = SeasonEnd.from_payload(timer.payload)
        settings = await self.settings(due.guild)
        if settings is None or abs(settings.updated_at - due.chain) > 1e-6:
            return                      # seasons off, or set again since: another chain runs
        zone = await self.timezone(due.guild)
        ended = season_named(due.season, zone)
        if ended.end > self.core.clock():       # not over yet (the zone moved it): wait
            await self._arm(due.guild, ended, due.chain)
            return
        ended = await self._counted(due.guild, ended)
        lines = await self.lines(due.guild, ended)
        champion = lines[0].user_id if lines else None
        # who holds the role: the last season that had a champion (an empty one had none)
        closed = await self.store.closed_seasons(due.guild)
        previous = next((c.champion_id for c in closed if c.champion_id is not None), None)
        rows: tuple[OutboxItem, ...] = ()
        if lines:
            post = SeasonEndPost(due.guild, ended.name, lines, settings.role_id, previous)
            rows = (OutboxItem(post.KIND, str(Lane.channel(settings.channel_id)),
                               post.to_payload(), key=f"season:{due.guild}:{ended.name}"),)
        following = next_season(ended, zone)
        owed = Owed(rows, (NewTimer(SeasonEnd.KIND, following.end, SeasonEnd(
            due.guild, following.name, due.chain).to_payload()),))
        if await self.store.close_season(due.guild, ended.name, champion,
                                         now=self.core.clock(), owed=owed,
                                         span=(ended.start, ended.end)):
            self.core.committed(owed)

    async def _arm(self, guild_id: int, season: Season, chain: float) -> None:
        owed = Owed(timers=(NewTimer(SeasonEnd.KIND, season.end,
                                     SeasonEnd(guild_id, season.name, chain).to_payload()),))
        await self.store.write_owed(owed, None, self.core.clock())
        self.core.committed(owed)
