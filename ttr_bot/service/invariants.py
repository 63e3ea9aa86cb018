"""What every open game's timers must hold, checked and repaired: `resume` re-arms what is
missing at every start, and `python bot.py doctor` (bot.py) checks a database, `--repair`
re-arming the same way.

The invariant: every game has a pending timer for whatever it waits on, unless it waits on a
human with no deadline (that game's idle timer then closes it after 30 days of nothing):
  a computer player to move      a bot_move timer for the game's current seq
  a human to move, a deadline    a deadline timer for that very turn (phase, turn, seat)
  a human away, cover mode       a cover timer for that turn (when the game has no deadline)
  a human to move, a reminder    a remind timer for each reminder of that turn the schedule
  still due by the schedule      (turns.reminder_plan) puts later than now
  no deadline                    the idle timer
  an open vote                   its vote_expire timer
  a lobby                        its lobby_expire timer
A reminder's schedule starts when its turn began: the `started` of the turn's deadline timer
or reminders; with none left, the latest a turn's start can be known for sure (the last action
of another seat, or the lobby's opening during the starting ticket choice), so a reminder that
went out, or was dropped by the schedule's rules, is never expected again (the last of a turn
leaves none behind).
Repairs are the timers the change that owed them would have written, due when the original
would have been (or now, if that has passed); a duplicate is harmless (every handler checks
that what its timer is about is still so; a reminder goes out once). A collaborator of the
service's core.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from ..store import (
    CorruptData,
    GameLog,
    GameStore,
    NewTimer,
    OutboxStore,
    Owed,
    Shards,
    TimerStore,
    VoteStore,
)
from .core_contract import CoreContract
from .turns import (
    BOT_MOVE,
    COVER,
    DAY,
    DEADLINE,
    HOUR,
    IDLE,
    IDLE_DAYS,
    LOBBY_DAYS,
    LOBBY_EXPIRE,
    REMIND,
    VOTE_EXPIRE,
    BotMove,
    Deadline,
    RemindTimer,
    VoteExpire,
    is_turn,
    reminder_plan,
    reminder_timer,
    seat_turn_named,
    turn_of,
)


class InvariantStore(GameStore, GameLog, TimerStore, VoteStore, OutboxStore, Protocol):
    """The store's subjects this part uses: open games, their last moves, timers and votes, what a
    repair owes."""


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Problem:
    """One missing timer: the game, a plain sentence for an operator, what re-arms it."""
    game_id: int
    text: str
    timer: NewTimer

    def line(self, repaired=False):
        return f"game {self.game_id}: {self.text}" + (" (re-armed)" if repaired else "")


class TimerInvariants:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: InvariantStore = core.store

    async def check_timers(self, *, repair: bool = False,
                           shards: Shards | None = None) -> list[Problem]:
        """The Problems of every open game (of `shards`; None: this service's), each
        re-armed when `repair`."""
        shards = self.core.shards if shards is None else shards
        problems = []
        for game_id in await self.store.list_active_game_ids(include_lobbies=True,
                                                             shards=shards):
            try:
                problems += await self.check_game_timers(game_id, repair=repair)
            except CorruptData as exc:      # one line: the game and the damage, no traceback
                log.error("game %s cannot be loaded (%s): restore the database from a backup",
                          game_id, exc)
            except Exception:
                log.exception("could not check the timers of game %s", game_id)
        return problems

    async def check_game_timers(self, game_id: int, *, repair: bool = False) -> list[Problem]:
        async with self.core.lock(game_id):
            self.core.forget(game_id)
            hosted = await self.core.load(game_id)
            if hosted is None or not hosted.is_open:
                return []
            problems = await self._missing_timers(hosted)
            if repair and problems:
                owed = Owed(timers=tuple(p.timer for p in problems))
                await self.store.write_owed(owed, hosted.id, self.core.clock())
                self.core.committed(owed)
                for p in problems:
                    log.warning("%s", p.line(repaired=True))
            return problems

    async def _missing_timers(self, hosted):
        now = self.core.clock()
        timers = await self.store.list_timers(hosted.id)
        kinds = {}
        for t in timers:
            kinds.setdefault(t.kind, []).append(t)
        out = []

        def missing(text, kind, due_at, payload):
            out.append(Problem(hosted.id, text, NewTimer(kind, max(now, due_at), payload)))

        if hosted.is_lobby:
            if not kinds.get(LOBBY_EXPIRE):
                missing("a lobby with no lobby_expire timer (it would stay open for ever)",
                        LOBBY_EXPIRE, hosted.updated_at + LOBBY_DAYS * DAY, {})
            return out
        game, opts = hosted.game, hosted.settings
        if game is None or game.over:
            return out
        for seat in game.to_move():
            info = hosted.seats[seat]
            if info.is_bot:
                if not any(BotMove.from_payload(t.payload).seq == hosted.seq
                           for t in kinds.get(BOT_MOVE, ())):
                    missing(f"computer seat {seat + 1} is to move at seq {hosted.seq} with no "
                            "bot_move timer", BOT_MOVE, now + self.core.bot_delay,
                            BotMove(hosted.seq).to_payload())
                continue
            key = turn_of(game, seat)
            if opts.deadline:
                if not any(seat_turn_named(game, seat, t.payload)
                           for t in kinds.get(DEADLINE, ())):
                    limit = opts.deadline * HOUR
                    missing(f"seat {seat + 1} ({info.name}) is to move with a "
                            f"{opts.deadline} h deadline and no deadline timer for that turn",
                            DEADLINE, hosted.updated_at + limit,
                            Deadline(key, hosted.updated_at, limit).to_payload())
            elif opts.away == "cover" and info.user_id is not None and \
                    await self.core.away_of(hosted, info.user_id, now) is not None:
                if not any(seat_turn_named(game, seat, t.payload)
                           for t in kinds.get(COVER, ())):
                    missing(f"seat {seat + 1} ({info.name}) is away (cover) and to move with "
                            "no cover timer", COVER, now + self.core.bot_delay, key.payload())
            out += await self._missing_reminders(hosted, seat, key, kinds, now)
        if not opts.deadline and not kinds.get(IDLE):
            missing("no deadline and no idle timer (it would never be closed)", IDLE,
                    hosted.updated_at + IDLE_DAYS * DAY, {})
        vote = await self.store.open_vote_of(hosted.id)
        if vote is not None and not any(VoteExpire.from_payload(t.payload).vote == vote.id
                                        for t in kinds.get(VOTE_EXPIRE, ())):
            missing(f"vote {vote.id} is open with no vote_expire timer", VOTE_EXPIRE,
                    vote.expires_at, VoteExpire(vote.id).to_payload())
        return out

    async def _missing_reminders(self, hosted, seat, key, kinds, now):
        """The reminders of `seat`'s turn still due by the schedule with no timer."""
        opts = hosted.settings
        mine = [t for t in kinds.get(REMIND, ())
                if seat_turn_named(hosted.game, seat, t.payload)]
        started = await self._turn_began(hosted, seat, key, kinds, mine)
        if started is None:
            return []
        have = {r.n for r in map(RemindTimer.from_payload, (t.payload for t in mine)) if r}
        deadline = started + opts.deadline * HOUR if opts.deadline else None
        info = hosted.seats[seat]
        return [Problem(hosted.id, f"seat {seat + 1} ({info.name}) is to move with reminder "
                        f"{n} of the turn due and no remind timer for it",
                        reminder_timer(key, n, at, started, deadline))
                for n, at in reminder_plan(opts, started) if at > now and n not in have]

    async def _turn_began(self, hosted, seat, key, kinds, reminders):
        """When `seat`'s current turn began, or the latest it can have begun (None: unknown).
        Of several starts (a seat handed over and back), the earliest: a reminder is expected
        only where it surely is."""
        typed = [*(Deadline.from_payload(t.payload) for t in kinds.get(DEADLINE, ())),
                 *(RemindTimer.from_payload(t.payload) for t in reminders)]
        starts = [x.started for x in typed if x is not None and x.key.seat == seat
                  and is_turn(hosted.game, x.key) and x.started is not None]
        if starts:
            return min(starts)
        if hosted.settings.deadline:
            return hosted.updated_at        # as the deadline's own repair has it
        if key.phase == "setup":         # every seat's began at the start, after the lobby
            row = await self.store.get_game(hosted.id)
            return row.created_at if row is not None else None
        # in play, a turn begins with the action that ends the one before it: another seat's
        # (or a bot's for an absent player, which is not counted: earlier is safe)
        return await self.store.last_acted_at(hosted.id, seat)
