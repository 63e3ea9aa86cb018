"""What the service tells its callers about one hosted game: read-only values, no store types.

`HostedGame` is a snapshot: the service never changes one it has handed out, it makes a new one
for every change (so a caller may keep it while the game moves on, e.g. to post the state of
the turn that just ended). `game` is the engine's state; callers must treat it as read-only too.
"""
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import Board
from ..engine.game import Game
from ..engine.view import PlayerView, view
from .turns import GameOptions

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
GAME_HINTS = "hints"      # the /ttr new option: True when the host allowed /ttr hint (hints.py)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: a human (user_id) or a computer player (level)."""
    number: int                   # the stored seat number (a lobby's may have gaps)
    user_id: int | None           # None for a computer player
    name: str
    level: str | None = None      # "easy" / "medium" / "hard" for a computer player
    former_user_id: int | None = None   # a computer seat's former human player
    timeouts: int = 0             # turns in a row that ran out of time
    handover: str | None = None   # why a computer plays a seat a human held: "left", ...
    human_turns: int | None = None      # turns the former player had finished by then

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class HostedGame:
    id: int
    seq: int                      # actions applied so far (what a fresh button carries)
    status: str                   # LOBBY, ACTIVE, FINISHED or CANCELLED
    guild_id: int | None
    channel_id: int
    host_id: int
    map_id: str
    variant: str
    board: Board
    seats: tuple[SeatInfo, ...]
    game: Game | None = None      # None in the lobby (and for a game cancelled there)
    seed: int = field(default=0, repr=False)   # secret: it decides every shuffle
    options: dict[str, Any] = field(default_factory=dict, compare=False)   # the game's settings
                                  # (/ttr new), read-only
    updated_at: float = 0.0       # the last change (an action, a handover...)
    end_reason: str | None = None

    @property
    def hints_allowed(self) -> bool:
        """Did the host allow /ttr hint (such a game is never rated: finish.py)?"""
        return bool(self.options.get(GAME_HINTS))

    @property
    def settings(self) -> GameOptions:
        """The game's options as GameOptions (deadline, reminders, away mode)."""
        return GameOptions.of(self.options)

    @property
    def is_lobby(self) -> bool:
        return self.status == LOBBY

    @property
    def is_active(self) -> bool:
        return self.status == ACTIVE

    @property
    def is_finished(self) -> bool:
        return self.status == FINISHED

    @property
    def is_open(self) -> bool:
        """In the lobby or in play: the channel's current game."""
        return self.status in (LOBBY, ACTIVE)

    @property
    def started(self) -> bool:
        return self.game is not None

    def seat_of(self, user_id: int | None) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def humans(self) -> list[int]:
        """The seats humans play, in seat order."""
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    def players(self) -> list[int]:
        """The users who sat at the table, in seat order: the humans, and those who left their
        seat to a computer player."""
        return [u for s in self.seats if (u := s.user_id or s.former_user_id) is not None]

    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def host_name(self) -> str | None:
        for s in self.seats:
            if s.user_id == self.host_id:
                return s.name
        return None

    def view(self, seat: int) -> PlayerView:
        """What the player in `seat` may know of the game in play."""
        if self.game is None:
            raise ValueError(f"game {self.id} is not in play")
        return view(self.game, seat)
