"""What both drivers share: the columns they read, the status moves they allow, how JSON goes in,
and how a row becomes one of the records in models.py. SQL that differs by dialect (placeholders,
locking, error classes) stays in each driver."""
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .models import Game, ResultRecord, Seat, Timer

# status -> the statuses a game may come from
TRANSITIONS = {"active": ("lobby",), "finished": ("active",), "cancelled": ("lobby", "active")}
GAME_COLUMNS = ("id, guild_id, channel_id, map, variant, options, seed, status, host_id, "
                "created_at, updated_at, finished_at, seq")
SEAT_COLUMNS = "game_id, seat, user_id, display_name, bot_level, notify, former_user_id"
TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at, attempts"
RESULT_COLUMNS = ("game_id, seat, user_id, score, rank, won, tickets_completed, map, variant, "
                  "finished_at, former_user_id")
INT64 = range(-2**63, 2**63)   # Discord ids and seeds: signed 64-bit on both databases


def now_or_clock(now: float | None) -> float:
    return float(time.time() if now is None else now)


def dump(obj: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(obj or {}), separators=(",", ":"), ensure_ascii=False)


def check_json_object(text: str, what: str) -> None:
    """Refuse to store what a later load would reject."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object, not {type(value).__name__}")


def game_record(row: Sequence[Any]) -> Game:
    (id_, guild_id, channel_id, map_, variant, options, seed, status, host_id, created_at,
     updated_at, finished_at, seq) = row
    return Game(id_, guild_id, channel_id, map_, variant, json.loads(options), seed, status,
                host_id, created_at, updated_at, finished_at, seq)


def seat_record(row: Sequence[Any]) -> Seat:
    game_id, number, user_id, display_name, bot_level, notify, former_user_id = row
    return Seat(game_id, number, user_id, display_name, bot_level, json.loads(notify),
                former_user_id)


def timer_record(row: Sequence[Any]) -> Timer:
    id_, game_id, kind, due_at, payload, created_at, attempts = row
    return Timer(id_, game_id, kind, due_at, json.loads(payload), created_at, attempts)


def result_record(row: Sequence[Any]) -> ResultRecord:
    game_id, number, user_id, score, rank, won, tickets, map_, variant, finished_at, former = row
    return ResultRecord(game_id=game_id, seat=number, user_id=user_id, score=score, rank=rank,
                        won=bool(won), tickets_completed=tickets, map=map_, variant=variant,
                        finished_at=finished_at, former_user_id=former)
