"""Checks on the action log and the snapshot, shared by every driver.

A game is rebuilt from what these return, so a damaged row must stop the load with an error that
names the game and the seq (CorruptLog / CorruptSnapshot): resuming from a log with a hole in it
would silently give players a different game.
"""
import json
from collections.abc import Iterable
from typing import Any

from .errors import CorruptLog, CorruptSnapshot
from .models import ActionRecord, Snapshot


def parse_action(text: Any) -> dict[str, Any]:
    """Decode one action; ValueError (with the reason) unless it is a JSON object with a type."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not isinstance(text, str):
        raise ValueError(f"action is stored as {type(text).__name__}, not JSON text")
    try:
        action = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc})") from None
    if not isinstance(action, dict):
        raise ValueError(f"not a JSON object but {type(action).__name__}")
    if not isinstance(action.get("type"), str) or not action["type"]:
        raise ValueError('no "type"')
    return action


def check_actions(
    game_id: int, rows: Iterable[tuple[int, int | None, Any, float]], game_seq: int,
) -> list[ActionRecord]:
    """Validate (seq, actor, action_text, created_at) rows ordered by seq into records.

    `game_seq` is the game's action count: a log that stops short of it lost its tail.
    """
    records = []
    expected = 1
    for seq, actor, text, created_at in rows:
        if seq != expected:
            raise CorruptLog(game_id, expected, f"missing (the next stored action is seq {seq})")
        try:
            action = parse_action(text)
        except ValueError as exc:
            raise CorruptLog(game_id, seq, str(exc)) from None
        if actor is not None and not isinstance(actor, int):
            raise CorruptLog(game_id, seq, f"actor is {actor!r}, not a seat number")
        records.append(ActionRecord(game_id, seq, actor, action, created_at))
        expected += 1
    if expected - 1 != game_seq:
        if expected - 1 < game_seq:
            raise CorruptLog(
                game_id, expected, f"missing (the log ends at {expected - 1}, game is at {game_seq})"
            )
        raise CorruptLog(game_id, game_seq + 1, f"beyond the game's seq {game_seq}")
    return records


def check_snapshot(
    game_id: int, seq: int, text: Any, updated_at: float, game_seq: int,
) -> Snapshot:
    if seq != game_seq:
        raise CorruptSnapshot(game_id, seq, f"it is for seq {seq} but the game is at {game_seq}")
    try:
        state = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except (TypeError, ValueError) as exc:
        raise CorruptSnapshot(game_id, seq, f"invalid JSON ({exc})") from None
    if not isinstance(state, dict):
        raise CorruptSnapshot(game_id, seq, f"not a JSON object but {type(state).__name__}")
    return Snapshot(game_id, seq, state, updated_at)
