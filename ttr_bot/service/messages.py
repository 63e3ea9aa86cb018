"""What the outbox carries, as the service's typed values: one frozen dataclass per kind of owed
message, the destination it goes to (`Lane`), and the values the adapter's delivery worker gets
(`OwedMessage`, `DestinationBlock`) instead of the store's rows.

Each message kind has `KIND` (the outbox row's `kind`), `to_payload()` (the JSON object stored
in the row) and `from_payload()` (which reads what any version of the bot stored: a field a
row written before it existed reads as its default, so rows already owed when the bot upgrades
are still delivered). `parse(kind, payload)` reads a row's message; a kind it does not know or
a payload it cannot read becomes `Unreadable`, which the adapter's worker gives up at once
(logged, the error kept on the row), so one bad row never stops the others.

Nothing here is a Discord object: the adapter turns these values into messages.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Union

from ..engine.event_types import Event
from .community_messages import BoardPost, SeasonEndPost
from .cup_messages import CupFinal, CupPost, CupTableOpen
from .effects import Handover

Payload = dict[str, Any]


# ----- destinations -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Lane:
    """An outbox destination: a game's channel (or thread), a player's DMs now, or a player's
    DMs held until their quiet hours end. Stored as "c<channel id>", "u<user id>", "q<user id>"
    (`str(lane)`, `Lane.parse`); rows go out in id order per lane."""
    CHANNEL: ClassVar[str] = "c"
    USER: ClassVar[str] = "u"
    LATER: ClassVar[str] = "q"

    kind: str       # CHANNEL, USER or LATER
    id: int         # the channel's id, or the user's

    def __post_init__(self) -> None:
        if self.kind not in (Lane.CHANNEL, Lane.USER, Lane.LATER):
            raise ValueError(f"unknown lane kind {self.kind!r}")

    @classmethod
    def channel(cls, channel_id: int) -> Lane:
        return cls(cls.CHANNEL, int(channel_id))

    @classmethod
    def user(cls, user_id: int) -> Lane:
        return cls(cls.USER, int(user_id))

    @classmethod
    def later(cls, user_id: int) -> Lane:
        """A player's DMs, held until their quiet hours end."""
        return cls(cls.LATER, int(user_id))

    @classmethod
    def parse(cls, text: str) -> Lane:
        """The lane a stored string names (ValueError if it names none)."""
        if len(text) < 2:
            raise ValueError(f"not a lane: {text!r}")
        return cls(text[0], int(text[1:]))

    def __str__(self) -> str:
        return f"{self.kind}{self.id}"

    @property
    def is_channel(self) -> bool:
        return self.kind == Lane.CHANNEL

    @property
    def is_later(self) -> bool:
        return self.kind == Lane.LATER

    @property
    def channel_id(self) -> int:
        if not self.is_channel:
            raise ValueError(f"{self} is a player's DMs, not a channel")
        return self.id

    @property
    def user_id(self) -> int:
        if self.is_channel:
            raise ValueError(f"{self} is a channel, not a player's DMs")
        return self.id


# ----- the messages -------------------------------------------------------------------------
def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values or ())


def _handover(data: Any) -> Handover | None:
    if data is None:
        return None
    names = {f.name for f in fields(Handover)}
    return Handover(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True, slots=True)
class StartPost:
    """The start post (and the lobby message's end)."""
    KIND: ClassVar[str] = "start"

    def to_payload(self) -> Payload:
        return {}

    @classmethod
    def from_payload(cls, payload: Payload) -> StartPost:
        return cls()


