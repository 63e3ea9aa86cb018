"""What each change owes players, as outbox rows and timers written in the change's own
transaction (store `Owed`): the adapter's delivery worker sends the rows, the scheduler fires the
timers. `Owing` is an object the service's core (core.py) holds and calls: `apply` asks it what
an action owes, the lobby what a start owes, the handover and `/ttr return` what a seat that
changed hands owes; it reads only the players' preferences and away periods.

Every row is built from one typed message of messages.py (its `kind` and stored JSON come from
the message's class and `to_payload`), owed to a `Lane`: the game's channel, in order; a
player's DMs now; a player's DMs held until their quiet hours end. The kinds:
  StartPost     the start post (and the lobby message's end)
  TurnPost      one action's public events; `held` until its turn ends, then the row that ends it
                carries the whole turn in one post (by: "timeout" / "away" when a computer
                played for an absent player; next: the seat to move). A turn that hands over
                to a computer player is held as well: the computers' turns fold into the card
                of the next human to move (or of the end)
  ThinkingEdit  a human's move handed over to computers: the last card loses its buttons and
                says they are thinking (one edit)
  HandoverPost  a computer player took over a seat
  ClosingPost   the game was cancelled or closed (kind "cancel")
  Notice        a line in the channel (ping: users mentioned)
  Reminder      "still your turn", in the channel or by DM
  VotePost / VoteResult   the vote with its buttons / how it ended
  HandUpdate    the player's living hand message: edited in place, or (why: start, turn, offer,
                end) sent anew with a notification (why tunnel: the adapter edits it, the
                player being at the table deciding); once per turn for the mover (at
                its end), not at each step
  DirectMessage a short private message
Nothing here is a Discord object: the messages are plain data the adapter turns into posts.
"""
from collections.abc import Callable, Sequence
from typing import Protocol

from ..engine.event_types import DRAW_TICKETS, GAME_OVER, TUNNEL_REVEAL, TURN, Event
from ..store import Away, AwayStore, NewTimer, OutboxItem, Owed, PrefStore
from .effects import changed_seats
from .messages import (
    DirectMessage,
    HandUpdate,
    Lane,
    Message,
    Notice,
    StartPost,
    ThinkingEdit,
    TurnPost,
    kind_of,
)
from .notify import how_of, quiet_until
from .turns import (
    BOT_MOVE,
    COVER,
    EXPEL,
    HOUR,
    IDLE,
    TIMEOUTS_TO_EXPEL,
    TURN_KINDS,
    BotMove,
    Expel,
    idle_timer,
    turn_of,
    turn_timers,
)


def channel_lane(channel_id: int) -> Lane:
    return Lane.channel(channel_id)


def user_lane(user_id: int) -> Lane:
    return Lane.user(user_id)


def later_lane(user_id: int) -> Lane:
    return Lane.later(user_id)


def owed_row(lane: Lane, message: Message, *, key: str | None = None, held: bool = False,
             seq: int | None = None, due_at: float | None = None,
             game_id: int | None = None) -> OutboxItem:
    """The store's outbox item for `message` (messages.py) owed to `lane`."""
    return OutboxItem(kind_of(message), str(lane), message.to_payload(), key=key, held=held,
                      seq=seq, due_at=due_at, game_id=game_id)


def channel_row(hosted, message, *, key=None, held=False, seq=None):
    return owed_row(channel_lane(hosted.channel_id), message, key=key, held=held,
                    seq=hosted.seq if seq is None else seq, game_id=hosted.id)


def notice_row(hosted, key, ping=(), key_id=None, **params):
    return channel_row(hosted, Notice(key, params, tuple(ping)), key=key_id)


def hand_row(hosted, seat, why=None, *, due_at=None, seq=None):
    user = hosted.seats[seat].user_id
    lane = later_lane(user) if due_at is not None else user_lane(user)
    return owed_row(lane, HandUpdate(seat, user, why), seq=hosted.seq if seq is None else seq,
                    due_at=due_at, game_id=hosted.id)


def dm_row(user_id, key, *, game_id=None, key_id=None, **params):
    return owed_row(user_lane(user_id), DirectMessage(key, params, game_id), key=key_id,
                    game_id=game_id)


def turn_ended(public: Sequence[Event]) -> bool:
    return any(e["type"] in (TURN, GAME_OVER) for e in public)


class OwingStore(PrefStore, AwayStore, Protocol):
    """The store's subjects `Owing` reads: players' preferences (how they are told of their
    turn, their quiet hours) and their away periods."""


