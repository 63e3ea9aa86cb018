"""What the others did since a player's last move: for the ping of the player to move (the
turn card, or their DM) and the routes its picture highlights. A collaborator of the service's
core.

Derived from the action log, replayed from the seed (the log is the truth; an outbox row may
be gone). The replay of each game is kept (bounded) and only the actions since are applied,
so a turn costs the new actions, not the whole game. Only public events come out: the hidden
parts are split off (effects.split_events) before anything is kept.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bounded import LRUDict
from ..engine.dealer import Dealer
from ..engine.event_types import CLAIM_ROUTE, Event
from ..engine.game import Game
from ..game_record import action_from_json
from ..store import GameLog, GameStore
from .core import SEAT_NAMES
from .core_contract import CoreContract
from .effects import split_events


class SinceStore(GameStore, GameLog, Protocol):
    """The store's subjects this part uses: a game's row and its log."""


REPLAYS_KEPT = 64


@dataclass(frozen=True)
class SinceLastTurn:
    seat: int
    since_seq: int | None       # the seq just after the seat's last move (None: it never moved)
    events: tuple[Event, ...] = ()      # the others' public events since, in order (plain dicts)
    routes: frozenset[int] = frozenset()    # route ids claimed since (by anyone but the seat)


class _Replay:
    __slots__ = ("game", "log")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.log: list[tuple[int, tuple[Event, ...]]] = []     # per action: (seat, public events)


class SinceLastMove:
    """The since-your-last-turn reading."""

    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: SinceStore = core.store
        self._replays: LRUDict = LRUDict(REPLAYS_KEPT)   # game id -> its _Replay

    async def since_last_turn(self, game_id: int, seat: int,
                              seq: int | None = None) -> SinceLastTurn | None:
        """SinceLastTurn of `seat` up to `seq` (default: now), or None if no such game."""
        hosted = await self.core.load(game_id)
        if hosted is None or hosted.game is None:
            return None
        seq = hosted.seq if seq is None else min(seq, hosted.seq)
        replays = self._replays
        replay = replays.get(game_id)
        if replay is None or len(replay.log) > seq:
            row: Any = await self.store.get_game(game_id)
            replay = _Replay(Game(hosted.board, len(hosted.seats), Dealer(row.seed)))
            replays[game_id] = replay
        if len(replay.log) < seq:
            for rec in (await self.store.load_actions(game_id))[len(replay.log):seq]:
                action = action_from_json(replay.game, rec.action, SEAT_NAMES)
                public, _ = split_events(replay.game.apply(action))
                replay.log.append((action.seat, tuple(public)))
        return _since(replay.log[:seq], seat)


def _since(log: Sequence[tuple[int, Sequence[Event]]], seat: int) -> SinceLastTurn:
    last = next((i for i in range(len(log) - 1, -1, -1) if log[i][0] == seat), None)
    start = 0 if last is None else last + 1
    events = tuple(e.copy() for s, evs in log[start:] if s != seat for e in evs)
    routes = frozenset(e["route"] for e in events if e["type"] == CLAIM_ROUTE)
    return SinceLastTurn(seat, None if last is None else start, events, routes)
