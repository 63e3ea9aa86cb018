"""Time in a game: the options chosen at /ttr new (deadline per turn, reminders, what happens
while a player is away), which turn is whose, and the timers each new turn needs.

Timer kinds (rows in the store, fired by the scheduler, handled in absence.py):
  bot_move      a computer player's move after a short pause {seq}
  deadline      a turn's time runs out: a medium computer player plays that one turn
                {phase, turn, seat, started, limit}
  remind        the player to move has not moved {phase, turn, seat, n, deadline, started}
  cover         a player away (cover mode) is to move: a computer plays for them {phase, turn, seat}
  expel         three turns in a row ran out: the seat goes to a computer player {seat, timeouts}
  idle          no action for 30 days in a game without a deadline: closed as abandoned
  lobby_warn, lobby_expire   a lobby not started: the host is warned, then it is closed
  vote_expire   a vote's 24 hours are over {vote}
  away_end      a player's away period is over {user, guild, until} (no game)
Each of these kinds' payload is typed (`Deadline`, `RemindTimer`, `BotMove`, `Expel`,
`VoteExpire`, `AwayEnd`; a cover timer's is its `TurnKey`): to_payload writes the JSON above,
from_payload reads it, an older one's missing fields as None. The lobby's timers carry none.
Every handler checks that what its timer is about is still so (the same turn, the same seq, an
open vote...), so a timer that fires twice or late does nothing the second time.

A turn is named by (phase, turn number, seat): during the starting ticket choice every seat has
its own ("setup", 0, seat); in play the engine counts turns.
"""
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..store import NewTimer

BOT_MOVE, DEADLINE, REMIND, COVER, EXPEL, IDLE = (
    "bot_move", "deadline", "remind", "cover", "expel", "idle")
LOBBY_WARN, LOBBY_EXPIRE, VOTE_EXPIRE, AWAY_END = (
    "lobby_warn", "lobby_expire", "vote_expire", "away_end")
TURN_KINDS = (DEADLINE, REMIND, COVER, IDLE)    # replaced when a turn ends

HOUR, DAY = 3600.0, 86400.0
DEADLINES = (0, 12, 24, 48, 72, 168)            # hours; 0: none
# Two days a turn: long enough for a busy day, a weekend day and players on the other side of
# the world, short enough that a player who vanished costs the others at most two days a turn
# (and after three such turns, six days, a computer takes the seat).
DEFAULT_DEADLINE = 48
REMINDS = (0, 12, 24, 48)                       # hours before the first reminder; 0: none
DEFAULT_REMIND = 24                             # a day without a move: one nudge, not a nag
MAX_REMINDERS = 3                               # per turn
REMIND_AT = (0.5, 0.8)                          # of the deadline (see reminder_plan)
REMIND_GAP = DAY                                # never two reminders of a turn within a day
REMIND_MARGIN = 2 * HOUR                        # none later than this before the deadline
AWAY_MODES = ("pause", "cover")
DEFAULT_AWAY = "pause"                          # friends wait for a friend on holiday
MAX_AWAY_DAYS = 14                              # one period; and in all, in any AWAY_WINDOW_DAYS
AWAY_WINDOW_DAYS = 30                           # renewing cannot hold games longer than that
TIMEOUTS_TO_EXPEL = 3
IDLE_DAYS = 30
LOBBY_DAYS, LOBBY_WARN_DAYS = 7, 6
VOTE_HOURS = 24


@dataclass(frozen=True)
class GameOptions:
    deadline: int = 0           # hours per turn, 0: none (games made before deadlines existed)
    remind: int = DEFAULT_REMIND
    away: str = DEFAULT_AWAY

    @classmethod
    def of(cls, options):
        options = options or {}
        deadline = options.get("deadline", 0)
        remind = options.get("remind", DEFAULT_REMIND)
        away = options.get("away", DEFAULT_AWAY)
        return cls(deadline if deadline in DEADLINES else 0,
                   remind if remind in REMINDS else DEFAULT_REMIND,
                   away if away in AWAY_MODES else DEFAULT_AWAY)

    def to_dict(self):
        return {"deadline": self.deadline, "remind": self.remind, "away": self.away}


@dataclass(frozen=True)
class TurnKey:
    """One seat's turn by name: the ticket choice at the start (phase "setup", turn 0) or a turn
    of play by its number. A turn's timers store it as their first three fields (`payload`,
    the JSON every version has written); `of` reads it back from such a payload."""
    phase: str | None       # None, a turn number None: read from a payload lacking them
    turn: int | None
    seat: int

    @classmethod
    def of(cls, payload: Mapping[str, Any]) -> "TurnKey | None":
        """The key a timer's payload (or a reminder's) names; None when it names no seat."""
        seat = payload.get("seat")
        if seat is None:
            return None
        return cls(payload.get("phase"), payload.get("turn"), seat)

    def payload(self) -> dict[str, Any]:
        return {"phase": self.phase, "turn": self.turn, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Deadline:
    """A turn's deadline timer (DEADLINE): the turn, when it began and how long it has; `pushed`
    when the player was away (pause mode) and what was left waits for their return. Its
    payload is the JSON every version has written: {phase, turn, seat, started, limit[, pushed]};
    `from_payload` reads an older one's missing fields as None."""
    KIND: ClassVar[str] = DEADLINE
    key: TurnKey
    started: float | None
    limit: float | None
    pushed: bool = False

    def to_payload(self) -> dict[str, Any]:
        out = {**self.key.payload(), "started": self.started, "limit": self.limit}
        if self.pushed:
            out["pushed"] = True
        return out

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "Deadline | None":
        """None when the payload names no seat."""
        key = TurnKey.of(payload)
        if key is None:
            return None
        return cls(key, payload.get("started"), payload.get("limit"), bool(payload.get("pushed")))


@dataclass(frozen=True, slots=True)
class RemindTimer:
    """A reminder of a turn (REMIND): the turn, the reminder's number in it (from 1), the turn's
    deadline (None: none) and when the turn began. Payload {phase, turn, seat, n, deadline,
    started}, as every version has written it."""
    KIND: ClassVar[str] = REMIND
    key: TurnKey
    n: int | None
    deadline: float | None
    started: float | None

    def to_payload(self) -> dict[str, Any]:
        return {**self.key.payload(), "n": self.n, "deadline": self.deadline,
                "started": self.started}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "RemindTimer | None":
        """None when the payload names no seat."""
        key = TurnKey.of(payload)
        if key is None:
            return None
        return cls(key, payload.get("n"), payload.get("deadline"), payload.get("started"))


@dataclass(frozen=True, slots=True)
class BotMove:
    """A computer player's move (BOT_MOVE), at the game's seq it was set at: {seq}."""
    KIND: ClassVar[str] = BOT_MOVE
    seq: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"seq": self.seq}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "BotMove":
        return cls(payload.get("seq"))