class Owing:
    """What a change owes: the rows and timers its own transaction writes (it writes nothing
    itself). Held by the core (`core.owing`), built with what it reads: the store's preferences
    and away periods, the clock, and how long a computer player waits before it moves."""

    def __init__(self, store: OwingStore, *, clock: Callable[[], float],
                 bot_delay: float) -> None:
        self.store: OwingStore = store
        self.clock = clock
        self.bot_delay = bot_delay

    async def turn_start(self, hosted, seat, now):
        """What a human's turn beginning now owes: its timers, how they are told (fields of the
        turn post), and the DM if they asked for one. ({fields}, [rows], [timers])."""
        info = hosted.seats[seat]
        opts = hosted.settings
        if info.user_id is None:
            return {}, [], []
        prefs = await self.store.get_user(info.user_id)
        notify = prefs.notify if prefs else {}
        how, quiet = how_of(notify), quiet_until(notify, now)
        fields = {"ping": info.user_id if how in ("ping", "both") else None,
                  "silent": quiet is not None,
                  "deadline": now + opts.deadline * HOUR if opts.deadline else None}
        rows, timers = [], turn_timers(hosted.game, seat, opts, now)
        if how in ("dm", "both"):
            rows.append(hand_row(hosted, seat, "turn", due_at=quiet))
        away = await self.away_of(hosted, info.user_id, now)
        if away is not None:
            fields["away_until"] = away.until
            if opts.away == "cover":
                timers.append(NewTimer(COVER, now + self.bot_delay, turn_of(hosted.game, seat).payload()))
        return fields, rows, timers

    async def away_of(self, hosted, user_id: int, now: float) -> Away | None:
        """The player's away period in the game's server, if it lasts past `now`."""
        if hosted.guild_id is None:
            return None
        away = await self.store.get_away(user_id, hosted.guild_id)
        return away if away is not None and away.until > now else None

    def bot_timer(self, hosted, now):
        if hosted.game is not None and not hosted.game.over and any(
                hosted.seats[s].is_bot for s in hosted.game.to_move()):
            return [NewTimer(BOT_MOVE, now + self.bot_delay, BotMove(hosted.seq).to_payload())]
        return []

    async def for_action(self, before, after, public: Sequence[Event], seat, by):
        """(Owed, seat timeouts, end reason) of one applied action. `after` is the game with
        the action applied, at its new seq."""
        now = self.clock()
        game = after.game
        ended = turn_ended(public)
        humans = after.humans()
        rows, timers, drop = [], [], []
        seat_done = game.over or seat not in game.to_move() or game.turn != before.game.turn
        timeouts, end_reason = {}, None
        held = before.seats[seat]
        if by == "timeout" and seat_done:
            count = held.timeouts + 1
            timeouts[held.number] = count
            if count >= TIMEOUTS_TO_EXPEL:
                timers.append(NewTimer(EXPEL, now, Expel(seat, count).to_payload()))
        elif by is None and held.timeouts:
            timeouts[held.number] = 0
        turn = {"events": tuple(public), "over": game.over, "by": by, "seat": seat,
                "next": None if game.over else game.to_move()[0], "computers": not humans}
        if ended:
            drop += list(TURN_KINDS)
            if not game.over and game.phase == "play" and not after.seats[game.current].is_bot:
                fields, more, clock = await self.turn_start(after, game.current, now)
                turn.update(fields)
                rows += more
                timers += clock
        if game.over:
            end_reason = "computers" if not humans else None
            for s in humans:
                rows.append(hand_row(after, s, "end"))
        else:
            timers += self.bot_timer(after, now)
            if not after.settings.deadline:
                drop.append(IDLE)
                timers.append(idle_timer(now))
        if humans or game.over:
            # a turn that hands over to a computer player is held too: the computers' turns
            # fold into the card of the next human to move (or the end), one post, not many
            to_computer = ended and _computer_next(after)
            rows.insert(0, channel_row(after, TurnPost(**turn),
                                       held=not (ended or game.over) or to_computer))
            if to_computer and not before.seats[seat].is_bot:
                rows.insert(1, channel_row(after, ThinkingEdit(seat)))
            for s in _hands_owed(public, seat, seat_done):
                if not after.seats[s].is_bot and not game.over:
                    rows.append(hand_row(after, s, _why(public, s)))
        return Owed(tuple(rows), tuple(timers), tuple(dict.fromkeys(drop))), timeouts, end_reason

    async def for_start(self, hosted):
        """The start post, everyone's first hand message (with the ticket choice), and the
        clock of everyone's starting ticket choice."""
        now = self.clock()
        rows = [channel_row(hosted, StartPost())]
        timers = []
        for s in hosted.humans():
            rows.append(hand_row(hosted, s, "start"))
            timers += turn_timers(hosted.game, s, hosted.settings, now)
        timers += self.bot_timer(hosted, now)
        if not hosted.settings.deadline:
            timers.append(idle_timer(now))
        return Owed(tuple(rows), tuple(timers))

    async def for_seat_change(self, hosted, seat, now):
        """After a seat changed hands (a computer took it, or its player took it back): if it
        is to move, the clock of its turn starts over for whoever plays it now."""
        game = hosted.game
        if game is None or game.over or seat not in game.to_move():
            return Owed(), {}
        if hosted.seats[seat].is_bot:
            return Owed(timers=tuple(self.bot_timer(hosted, now))), {}
        fields, rows, timers = await self.turn_start(hosted, seat, now)
        rows.append(hand_row(hosted, seat, "turn"))
        drop = (TURN_KINDS[:3] if game.phase == "play" else ())
        return Owed(tuple(rows), tuple(timers), drop), fields


def _computer_next(hosted):
    game = hosted.game
    return not game.over and game.phase == "play" and hosted.seats[game.current].is_bot


def _hands_owed(public: Sequence[Event], seat: int, seat_done: bool) -> list[int]:
    """The seats whose hand message this action changes: the seats it changed, but not the
    mover's in the middle of a turn (a first card: they see it in their answer, with the next
    step; their hand message is edited once, when the turn is done), and the mover's at the
    end of their turn even if this action left their hand as it was (what changed before)."""
    seats = set(changed_seats(public))
    if not seat_done and _why(public, seat) is None:
        seats.discard(seat)
    elif seat_done:
        seats.add(seat)
    return sorted(seats)


def _why(public: Sequence[Event], seat: int) -> str | None:
    """Why a changed hand gets a new DM (something to do or to know) rather than an edit."""
    for e in public:
        if e.get("seat") != seat:
            continue
        if e["type"] == DRAW_TICKETS:
            return "offer"
        if e["type"] == TUNNEL_REVEAL:
            return "tunnel"
    return None
