"""Absent players and forgotten games: what the service's timers do when they fire, a player
taking their seat back, players who left the server, channels that were deleted.

Every handler first checks, under the game's lock, that what its timer is about is still so (the
same turn, a human still in the seat, the lobby still open...), so a timer fired twice, late,
or by two processes at once does its work once: the action log's expected seq decides any race
for a turn, and the turn-ending action counts the timeout in the same transaction.
A collaborator of the service's core (host.py); the lobby's timers are lobby.py's, a vote's
votes.py's, an away period's end away.py's.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Protocol

from ..store import GameStore, NewTimer, NotFound, OutboxStore, Owed, PrefStore, SeatStore
from .core_contract import CoreContract
from .delivery_queue import DeliveryQueue
from .effects import ServiceError
from .handover import SeatHandover
from .hosted import LOBBY, HostedGame
from .levels import LEAVE_LEVEL
from .messages import Reminder
from .moves import Moves
from .notify import how_of, quiet_until
from .owed import (
    channel_lane,
    channel_row,
    hand_row,
    notice_row,
    owed_row,
    user_lane,
)
from .turns import (
    BOT_MOVE,
    COVER,
    DAY,
    DEADLINE,
    EXPEL,
    IDLE,
    IDLE_DAYS,
    REMIND,
    REMIND_GAP,
    REMIND_MARGIN,
    TIMEOUTS_TO_EXPEL,
    BotMove,
    Deadline,
    Expel,
    RemindTimer,
    TurnKey,
    is_turn,
    turn_named,
)


class AbsenceStore(GameStore, SeatStore, PrefStore, OutboxStore, Protocol):
    """The store's subjects this part uses: games and seats (a host handed on, a seat given up),
    users' preferences, what a change owes."""


log = logging.getLogger(__name__)
TIMEOUT_LEVEL = "medium"    # who plays a timed-out turn: fair, neither a gift nor a punishment
MAX_TURN_ACTIONS = 12       # a turn is at most a few actions (two cards; a tunnel; tickets)


class TurnNotEnded(RuntimeError):
    """A turn played for an absent player did not end within MAX_TURN_ACTIONS actions."""


