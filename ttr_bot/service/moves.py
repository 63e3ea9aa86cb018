"""A game in play: the moves its players and its computer players make, and what a player, a
post or a record sees of it.

`act` applies a player's action, `play_bot` a computer player's (its BOT_MOVE timer is the
absence part's, which calls `play_bot`); both go through the core's lock and `apply`.
`player_view`, `export`, `state_at` and `rebuild` read the game. Holds the core; calls
nothing else.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Protocol

from ..engine.dealer import Dealer
from ..engine.game import Game
from ..engine.view import view
from ..game_record import action_from_json, export_record
from ..store import GameLog, GameStore
from .core import SAFE_LEVEL, SEAT_NAMES
from .core_contract import CoreContract
from .effects import Effects, ServiceError
from .hosted import ACTIVE, FINISHED, HostedGame


class MovesStore(GameStore, GameLog, Protocol):
    """The store's subjects this part uses: a game's row and its log (a past state replayed)."""


log = logging.getLogger(__name__)


class Moves:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: MovesStore = core.store

    async def act(self, game_id: int, user_id: int, action: Any,
                  expected_seq: int | None = None) -> Effects:
        """Apply a player's action. `expected_seq` is the seq the player's button or view
        showed: a double click or a stale button is refused instead of applied twice."""
        core = self.core
        async with core.lock(game_id):
            hosted = await core.active(game_id)
            if expected_seq is not None and expected_seq > hosted.seq:
                # the caller saw a newer seq than the cache holds: the cached copy fell behind
                # (another process wrote, or a concurrent load), so ask the store again
                core.forget(game_id)
                hosted = await core.active(game_id)
            seat = hosted.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_a_player")
            if expected_seq is not None and expected_seq != hosted.seq:
                raise ServiceError("service.stale")
            return await core.apply(hosted, replace(action, seat=seat), actor=seat)

    async def play_bot(self, game_id: int, expected_seq: int | None = None, *,
                       safe: bool = False) -> Effects | None:
        """Let a computer player to move take its action; None if none is to move. `safe`:
        the last try of a move whose decision kept failing: it is played as the simplest level
        plays it, so that a game never stalls on one computer player."""
        core = self.core
        async with core.lock(game_id):
            hosted: Any = await core.load(game_id)
            if hosted is None or not hosted.is_active:
                return None
            if expected_seq is not None and expected_seq > hosted.seq:
                hosted = await core.reload(game_id)   # the copy fell behind: ask the store
                if hosted is None or not hosted.is_active:
                    return None
            if expected_seq is not None and expected_seq != hosted.seq:
                return None
            game = hosted.game
            for seat in game.to_move():
                level = hosted.seats[seat].level
                if level is None:
                    continue
                if safe:
                    log.warning("game %s: seat %s plays this move as %s does, in this process "
                                "(its %s decision failed every try)", hosted.id, seat,
                                SAFE_LEVEL, level)
                    action = core.decide_safely(core.agent_seed(hosted, seat),
                                                view(game, seat))
                else:
                    action = await core.decide(level, core.agent_seed(hosted, seat),
                                               view(game, seat))
                return await core.apply(hosted, action, actor=seat)
            return None

    # ----- reading --------------------------------------------------------------------------
    async def player_view(self, game_id: int, user_id: int) -> tuple[int, Any]:
        """(seat, PlayerView) of a seated user."""
        hosted = await self.core.started(game_id)
        seat = hosted.seat_of(user_id)
        if seat is None:
            raise ServiceError("service.not_a_player")
        return seat, hosted.view(seat)

    async def export(self, game_id: int) -> dict:
        """The game as a ttr-record/1 document, players named by their display names."""
        hosted = await self.core.started(game_id)
        names = _unique(hosted.names())
        actions = []
        for rec in await self.store.load_actions(game_id):
            a = dict(rec.action)
            a["player"] = names[int(a["player"])]
            actions.append(a)
        return export_record(hosted.game, names, actions)

    async def state_at(self, game_id: int, seq: int) -> HostedGame | None:
        """The game as it was at `seq` (its seats as they are now): what a post about that
        moment shows, even when it goes out after later moves (a delivery retried after a
        restart). None if there is no such game or it is not that far yet."""
        core = self.core
        hosted: Any = await core.load(game_id)
        if hosted is None or hosted.game is None or seq > hosted.seq:
            return None
        if seq == hosted.seq:
            return hosted
        row: Any = await self.store.get_game(game_id)
        board = hosted.board
        game = Game(board, len(hosted.seats), Dealer(row.seed))
        for rec in (await self.store.load_actions(game_id))[:seq]:
            game.apply(action_from_json(game, rec.action, SEAT_NAMES))
        return replace(hosted, game=game, seq=seq, status=ACTIVE if not game.over else FINISHED)

    async def rebuild(self, game_id: int) -> Game:
        """The game replayed from its seed and its whole action log (the snapshot's check;
        `python bot.py rebuild`)."""
        return await self.core.rebuild(game_id)


def _unique(names):
    out = []
    for n in names:
        k, i = n, 2
        while k in out:
            k, i = f"{n} ({i})", i + 1
        out.append(k)
    return out
