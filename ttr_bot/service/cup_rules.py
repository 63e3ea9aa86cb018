"""A cup's typed timers and the settings a cup may have (service/cups.py uses them).

Timers (each a frozen dataclass written as its payload; `KIND` is the timer's kind):
`CupSignup` closes the sign-up, `CupCheck` looks whether a round's games have all ended,
`CupRoundEnd` ends a round at its deadline.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..maps import MapError, load_board
from ..store import NewTimer
from .cup_state import FILLS
from .effects import ServiceError
from .levels import BOT_LEVELS
from .lobby import check_table
from .turns import DEADLINES

MAX_ROUNDS = 12


@dataclass(frozen=True, slots=True)
class CupSignup:
    KIND: ClassVar[str] = "cup_signup"
    cup: int

    def to_payload(self) -> dict[str, Any]:
        return {"cup": self.cup}

    @classmethod
    def from_payload(cls, p: dict[str, Any]) -> CupSignup:
        return cls(int(p["cup"]))


@dataclass(frozen=True, slots=True)
class CupCheck:
    KIND: ClassVar[str] = "cup_check"
    cup: int
    round: int

    def to_payload(self) -> dict[str, Any]:
        return {"cup": self.cup, "round": self.round}

    @classmethod
    def from_payload(cls, p: dict[str, Any]) -> CupCheck:
        return cls(int(p["cup"]), int(p["round"]))


@dataclass(frozen=True, slots=True)
class CupRoundEnd(CupCheck):
    KIND: ClassVar[str] = "cup_round_end"

    @classmethod
    def from_payload(cls, p: dict[str, Any]) -> CupRoundEnd:
        return cls(int(p["cup"]), int(p["round"]))


def timer(t: CupSignup | CupCheck, due: float) -> NewTimer:
    return NewTimer(t.KIND, due, t.to_payload())


def check_settings(maps: list[str], variant: str, seats: int, rounds: int, deadline: int,
                   signup_hours: float, round_hours: int, fill: str, level: str,
                   name: str) -> None:
    """ServiceError naming the first setting a cup cannot have."""
    if not name:
        raise ServiceError("service.cup_name")
    if not maps or len(maps) > 5:
        raise ServiceError("service.cup_maps")
    if not 2 <= seats <= 5:
        raise ServiceError("service.cup_seats_range")
    for map_id in maps:
        check_table(map_id, variant)
        try:
            rules = load_board(map_id, variant).rules
        except (KeyError, MapError, FileNotFoundError):
            raise ServiceError("service.unknown_map", map=map_id) from None
        if not rules.min_players <= seats <= rules.max_players:
            raise ServiceError("service.cup_seats", map=map_id, min=rules.min_players,
                               max=rules.max_players)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError("service.cup_rounds", max=MAX_ROUNDS)
    if deadline not in DEADLINES or deadline == 0:
        raise ServiceError("service.bad_option", option="deadline")
    if not 0 < signup_hours <= 30 * 24:
        raise ServiceError("service.bad_option", option="signup")
    if not deadline <= round_hours <= 60 * 24:
        raise ServiceError("service.cup_round_hours", min=deadline)
    if fill not in FILLS:
        raise ServiceError("service.bad_option", option="fill")
    if level not in BOT_LEVELS:
        raise ServiceError("service.unknown_level", level=level)