class Absence:
    """The timers of a turn's clock and of forgotten games, and players who are gone.

    Holds the core; `moves` plays a computer player's move (BOT_MOVE), `handover` gives an
    expelled or departed player's seat to a computer. Registers BOT_MOVE, DEADLINE, COVER,
    REMIND, EXPEL and IDLE with the scheduler."""

    def __init__(self, core: CoreContract, *, moves: Moves, handover: SeatHandover,
                 queue: DeliveryQueue) -> None:
        self.core = core
        self.store: AbsenceStore = core.store
        self.moves = moves
        self.handover = handover
        self.queue = queue          # a deleted channel's owed posts are given up
        for kind, handler in ((BOT_MOVE, self._on_bot_move), (DEADLINE, self._on_deadline),
                              (REMIND, self._on_remind), (COVER, self._on_cover),
                              (EXPEL, self._on_expel), (IDLE, self._on_idle)):
            core.scheduler.on(kind, handler)

    async def _on_bot_move(self, timer):
        await self.moves.play_bot(timer.game_id, BotMove.from_payload(timer.payload).seq,
                                  safe=self.core.scheduler.last_try(timer))

    # ----- a turn's clock --------------------------------------------------------------------
    async def _human_turn(self, game_id: int, key: TurnKey | None):
        """The game and the seat's user if the turn `key` names is still a human's to play."""
        self.core.forget(game_id)    # another process may have moved it: read the store
        hosted = await self.core.load(game_id)
        if key is None or hosted is None or not hosted.is_active or not is_turn(hosted.game, key):
            return None, None
        user = hosted.seats[key.seat].user_id
        return (hosted, user) if user is not None else (None, None)

    async def _on_deadline(self, timer):
        d = Deadline.from_payload(timer.payload)
        async with self.core.lock(timer.game_id):
            hosted, user = await self._human_turn(timer.game_id, d and d.key)
            if hosted is None or d is None:
                return
            now = self.core.clock()
            away = await self.core.away_of(hosted, user, now)
            if away is not None and hosted.settings.away == "pause":
                # time away does not count: what was left when they went away waits for them
                left = min(d.limit, timer.due_at - max(away.since, d.started))
                owed = Owed(timers=(NewTimer(DEADLINE, away.until + left,
                                             replace(d, pushed=True).to_payload()),))
                await self.store.write_owed(owed, hosted.id, now)
                self.core.committed(owed)
                return
            await self._play_turn_for(hosted, d.key, "timeout",
                                      safe=self.core.scheduler.last_try(timer))

    async def _on_cover(self, timer):
        key = TurnKey.of(timer.payload)             # {phase, turn, seat}
        async with self.core.lock(timer.game_id):
            hosted, user = await self._human_turn(timer.game_id, key)
            if hosted is None or key is None or hosted.settings.away != "cover":
                return
            if await self.core.away_of(hosted, user, self.core.clock()) is None:
                return
            await self._play_turn_for(hosted, key, "away",
                                      safe=self.core.scheduler.last_try(timer))

    async def _play_turn_for(self, hosted: HostedGame, key: TurnKey, by: str, *,
                             safe: bool = False) -> None:
        """Under the lock: a medium computer player plays the rest of `key`'s turn for its
        absent player (the seat stays theirs). `safe`: the timer's last try, after its
        decisions kept failing (a worker that hangs or cannot start): the turn is played as
        `easy` plays it, in this process, as a computer seat's last try is. A turn not ended
        after MAX_TURN_ACTIONS raises TurnNotEnded: its timer stays, tried again later."""
        seat = key.seat
        if safe:
            log.warning("game %s: the %s turn of seat %s is played as %s does, in this process "
                        "(its decision failed every try)", hosted.id, by, seat, "easy")
        for _ in range(MAX_TURN_ACTIONS):
            if not is_turn(hosted.game, key):
                return
            seed = self.core.agent_seed(hosted, seat)
            action = (self.core.decide_safely(seed, hosted.view(seat)) if safe else
                      await self.core.decide(TIMEOUT_LEVEL, seed, hosted.view(seat)))
            try:
                await self.core.apply(hosted, action, seat, by=by)
            except ServiceError as exc:
                if exc.key != "service.stale":
                    raise
                self.core.forget(hosted.id)      # another process moved it: read it again
            again = await self.core.load(hosted.id)
            if again is None or not again.is_active:
                return
            hosted = again
        # not ended (a write that kept losing a race, a decision that never ends a turn): the
        # timer must not be dropped, so this firing fails and the scheduler tries it again
        # with backoff, its last try played as `easy`; the actions taken so far stand
        raise TurnNotEnded(f"game {hosted.id}: the {by} turn of seat {seat} did not end after "
                           f"{MAX_TURN_ACTIONS} actions")

    async def _on_remind(self, timer):
        """A reminder of the turn's schedule (turns.reminder_plan) is due. None for a player
        away or who wants none; never within a day of the turn's previous reminder (then a day
        after it), never in their quiet hours (then when they end), and never later than
        REMIND_MARGIN before the deadline (then dropped); once per reminder."""
        r = RemindTimer.from_payload(timer.payload)
        async with self.core.lock(timer.game_id):
            hosted, user = await self._human_turn(timer.game_id, r and r.key)
            if hosted is None or r is None:
                return
            now = self.core.clock()
            deadline = r.deadline

            async def later(at):
                if deadline is None or at <= deadline - REMIND_MARGIN:
                    owed = Owed(timers=(NewTimer(REMIND, at, r.to_payload()),))
                    await self.store.write_owed(owed, hosted.id, now)
                    self.core.committed(owed)

            if deadline is not None and now > deadline - REMIND_MARGIN:
                return      # too near the deadline (or past it, after downtime): none now
            if await self.core.away_of(hosted, user, now) is not None:
                return
            prefs = await self.store.get_user(user)
            notify = prefs.notify if prefs else {}
            how = how_of(notify)
            if how == "none":
                return
            turn_key = f"remind:{hosted.id}:{r.key.phase}:{r.key.turn}:{r.key.seat}:"
            if await self.store.last_owed_at(hosted.id, f"{turn_key}{r.n}") is not None:
                return      # this one was owed already (a duplicate timer): once each
            last = await self.store.last_owed_at(hosted.id, turn_key)
            if last is not None and last + REMIND_GAP > now:
                await later(last + REMIND_GAP)   # one held back by quiet hours moves the next
                return
            quiet = quiet_until(notify, now)
            if quiet is not None:       # held back until their quiet hours end
                await later(quiet)
                return
            reminder = Reminder(seat=r.key.seat, user=user, deadline=r.deadline, n=r.n,
                                guild=hosted.guild_id, phase=r.key.phase, turn=r.key.turn)
            key = f"{turn_key}{r.n}"
            if how in ("dm", "both"):
                reminder = replace(reminder, key="bot.remind.dm", game=hosted.id,
                                   params={"channel": f"<#{hosted.channel_id}>"})
                row = owed_row(user_lane(user), reminder, key=key, game_id=hosted.id)
            else:
                row = channel_row(hosted, reminder, key=key)
            owed = Owed((row,))
            await self.store.write_owed(owed, hosted.id, now)
            self.core.committed(owed)

    def reminder_still_due(self, hosted: HostedGame, reminder: Reminder) -> bool:
        """Whether a reminder owed earlier (messages.Reminder) is still to be delivered: the
        turn it is about is still that player's (re-checked when it is sent; rows from before
        the turn was named in them are delivered)."""
        return reminder.phase is None or turn_named(hosted.game, reminder.turn_key())

    async def _on_expel(self, timer):
        """Three turns in a row ran out: a computer player takes the seat (the player may take
        it back with /ttr return)."""
        async with self.core.lock(timer.game_id):
            self.core.forget(timer.game_id)
            hosted = await self.core.load(timer.game_id)
            expel = Expel.from_payload(timer.payload)
            if hosted is None or not hosted.is_active or expel is None:
                return
            seat = expel.seat
            info = hosted.seats[seat]
            if info.is_bot or info.timeouts < TIMEOUTS_TO_EXPEL:
                return      # they came back meanwhile
            await self.handover.hand_over(hosted, seat, LEAVE_LEVEL, reason="timeout", by=None,
                                          allow_last=True)

    async def return_seat(self, game_id: int, user_id: int, name: str) -> HostedGame | None:
        """/ttr return: the player whose seat went to a computer after their time ran out takes
        it back; if it is that seat's turn now, it is theirs to play (its clock starts again)."""
        async with self.core.lock(game_id):
            hosted = await self.core.active(game_id)
            seat = next((i for i, s in enumerate(hosted.seats)
                         if s.former_user_id == user_id and s.handover == "timeout"), None)
            if seat is None:
                raise ServiceError("service.return_nothing")
            now = self.core.clock()
            after = replace(hosted, seats=tuple(
                replace(s, user_id=user_id, level=None, name=name, former_user_id=None,
                        handover=None, timeouts=0) if i == seat else s
                for i, s in enumerate(hosted.seats)))
            turn, fields = await self.core.owing.for_seat_change(after, seat, now)
            rows = (notice_row(hosted, "bot.return.done", name=name),) + turn.outbox
            if not turn.outbox:
                rows += (hand_row(after, seat, None),)
            owed = Owed(rows, turn.timers, turn.drop_timers)
            try:
                await self.core.write_game(hosted.id, self.store.return_seat(
                    hosted.id, hosted.seats[seat].number, user_id=user_id, display_name=name,
                    now=now, owed=owed), owed)
            except NotFound:
                raise ServiceError("service.return_nothing") from None
            return await self.core.reload(game_id)

    # ----- players who left, channels that are gone, games nobody plays --------------------
    async def member_left(self, guild_id: int, user_id: int) -> int:
        """The user is no longer a member of the server (Discord answered 10007 Unknown Member
        where the bot looked them up): in their open games there, a lobby loses their seat (a
        host's lobby passes to the next human, or closes), a game in play hands their seat to
        a computer player (the host's powers pass on). Returns how many games changed."""
        changed = 0
        for row in await self.store.games_of_user(user_id, guild_id):
            async with self.core.lock(row.id):
                hosted = await self.core.reload(row.id)
                seat = hosted.seat_of(user_id) if hosted is not None else None
                if seat is None or not hosted.is_open:
                    continue
                changed += 1
                if hosted.status == LOBBY:
                    await self._leave_lobby(hosted, seat)
                else:
                    await self.handover.hand_over(hosted, seat, LEAVE_LEVEL, reason="left_server",
                                                  by=None, allow_last=True)
        return changed

    async def _leave_lobby(self, hosted, seat):
        others = [s for i, s in enumerate(hosted.seats) if i != seat and not s.is_bot]
        if not others:
            await self.core.cancel(hosted, reason="host_left")
            return
        host_id, owed = None, None
        if hosted.seats[seat].user_id == hosted.host_id:     # the next human hosts, and is told
            host_id = others[0].user_id
            owed = Owed((notice_row(hosted, "bot.seat.host", mention=f"<@{host_id}>"),))
        await self.core.write_game(hosted.id, self.store.leave_lobby(
            hosted.id, hosted.seats[seat].number, host_id=host_id, owed=owed,
            now=self.core.clock()), owed)

    async def host_gone(self, game_id: int) -> bool:
        """The host is no longer a member (checked by the adapter): the next human becomes
        host. True if something changed."""
        hosted: Any = await self.core.load(game_id)
        if hosted is None or not hosted.is_open:
            return False
        return await self.member_left(hosted.guild_id, hosted.host_id) > 0

    async def channel_gone(self, channel_id: int) -> int | None:
        """The game's channel or thread was deleted: the game is closed as abandoned, its
        players told by DM; its record and results stay. What the channel still owed is given
        up (the players of a game that ended there unseen are told by DM). The game id closed,
        or None."""
        hosted = await self.core.game_in_channel(channel_id)
        closed = None
        if hosted is not None:
            async with self.core.lock(hosted.id):
                hosted = await self.core.reload(hosted.id)
                if hosted is not None and hosted.is_open:
                    await self.core.cancel(hosted, reason="channel_gone",
                                           dm_key="bot.closed.channel_gone")
                    closed = hosted.id
        await self.queue.fail_lane(channel_lane(channel_id), "channel gone", told=closed)
        self.core.forget_channel(channel_id)
        return closed

    async def _on_idle(self, timer):
        async with self.core.lock(timer.game_id):
            self.core.forget(timer.game_id)
            hosted = await self.core.load(timer.game_id)
            if hosted is None or not hosted.is_active or hosted.settings.deadline:
                return
            if hosted.updated_at > self.core.clock() - IDLE_DAYS * DAY + 1:
                # something happened since: 30 days from then (a move writes its own idle
                # timer, but not everything that changes a game does: a seat handed over)
                owed = Owed(timers=(NewTimer(IDLE, hosted.updated_at + IDLE_DAYS * DAY, {}),))
                await self.store.write_owed(owed, hosted.id, self.core.clock())
                self.core.committed(owed)
                return
            await self.core.cancel(hosted, reason="abandoned", dm_key="bot.closed.abandoned")
