"""A game's state, declared once: every field, how `Game.copy` copies it and how a snapshot
writes and reads it. `Game.__init__`, `Game.copy`, `snapshot` and `view.determinize` all go
through this table, so a new field cannot be forgotten in one of them.

The board, its rules, the number of players and the dealer are what a game is made *from*, not
state: they are the constructor's arguments.
"""
import copy
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

SETUP, PLAY, OVER = "setup", "play", "over"                   # phases
IDLE, SECOND_CARD, CHOOSING, TUNNEL = "idle", "second_card", "choosing", "tunnel"   # steps of a turn


class PendingTunnel(NamedTuple):
    """A tunnel claim waiting for its player to pay the extra cost or decline (docs/rules.md
    §6, §11.5). The laid cards are out of the player's hand until then."""
    route: int          # route index
    color: int          # colour the laid cards used (-1: locomotives only)
    laid: tuple[int, ...]   # 9 card counts
    revealed: list[int]     # the cards turned over from the deck
    extra: int          # extra cards required


def _same(x: Any) -> Any:
    return x


def _lists(x: list[list[int]]) -> list[list[int]]:
    return [list(v) for v in x]


def _offers(x: list[list[int] | None]) -> list[list[int] | None]:
    return [None if o is None else list(o) for o in x]


def _station_owner_json(x: Mapping[int, int]) -> list[list[int]]:
    return [[city, seat] for city, seat in x.items()]


def _station_owner_load(x: list[list[int]]) -> dict[int, int]:
    return {city: seat for city, seat in x}


def _tunnel_json(t: PendingTunnel | None) -> list[Any] | None:
    return None if t is None else [t.route, t.color, list(t.laid), list(t.revealed), t.extra]


def _tunnel_load(t: list[Any] | None) -> PendingTunnel | None:
    return None if t is None else PendingTunnel(t[0], t[1], tuple(t[2]), list(t[3]), t[4])


def _last_move_json(m: tuple[int, str, int | None] | None) -> list[Any] | None:
    return None if m is None else list(m)


def _last_move_load(m: list[Any] | None) -> tuple[int, str, int | None] | None:
    return None if m is None else tuple(m)


def _extra_copy(x: dict[str, Any]) -> dict[str, Any]:
    """The mechanics' own state is plain JSON data: copied as such (empty on the base maps)."""
    return copy.deepcopy(x) if x else {}


class Field(NamedTuple):
    name: str
    copy: Callable[[Any], Any] | None   # value -> an independent copy (None: immutable, shared)
    to_json: Callable[[Any], Any]       # value -> plain JSON data (lists are JSON already)
    from_json: Callable[[Any], Any]     # JSON data -> value


# In snapshot order: stored snapshots and the service's golden data depend on it.
FIELDS = (
    Field("deck", list, _same, _same),                   # top of the deck = end of list
    Field("discard", list, _same, _same),
    Field("faceup", list, _same, _same),
    Field("hands", _lists, _same, _same),                # per seat: 9 card counts
    Field("trains", list, _same, _same),
    Field("stations_left", list, _same, _same),
    Field("owner", list, _same, _same),                  # per route: seat, or -1
    Field("routes_of", _lists, _same, _same),            # per seat: route indices, in claim order
    Field("route_points", list, _same, _same),
    Field("stations_of", _lists, _same, _same),          # per seat: node indices
    Field("tickets", _lists, _same, _same),              # per seat: kept ticket ids
    Field("offers", _offers, _same, _same),              # per seat: ticket ids being chosen, or None
    Field("phase", None, _same, _same),
    Field("step", None, _same, _same),
    Field("current", None, _same, _same),
    Field("turn", None, _same, _same),
    Field("final_turns_left", None, _same, _same),       # None until the last round starts
    Field("final_trigger", None, _same, _same),
    Field("passes", None, _same, _same),                 # passes in a row
    Field("reshuffles", None, _same, _same),             # discard piles turned into a deck so far
    Field("station_owner", dict, _station_owner_json, _station_owner_load),   # node -> seat
    Field("ticket_deck", deque, list, deque),
    Field("long_deck", deque, list, deque),
    Field("tunnel", None, _tunnel_json, _tunnel_load),   # PendingTunnel or None
    Field("last_move", None, _last_move_json, _last_move_load),   # (seat, kind, route/node/None)
    # mechanic name -> its own state (engine/mechanics; RULES.md §12–§17). A snapshot leaves it
    # out while it is empty, so the base maps' snapshots are as they were.
    Field("extra", _extra_copy, _same, _same),
)
NAMES = frozenset(f.name for f in FIELDS)
MUTABLE = tuple((f.name, f.copy) for f in FIELDS if f.copy is not None)


def check_complete(state: Mapping[str, Any]) -> None:
    """Raise TypeError unless `state` names every declared field and nothing else."""
    if state.keys() != NAMES:
        missing = sorted(NAMES - state.keys())
        unknown = sorted(state.keys() - NAMES)
        raise TypeError(f"game state: missing {missing}, unknown {unknown}")
