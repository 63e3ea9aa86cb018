"""What the service tells its caller after a change: plain data, never Discord objects.

What the change owes everyone (the turn post, hand messages, DMs) is written to the outbox in
the change's own transaction (owed.py, messages.py) and delivered from there. `Effects` is
what the caller itself needs to answer the person who made the change: what only they
learned (`private`), their own public events, whether they act again (`to_move`, `over`),
whether the game ended by it (`cancelled`), and who was replaced (`handover`).
"""
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ..engine.event_types import (
    BUILD_STATION,
    CLAIM_ROUTE,
    DRAW_CARD,
    DRAW_TICKETS,
    KEEP_TICKETS,
    TUNNEL_DECLINE,
    TUNNEL_PAY,
    TUNNEL_REVEAL,
    Event,
    PrivatePart,
)


class ServiceError(Exception):
    """A request that cannot be done, with a message-catalog key and its parameters.

    `illegal` carries the engine's reason when the rules refused the action."""

    def __init__(self, key: str, illegal: Any = None, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.illegal = illegal


@dataclass(frozen=True)
class Handover:
    """A computer player took over a human's seat (or, with `level` None, the last human left
    and the game was cancelled). Public facts only: who, which seat, how strong, why."""
    seat: int                     # the seat's index in the game
    name: str                     # the player's display name before the computer took over
    user_id: int                  # the player who left the seat
    level: str | None             # "easy" / "medium" / "hard"; None: nobody took over
    reason: str                   # "left" or "replaced"
    by: int | None = None         # the user who replaced them (host or admin)
    host_id: int | None = None    # the new host, when the host left their seat


@dataclass(frozen=True)
class Effects:
    game_id: int
    seq: int                      # actions applied so far (what a fresh button carries)
    actor: int | None = None      # seat that acted, or None (start, cancel, a handover)
    public: list[Event] = field(default_factory=list)  # events, private parts removed
    private: dict[int, list[PrivatePart]] = field(default_factory=dict)
                                  # seat -> [private parts of its events]
    to_move: list[int] = field(default_factory=list)    # seats that may act now
    over: bool = False            # the game ended with this change
    cancelled: bool = False       # the game was cancelled by it
    handover: Handover | None = None   # a computer player took over a seat


def split_events(events: Iterable[Event]) -> tuple[list[Event], dict[int, list[PrivatePart]]]:
    """(public events, {seat: [private parts]}): each event copied without its "private", which
    becomes, with the event's "type", a part of the acting seat's."""
    public: list[Event] = []
    private: dict[int, list[PrivatePart]] = {}
    for e in events:
        shown = e.copy()
        if "private" in shown:
            secret = shown.pop("private")
            if secret is not None:      # the kind's "private" TypedDict, with its "type"
                part = cast(PrivatePart, {"type": shown["type"], **secret})
                private.setdefault(shown["seat"], []).append(part)
        public.append(shown)
    return public, private


# what each public event changes privately for its actor (hand, tickets or offer)
_CHANGES_PRIVATE: frozenset[Literal[
    "keep_tickets", "draw_card", "claim_route", "tunnel_reveal", "tunnel_pay", "tunnel_decline",
    "draw_tickets", "build_station"]] = frozenset({
        KEEP_TICKETS, DRAW_CARD, CLAIM_ROUTE, TUNNEL_REVEAL, TUNNEL_PAY, TUNNEL_DECLINE,
        DRAW_TICKETS, BUILD_STATION})


def changed_seats(public: Iterable[Event]) -> set[int]:
    """The seats whose hand, tickets or offer these public events changed."""
    return {e["seat"] for e in public if e["type"] in _CHANGES_PRIVATE}