@dataclass(frozen=True, slots=True)
class Expel:
    """Three turns in a row ran out (EXPEL): {seat, timeouts}; None from a payload without a
    seat."""
    KIND: ClassVar[str] = EXPEL
    seat: int
    timeouts: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"seat": self.seat, "timeouts": self.timeouts}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "Expel | None":
        seat = payload.get("seat")
        return None if seat is None else cls(seat, payload.get("timeouts"))


@dataclass(frozen=True, slots=True)
class VoteExpire:
    """A vote's time is over (VOTE_EXPIRE): {vote}."""
    KIND: ClassVar[str] = VOTE_EXPIRE
    vote: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"vote": self.vote}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "VoteExpire":
        return cls(payload.get("vote"))


@dataclass(frozen=True, slots=True)
class AwayEnd:
    """A player's away period is over (AWAY_END): {user, guild, until}; `until` None from a
    payload written before it was kept."""
    KIND: ClassVar[str] = AWAY_END
    user: int
    guild: int
    until: float | None

    def to_payload(self) -> dict[str, Any]:
        return {"user": self.user, "guild": self.guild, "until": self.until}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "AwayEnd":
        return cls(payload["user"], payload["guild"], payload.get("until"))


def turn_of(game, seat: int) -> TurnKey:
    """The name of `seat`'s current turn (it need not be to move)."""
    if game.phase == "setup":
        return TurnKey("setup", 0, seat)
    return TurnKey(game.phase, game.turn, seat)


def is_turn(game, key: TurnKey | None) -> bool:
    """Whether the turn `key` names is still going on (its seat to move)."""
    if game is None or key is None or game.over or key.seat not in game.to_move():
        return False
    if key.phase == "setup":
        return game.phase == "setup"
    return game.phase == "play" and game.turn == key.turn


def turn_named(game, payload: Mapping[str, Any]) -> bool:
    """Whether the turn a timer's payload names is still going on."""
    return is_turn(game, TurnKey.of(payload))


def seat_turn_named(game, seat: int, payload: Mapping[str, Any]) -> bool:
    """Whether a timer's payload names `seat`'s turn, and that turn is still going on."""
    key = TurnKey.of(payload)
    return key is not None and key.seat == seat and is_turn(game, key)


def reminder_plan(options, started):
    """[(n, time)] of the reminders of a human's turn that began at `started`, n from 1.
    With a deadline: at half of it and at four fifths; without: `remind` hours after the start,
    then a day apart (or `remind` hours, if longer). A reminder is never planned within
    REMIND_GAP (a day) of the one before it: its time becomes max(planned, previous + a day),
    and it is dropped if that is later than REMIND_MARGIN (2 h) before the deadline; three at
    most. So a 12, 24 or 48 h deadline gets one reminder, a 72 h or a week's two. When they
    fire, the same rule holds against the reminder actually sent before (absence.py: one held
    back by quiet hours moves the next), so reminders never bunch."""
    if options.deadline:
        limit = options.deadline * HOUR
        planned = [started + share * limit for share in REMIND_AT]
        end = started + limit - REMIND_MARGIN
    elif options.remind:
        first = options.remind * HOUR
        planned = [started + first + n * max(first, DAY) for n in range(MAX_REMINDERS)]
        end = None
    else:
        return []
    out = []
    for at in planned[:MAX_REMINDERS]:
        if out:
            at = max(at, out[-1][1] + REMIND_GAP)
        if end is not None and at > end:
            break
        out.append((len(out) + 1, at))
    return out


def reminder_timer(key, n, at, started, deadline):
    return NewTimer(REMIND, at, RemindTimer(key, n, deadline, started).to_payload())


def turn_timers(game, seat, options, now):
    """The timers of a human's turn that begins now: its deadline and reminders (without a
    deadline, the idle timer is set by the caller on every action)."""
    key = turn_of(game, seat)
    out = []
    deadline = None
    if options.deadline:
        limit = options.deadline * HOUR
        deadline = now + limit
        out.append(NewTimer(DEADLINE, deadline, Deadline(key, now, limit).to_payload()))
    for n, at in reminder_plan(options, now):
        out.append(reminder_timer(key, n, at, now, deadline))
    return out


def idle_timer(now):
    return NewTimer(IDLE, now + IDLE_DAYS * DAY, {})
