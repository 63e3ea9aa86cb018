"""/ttr games: a player's open games in one server, their own turns first (a collaborator of the
service's core). Plain values for the adapter to write out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..store import GameStore, TimerStore
from .core_contract import CoreContract
from .turns import DEADLINE, seat_turn_named


class ListingStore(GameStore, TimerStore, Protocol):
    """The store's subjects this part uses: a user's games and their timers."""


@dataclass(frozen=True)
class GameListing:
    game_id: int
    channel_id: int
    map_id: str
    variant: str
    board: object
    status: str                 # "lobby" or "active"
    your_turn: bool
    to_move: tuple[str, ...]    # names of the players to move
    since: float                # the last change: when the current turn began, or later
    deadline: float | None      # the caller's (or the player to move's) deadline
    away_until: dict            # name -> until, for the players to move who are away


class Listing:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: ListingStore = core.store

    async def games_of(self, user_id: int, guild_id: int | None) -> list[GameListing]:
        out = []
        for row in await self.store.games_of_user(user_id, guild_id):
            hosted = await self.core.load(row.id)
            if hosted is None or not hosted.is_open:
                continue
            seat = hosted.seat_of(user_id)
            moving = [] if hosted.game is None else hosted.game.to_move()
            deadline, away = None, {}
            if moving:
                focus = seat if seat in moving else moving[0]
                for timer in await self.store.list_timers(hosted.id, DEADLINE):
                    if seat_turn_named(hosted.game, focus, timer.payload):
                        deadline = timer.due_at
                for s in moving:
                    u = hosted.seats[s].user_id
                    if u is not None and guild_id is not None:
                        a = await self.core.away_of(hosted, u, self.core.clock())
                        if a is not None:
                            away[hosted.seats[s].name] = a.until
            out.append(GameListing(
                hosted.id, hosted.channel_id, hosted.map_id, hosted.variant, hosted.board,
                hosted.status, seat in moving, tuple(hosted.seats[s].name for s in moving),
                hosted.updated_at, deadline, away))
        out.sort(key=lambda g: (not g.your_turn, g.since))
        return out
