"""Time in a game: the options chosen at /ttr new (deadline per turn, reminders, what happens
while a player is away), which turn is whose, and the timers each new turn needs.

Timer kinds (rows in the store, fired by the scheduler, handled in absence.py):
  bot_move      a computer player's move after a short pause {seq}
  deadline      a turn's time runs out: a medium computer player plays that one turn
                {phase, turn, seat, started, limit}
  remind        the player to move has not moved {phase, turn, seat, n, deadline}
  cover         a player away (cover mode) is to move: a computer plays for them {phase, turn, seat}
  expel         three turns in a row ran out: the seat goes to a computer player {seat}
  idle          no action for 30 days in a game without a deadline: closed as abandoned
  lobby_warn, lobby_expire   a lobby not started: the host is warned, then it is closed
  vote_expire   a vote's 24 hours are over {vote}
  away_end      a player's away period is over {user, guild, until} (no game)
Every handler checks that what its timer is about is still so (the same turn, the same seq, an
open vote...), so a timer that fires twice or late does nothing the second time.

A turn is named by (phase, turn number, seat): during the starting ticket choice every seat has
its own ("setup", 0, seat); in play the engine counts turns.
"""
from dataclasses import dataclass

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
MAX_REMINDERS = 3                               # per turn, at most one a day, without a deadline
REMIND_AT = (0.5, 0.8)                          # of the deadline; never closer than planned
                                                # (`gap`: reminders held back merge, absence.py)
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


def turn_of(game, seat):
    """The name of `seat`'s current turn (it need not be to move)."""
    if game.phase == "setup":
        return {"phase": "setup", "turn": 0, "seat": seat}
    return {"phase": game.phase, "turn": game.turn, "seat": seat}


def is_turn(game, key):
    """Whether the turn `key` names is still going on (its seat to move)."""
    seat = key.get("seat")
    if game is None or game.over or seat is None or seat not in game.to_move():
        return False
    if key.get("phase") == "setup":
        return game.phase == "setup"
    return game.phase == "play" and game.turn == key.get("turn")


def turn_timers(game, seat, options, now):
    """The timers of a human's turn that begins now: its deadline and reminders (without a
    deadline, the idle timer is set by the caller on every action). A reminder's `gap` is how
    close to the previous one of the turn it may come: as planned (three tenths of the
    deadline, at most a day), a day without a deadline."""
    key = turn_of(game, seat)
    out = []
    if options.deadline:
        limit = options.deadline * HOUR
        deadline = now + limit
        out.append(NewTimer(DEADLINE, deadline, {**key, "started": now, "limit": limit}))
        gap = min(DAY, (REMIND_AT[1] - REMIND_AT[0]) * limit)
        for n, share in enumerate(REMIND_AT, 1):
            out.append(NewTimer(REMIND, now + share * limit,
                                {**key, "n": n, "deadline": deadline, "gap": gap}))
    elif options.remind:
        first = options.remind * HOUR
        for n in range(MAX_REMINDERS):
            out.append(NewTimer(REMIND, now + first + n * max(first, DAY),
                                {**key, "n": n + 1, "deadline": None, "gap": DAY}))
    return out


def idle_timer(now):
    return NewTimer(IDLE, now + IDLE_DAYS * DAY, {})