@dataclass(frozen=True, slots=True)
class TurnPost:
    """One action's public events. Held until its turn ends; the row that ends it carries the
    whole turn in one post (the turn card) with its held parts. A turn that hands over to a
    computer player is held as well: the computers' turns fold into the card of the next
    human to move (or of the end)."""
    KIND: ClassVar[str] = "turn"
    events: tuple[Event, ...]     # public engine events (nothing hidden)
    seat: int                     # the seat that acted
    over: bool = False            # the game ended with it: the final post
    by: str | None = None         # "timeout" / "away": a computer played for an absent player
    next: int | None = None       # the seat to move next
    computers: bool = False       # no human is left at the table
    ping: int | None = None       # the user to mention (they asked for a ping)
    silent: bool = False          # in their quiet hours: no notification
    deadline: float | None = None      # when the next turn runs out
    away_until: float | None = None    # the player to move is away until then
    caught_up: int | None = None  # set by the adapter: the one post after a long refusal,
                                  # for this many moves (never stored)

    def to_payload(self) -> Payload:
        out: Payload = {
            "events": [dict(e) for e in self.events], "over": self.over, "by": self.by,
            "seat": self.seat, "next": self.next, "computers": self.computers,
            "ping": self.ping, "silent": self.silent, "deadline": self.deadline}
        if self.away_until is not None:
            out["away_until"] = self.away_until
        if self.caught_up is not None:
            out["caught_up"] = self.caught_up
        return out

    @classmethod
    def from_payload(cls, payload: Payload) -> TurnPost:
        p = payload
        return cls(events=tuple(p.get("events") or ()), seat=p["seat"],
                   over=bool(p.get("over")), by=p.get("by"), next=p.get("next"),
                   computers=bool(p.get("computers")), ping=p.get("ping"),
                   silent=bool(p.get("silent")), deadline=p.get("deadline"),
                   away_until=p.get("away_until"), caught_up=p.get("caught_up"))


@dataclass(frozen=True, slots=True)
class ThinkingEdit:
    """A human's move handed the turn to computer players: the last card loses its buttons and
    says they are thinking (one edit)."""
    KIND: ClassVar[str] = "thinking"
    seat: int

    def to_payload(self) -> Payload:
        return {"seat": self.seat}

    @classmethod
    def from_payload(cls, payload: Payload) -> ThinkingEdit:
        return cls(payload["seat"])


@dataclass(frozen=True, slots=True)
class HandoverPost:
    """A computer player took over a human's seat: who, how strong, why."""
    KIND: ClassVar[str] = "handover"
    handover: Handover

    def to_payload(self) -> Payload:
        return asdict(self.handover)

    @classmethod
    def from_payload(cls, payload: Payload) -> HandoverPost:
        handover = _handover(payload)
        assert handover is not None
        return cls(handover)


@dataclass(frozen=True, slots=True)
class ClosingPost:
    """The game was cancelled or closed (`reason`: an end reason, None when its host cancelled
    it); with `handover`, because its last human left."""
    KIND: ClassVar[str] = "cancel"
    reason: str | None = None
    handover: Handover | None = None

    def to_payload(self) -> Payload:
        return {"reason": self.reason,
                "handover": None if self.handover is None else asdict(self.handover)}

    @classmethod
    def from_payload(cls, payload: Payload) -> ClosingPost:
        return cls(payload.get("reason"), _handover(payload.get("handover")))


@dataclass(frozen=True, slots=True)
class Notice:
    """A line in the game's channel: a catalog key and its parameters (`ping`: the users
    mentioned)."""
    KIND: ClassVar[str] = "notice"
    key: str
    params: Payload = field(default_factory=dict)
    ping: tuple[int, ...] = ()

    def to_payload(self) -> Payload:
        return {"key": self.key, "params": dict(self.params), "ping": list(self.ping)}

    @classmethod
    def from_payload(cls, payload: Payload) -> Notice:
        return cls(payload["key"], dict(payload.get("params") or {}), _ints(payload.get("ping")))


@dataclass(frozen=True, slots=True)
class Reminder:
    """"Still your turn": in the channel (a mention), or by DM (`key` and `params`: its text).
    `phase` and `turn` name the turn it is about (rows from before they were stored have
    neither, and are delivered as they are)."""
    KIND: ClassVar[str] = "reminder"
    seat: int
    user: int
    deadline: float | None = None
    n: int | None = None          # which reminder of the turn
    guild: int | None = None
    phase: str | None = None
    turn: int | None = None
    key: str | None = None        # by DM: the catalog key of its text ...
    params: Payload = field(default_factory=dict)   # ... and its parameters
    game: int | None = None

    def turn_key(self) -> Payload:
        """The turn it is about, as turns.turn_named reads it."""
        return {"seat": self.seat, "phase": self.phase, "turn": self.turn}

    def to_payload(self) -> Payload:
        out: Payload = {"seat": self.seat, "user": self.user, "deadline": self.deadline,
                        "n": self.n, "guild": self.guild, "phase": self.phase, "turn": self.turn}
        if self.key is not None:
            out.update(key=self.key, params=dict(self.params), game=self.game)
        return out

    @classmethod
    def from_payload(cls, payload: Payload) -> Reminder:
        p = payload
        return cls(seat=p["seat"], user=p["user"], deadline=p.get("deadline"), n=p.get("n"),
                   guild=p.get("guild"), phase=p.get("phase"), turn=p.get("turn"),
                   key=p.get("key"), params=dict(p.get("params") or {}), game=p.get("game"))


