"""/ttr me away: a player's deadlines in every game of one server wait while they are away (or a
computer player covers their turns: the host's choice per game, `away` at /ttr new), and the
others see "away until ...". A collaborator of the service's core; registers AWAY_END with the
scheduler.

Away has an end: one period is 1-14 days, and renewing it cannot make a player away for more
than 14 days in any 30 (AWAY_WINDOW_DAYS): a renewal asking for more is refused with the days
still allowed. Pause: time away does not count. A deadline that comes while they are away is moved to their
return plus what was left of it when they went (absence.py); when they come back (at the end
of the period, or early with /ttr me away 0), a deadline still running gets back the time they
were away during it. Cover: every turn of theirs while away is played by a medium computer
player after the usual short pause, without counting as a timeout.
"""
from __future__ import annotations

from typing import Protocol

from ..store import Away, AwayStore, GameStore, NewTimer, OutboxStore, Owed, TimerStore
from .core_contract import CoreContract
from .effects import ServiceError
from .owed import notice_row
from .turns import (
    AWAY_END,
    AWAY_WINDOW_DAYS,
    COVER,
    DAY,
    DEADLINE,
    MAX_AWAY_DAYS,
    AwayEnd,
    Deadline,
    is_turn,
    turn_of,
)


class AwayStoreOf(AwayStore, TimerStore, GameStore, OutboxStore, Protocol):
    """The store's subjects this part uses: away periods, their timers, the user's games, what a
    change owes."""


class AwayPeriods:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: AwayStoreOf = core.store
        core.scheduler.on(AWAY_END, self._on_away_end)

    async def set_away(self, user_id: int, guild_id: int | None, days: int) -> Away | None:
        """Away for `days` (1-14) from now; 0 ends an away period early. Returns the Away, or
        None when ended."""
        if guild_id is None:
            raise ServiceError("service.no_game")
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise ServiceError("service.away_days", max=MAX_AWAY_DAYS)
        if days == 0:
            await self.end_away(user_id, guild_id)
            return None
        now = self.core.clock()
        until = now + days * DAY
        left = await self.away_days_left(user_id, guild_id, until)
        if days * DAY > left + 1e-6:
            raise ServiceError("service.away_limit", max=MAX_AWAY_DAYS, window=AWAY_WINDOW_DAYS,
                               count=int(left // DAY))
        games = await self._seated_games(user_id, guild_id)
        rows, timers = [], [NewTimer(AWAY_END, until, AwayEnd(user_id, guild_id, until).to_payload())]
        for hosted in games:
            seat = hosted.seat_of(user_id)
            rows.append(notice_row(hosted, "bot.away.set", name=hosted.seats[seat].name,
                                   until=f"<t:{int(until)}:f>"))
            if hosted.settings.away == "cover" and hosted.is_active and \
                    seat in hosted.game.to_move():
                timers.append(NewTimer(COVER, now + self.core.bot_delay,
                                       turn_of(hosted.game, seat).payload(), game_id=hosted.id))
        owed = Owed(tuple(rows), tuple(timers))
        await self.store.set_away(user_id, guild_id, now, until, owed=owed,
                                  forget_before=now - AWAY_WINDOW_DAYS * DAY)
        self.core.committed(owed)
        return await self.store.get_away(user_id, guild_id)

    async def away_days_left(self, user_id: int, guild_id: int, until: float) -> float:
        """How long (seconds) a period starting now and ending by `until` may last: 14 days
        less what the player was away in the 30 days before `until` (the window that holds
        the most of their past, since the new period is the latest), the running period's
        time so far included."""
        now, start = self.core.clock(), until - AWAY_WINDOW_DAYS * DAY
        taken = await self.store.away_taken(user_id, guild_id, start)
        running = await self.store.get_away(user_id, guild_id)
        if running is not None:     # the log holds ended periods; this one, up to now
            taken.append((running.since, min(running.until, now)))
        used = sum(max(0.0, b - max(a, start)) for a, b in taken)
        return max(0.0, MAX_AWAY_DAYS * DAY - used)

    async def end_away(self, user_id: int, guild_id: int,
                       until: float | None = None) -> None:
        """Back early (or the period is over: `until` is the period's end, and a newer period
        is left alone). Returns None."""
        away = await self.store.get_away(user_id, guild_id)
        if away is None or (until is not None and abs(away.until - until) > 1e-6):
            return None
        now = self.core.clock()
        rows, extra = [], []
        for hosted in await self._seated_games(user_id, guild_id):
            seat = hosted.seat_of(user_id)
            rows.append(notice_row(hosted, "bot.away.back", name=hosted.seats[seat].name))
            if hosted.is_active and seat in hosted.game.to_move():
                extra += await self._credit_deadline(hosted, seat, away, now)
        owed = Owed(tuple(rows))
        await self.store.clear_away(user_id, guild_id, owed=owed, now=now)
        self.core.committed(owed)
        for game_id, timer, due in extra:
            owed = Owed(timers=(NewTimer(DEADLINE, due, timer.payload),))
            await self.store.delete_timer(timer.id)
            await self.store.write_owed(owed, game_id, now)
            self.core.committed(owed)
        return None

    async def _credit_deadline(self, hosted, seat, away, now):
        """(game, timer, new due) for the running deadline of `seat`'s turn."""
        out = []
        for timer in await self.store.list_timers(hosted.id, DEADLINE):
            d = Deadline.from_payload(timer.payload)
            if d is None or d.key.seat != seat or not is_turn(hosted.game, d.key):
                continue
            if d.pushed:               # moved to the end of the period: comes back with them
                due = now + max(0.0, timer.due_at - away.until)
            else:                      # still running: give back the time they were away
                started = now if d.started is None else d.started
                due = timer.due_at + max(0.0, now - max(away.since, started))
            out.append((hosted.id, timer, due))
        return out

    async def _seated_games(self, user_id, guild_id):
        out = []
        for row in await self.store.games_of_user(user_id, guild_id):
            hosted = await self.core.load(row.id)
            if hosted is not None and hosted.is_open and hosted.seat_of(user_id) is not None:
                out.append(hosted)
        return out

    async def away_of(self, user_id: int, guild_id: int) -> Away | None:
        """The user's away period in the guild, if one is running."""
        away = await self.store.get_away(user_id, guild_id)
        return away if away is not None and away.until > self.core.clock() else None

    async def _on_away_end(self, timer):
        end = AwayEnd.from_payload(timer.payload)
        await self.end_away(end.user, end.guild, until=end.until)
