"""The core's public contract: what a service part may use of the core (core.py's `Core`), and
the transaction of each operation that writes. Every part's `self.core` is typed as this
protocol, not as `Core`, so the type checker refuses a part that reaches for anything else;
`Core` satisfies it structurally (host.py hands it to each part, and mypy checks it there).

Writes, and their transactions (the store's contract, store/base.py: each store method is one
transaction, all of its changes or none, with the `owed` rows and timers it carries):
- `apply`: an action: its log row, the snapshot, the results and ratings of a game it ends, the
  seats' timeouts, and the rows and timers it owes (`owing.for_action`): one transaction
  (`append_action`).
- `cancel`: closing a game: its status, the closing post and DMs: one transaction
  (`set_status`).
- `write_game`: any other change of a game's own rows (the game row, its seats: what the core
  caches), one store method, one transaction with what it owes; the core then wakes whoever
  sends and fires that (`committed`) and drops the cached copy. The parts' such writes:
  lobby (`create_game`, `add_seat`, `remove_seat`, `start_game`), handover
  (`hand_seat_to_bot`), absence (`return_seat`, `leave_lobby`).
- Every other write a part makes is one method of a store subject it was given (its
  `self.store`), one transaction carrying its own `owed`, after which the part calls
  `committed(owed)`: votes, away periods, preferences, the adapter's state, seasons, the
  board, cups, the outbox's own bookkeeping (the delivery queue) and notices a part owes
  (`write_owed`). Those rows are not the cached game's, so they need neither the game's lock
  nor the core. The scheduler (`scheduler`) writes timers the same way.

Nothing here writes outside a transaction it names; a part's change that must be atomic
with another is one store method, never two calls (a lobby host who left the server gives up
the seat, hands the lobby on and the channel is told in one: `leave_lobby`).
"""
from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

from ..engine.game import Game
from ..store import Away, Owed, Shards, Store
from ..workers import WorkerPool
from .effects import Effects, Handover
from .hosted import HostedGame
from .owed import Owing
from .scheduler import Scheduler

T = TypeVar("T")


class CoreContract(Protocol):
    """The core as the parts see it (see the module's docstring for the writes)."""

    # ----- what the core holds (read-only to the parts) ---------------------------------------
    @property
    def store(self) -> Store:
        """The whole store: a part takes from it, once in its constructor, the subjects it
        uses (`self.store: LobbyStore = core.store`), and calls only those."""

    @property
    def clock(self) -> Callable[[], float]:
        """What time it is (epoch seconds): the service's one clock."""

    @property
    def seeds(self) -> random.Random:
        """Where a new game's (or cup's) seed comes from."""

    @property
    def bot_delay(self) -> float:
        """Seconds a computer player waits before it moves (its timers' due time)."""

    @property
    def shards(self) -> Shards | None:
        """The guilds this process serves (None: every guild)."""

    @property
    def owner(self) -> str:
        """This process's name on the leases it takes (timers, owed messages)."""

    @property
    def on_outbox(self) -> Callable[[], None] | None:
        """Called (no arguments) when owed messages were written."""

    @property
    def workers(self) -> WorkerPool:
        """The worker pool: computer players, hints and a cup's pairing think there."""

    @property
    def decision_timeout(self) -> float:
        """Seconds a decision may take in a worker."""

    @property
    def scheduler(self) -> Scheduler:
        """The timers: each part registers its kinds (`scheduler.on`) and asks whether a
        timer's try is its last (`scheduler.last_try`); `scheduler.schedule` writes one
        timer, one transaction."""

    @property
    def owing(self) -> Owing:
        """What a change owes (owed.py): `for_start`, `for_seat_change` (rows and timers for
        the caller's own transaction; it writes nothing)."""

    # ----- reading a game (no writes) -----------------------------------------------------------
    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the game for a change: this process's lock, then the store's (another process
        on the same database waits there); a stale cached copy is dropped. Writes nothing."""

    async def load(self, game_id: int) -> HostedGame | None:
        """The game, from the cache or the store (None if there is no such game)."""

    async def reload(self, game_id: int) -> Any:
        """The game read from the store again (its cached copy dropped first)."""

    def forget(self, game_id: int) -> None:
        """Drop the cached copy: the next `load` reads the store."""

    def forget_channel(self, channel_id: int) -> None:
        """Drop what the core remembers of a channel's open game (the game was closed)."""

    async def active(self, game_id: int) -> HostedGame:
        """The game in play, else ServiceError (no game, not active)."""

    async def started(self, game_id: int) -> HostedGame:
        """The game once dealt (in play or over), else ServiceError."""

    async def game_in_channel(self, channel_id: int) -> HostedGame | None:
        """The channel's open game (in the lobby or in play), or None."""

    async def channel_game(self, channel_id: int) -> HostedGame:
        """The channel's open game, else ServiceError("service.no_game")."""

    async def rebuild(self, game_id: int) -> Game:
        """The game replayed from its seed and its whole action log."""

    async def replayed(self, game_id: int) -> tuple[Game, list, Game]:
        """(the game as dealt, its log as engine actions, the game after them)."""

    async def away_of(self, hosted: HostedGame, user_id: int, now: float) -> Away | None:
        """The player's away period in the game's server, if it lasts past `now`."""

    # ----- computer players (no writes) -------------------------------------------------------
    async def decide(self, level: str, seed: int, view: Any) -> Any:
        """A computer player's action, worked out in a worker (WorkerLost: ask again)."""

    def decide_safely(self, seed: int, view: Any) -> Any:
        """The simplest level's action, worked out here (a decision's last try)."""

    def factory(self) -> Any:
        """The agents to decide with (None: the default levels)."""

    def agent_seed(self, hosted: HostedGame, seat: int) -> int:
        """The seed of a computer player's decision at this seat in this position."""

    # ----- changing a game (under its lock), and what a change owes ---------------------------
    async def apply(self, hosted: HostedGame, action: Any, actor: int, *,
                    by: str | None = None) -> Effects:
        """Apply an action: the engine checks it; its log row, the snapshot (with the results
        and ratings if it ends the game), the seats' timeouts and what it owes are written in
        one transaction (`append_action`, refused if another change came first); then
        `committed`. Under the game's lock."""

    async def cancel(self, hosted: HostedGame, *, reason: str | None = None,
                     handover: Handover | None = None, dm_key: str | None = None) -> Effects:
        """Close the game: its status and the closing post (and DMs, with `dm_key`) in one
        transaction (`set_status`); then `committed`, and the cached copy dropped. Under the
        game's lock."""

    async def write_game(self, game_id: int | None, write: Awaitable[T],
                         owed: Owed | None = None) -> T:
        """Any other change of a game's rows: `write`, one store method and so one transaction
        carrying `owed`; then `committed(owed)` and the cached copy of `game_id` dropped (None:
        a game the write creates). What `write` returns."""

    def committed(self, owed: Owed | None) -> None:
        """Owed rows and timers were written (by the caller's transaction): wake whoever sends
        and fires them. Writes nothing."""