@dataclass(frozen=True, slots=True)
class VotePost:
    """A vote with its buttons (`vote`: its id; the service fills it in when the vote is
    written, in the same transaction)."""
    KIND: ClassVar[str] = "vote"
    vote: int | None = None

    def to_payload(self) -> Payload:
        return {"vote": self.vote}

    @classmethod
    def from_payload(cls, payload: Payload) -> VotePost:
        return cls(payload.get("vote"))


@dataclass(frozen=True, slots=True)
class VoteResult:
    """How a vote ended (`status`: passed, failed, expired, void)."""
    KIND: ClassVar[str] = "vote_result"
    vote: int
    status: str

    def to_payload(self) -> Payload:
        return {"vote": self.vote, "status": self.status}

    @classmethod
    def from_payload(cls, payload: Payload) -> VoteResult:
        return cls(payload["vote"], payload["status"])


@dataclass(frozen=True, slots=True)
class HandUpdate:
    """The player's living hand message: edited in place, or sent anew with a notification
    (`why`: start, turn, offer, tunnel, end); once per turn for the mover, at its end."""
    KIND: ClassVar[str] = "hand"
    seat: int
    user: int
    why: str | None = None

    def to_payload(self) -> Payload:
        return {"seat": self.seat, "user": self.user, "why": self.why}

    @classmethod
    def from_payload(cls, payload: Payload) -> HandUpdate:
        return cls(payload["seat"], payload["user"], payload.get("why"))


@dataclass(frozen=True, slots=True)
class DirectMessage:
    """A short private message: a catalog key and its parameters (`game`: the game it is
    about)."""
    KIND: ClassVar[str] = "dm"
    key: str
    params: Payload = field(default_factory=dict)
    game: int | None = None

    def to_payload(self) -> Payload:
        return {"key": self.key, "params": dict(self.params), "game": self.game}

    @classmethod
    def from_payload(cls, payload: Payload) -> DirectMessage:
        return cls(payload["key"], dict(payload.get("params") or {}), payload.get("game"))


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A row this version cannot read (an unknown kind, a payload missing what its kind needs):
    the adapter's worker gives it up at once and logs it."""
    KIND: ClassVar[str] = "unreadable"
    kind: str
    payload: Payload
    error: str

    def to_payload(self) -> Payload:
        return dict(self.payload)


Message = Union[StartPost, TurnPost, ThinkingEdit, HandoverPost, ClosingPost, Notice, Reminder,
                VotePost, VoteResult, HandUpdate, DirectMessage, SeasonEndPost, BoardPost,
                CupPost, CupTableOpen, CupFinal, Unreadable]
KINDS: dict[str, Any] = {cls.KIND: cls for cls in (
    StartPost, TurnPost, ThinkingEdit, HandoverPost, ClosingPost, Notice, Reminder, VotePost,
    VoteResult, HandUpdate, DirectMessage, SeasonEndPost, BoardPost, CupPost, CupTableOpen,
    CupFinal)}


def parse(kind: str, payload: Payload) -> Message:
    """The message a stored row holds (Unreadable if this version cannot read it)."""
    cls = KINDS.get(kind)
    if cls is None:
        return Unreadable(kind, dict(payload), "unknown kind")
    try:
        message: Message = cls.from_payload(payload)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return Unreadable(kind, dict(payload), repr(exc))
    return message


def kind_of(message: Message) -> str:
    return message.kind if isinstance(message, Unreadable) else message.KIND


# ----- what the adapter's delivery worker gets ------------------------------------------------
@dataclass(frozen=True, slots=True)
class OwedMessage:
    """A message the bot owes, as the delivery worker sees it."""
    id: int                       # the outbox row's id (its posts' nonce)
    lane: Lane
    message: Message
    game_id: int | None
    seq: int | None               # the game's seq it describes
    held: bool                    # part of a turn not over yet
    due_at: float
    created_at: float
    attempts: int

    @property
    def kind(self) -> str:
        return kind_of(self.message)


@dataclass(frozen=True, slots=True)
class DestinationBlock:
    """A destination Discord refuses: its messages wait until `retry_at`; the refusal began at
    `refused_since` and has been tried `attempts` times (Discord's error `code`)."""
    lane: Lane
    guild_id: int | None
    refused_since: float
    retry_at: float
    attempts: int
    code: int | None
