"""What the SQL layer (sql/) and the copy tool share: the columns they read, the status moves
they allow, how JSON goes in, and how a row becomes one of the records in models.py."""
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import StoreError
from .models import (
    FinishedGame,
    Game,
    LaneBlock,
    LeaderboardRow,
    MessageRef,
    OutboxRow,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    RatingValue,
    ResultRecord,
    Seat,
    SeatResult,
    Timer,
    UserPrefs,
    Vote,
)

# status -> the statuses a game may come from
TRANSITIONS = {"active": ("lobby",), "finished": ("active",), "cancelled": ("lobby", "active")}
GAME_COLUMNS = ("id, guild_id, channel_id, map, variant, options, seed, status, host_id, "
                "created_at, updated_at, finished_at, seq, end_reason")
SEAT_COLUMNS = ("game_id, seat, user_id, display_name, bot_level, notify, former_user_id, "
                "timeouts, handover, human_turns")
OUTBOX_COLUMNS = ("id, game_id, kind, lane, payload, key, held, seq, due_at, created_at, "
                  "attempts, sent_at, error")
LANE_COLUMNS = "lane, guild_id, refused_since, retry_at, attempts, code"
VOTE_COLUMNS = ("id, game_id, kind, target_seat, proposer, voters, ballots, status, created_at, "
                "expires_at, closed_at")
USER_COLUMNS = "user_id, locale, dms_closed, updated_at, notify"
TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at, attempts"
RESULT_COLUMNS = ("game_id, seat, user_id, score, rank, won, tickets_completed, map, variant, "
                  "finished_at, former_user_id, guild_id, name, tickets_failed, longest_bonus, "
                  "turns_human, turns_total, handover, rated")
# what a finishing game writes of each SeatResult (the rest is copied from the game)
RESULT_FIELDS = ("seat", "user_id", "score", "rank", "won", "tickets_completed",
                 "former_user_id", "name", "tickets_failed", "longest_bonus", "turns_human",
                 "turns_total", "handover", "rated")
RATING_COLUMNS = "scope, user_id, mu, sigma, value, games, updated_at"
CHANGE_COLUMNS = ("game_id, scope, user_id, mu_before, sigma_before, mu_after, sigma_after")
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
     updated_at, finished_at, seq, end_reason) = row
    return Game(id_, guild_id, channel_id, map_, variant, json.loads(options), seed, status,
                host_id, created_at, updated_at, finished_at, seq, end_reason)


def seat_record(row: Sequence[Any]) -> Seat:
    (game_id, number, user_id, display_name, bot_level, notify, former_user_id, timeouts,
     handover, human_turns) = row
    return Seat(game_id, number, user_id, display_name, bot_level, json.loads(notify),
                former_user_id, timeouts, handover, human_turns)


def timer_record(row: Sequence[Any]) -> Timer:
    id_, game_id, kind, due_at, payload, created_at, attempts = row
    return Timer(id_, game_id, kind, due_at, json.loads(payload), created_at, attempts)


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def result_record(row: Sequence[Any]) -> ResultRecord:
    (game_id, number, user_id, score, rank, won, tickets, map_, variant, finished_at, former,
     guild_id, name, failed, longest, turns_human, turns_total, handover, rated) = row
    return ResultRecord(game_id=game_id, seat=number, user_id=user_id, score=score, rank=rank,
                        won=bool(won), tickets_completed=tickets, map=map_, variant=variant,
                        finished_at=finished_at, former_user_id=former, guild_id=guild_id,
                        name=name, tickets_failed=failed, longest_bonus=_flag(longest),
                        turns_human=turns_human, turns_total=turns_total, handover=handover,
                        rated=_flag(rated))


def result_params(r: SeatResult, *, as_int: bool) -> list[Any]:
    """A SeatResult's RESULT_FIELDS as statement parameters (SQLite stores flags as 0/1)."""
    out = []
    for name in RESULT_FIELDS:
        value = getattr(r, name)
        if name in ("won", "longest_bonus", "rated") and value is not None:
            value = int(bool(value)) if as_int else bool(value)
        out.append(value)
    return out


def rating_record(row: Sequence[Any]) -> RatingRecord:
    return RatingRecord(*row)


def change_record(row: Sequence[Any]) -> RatingChange:
    return RatingChange(*row)


def leaderboard_row(row: Sequence[Any]) -> LeaderboardRow:
    return LeaderboardRow(*row)


def rated_users(update: RatingUpdate) -> list[int]:
    """The users to rate, sorted: the order in which their ratings are locked, so that two
    transactions never wait for each other's locks in a circle."""
    return sorted(set(update.users))


def new_ratings(update: RatingUpdate, users: list[int],
                before: dict[int, RatingRecord]) -> dict[int, RatingValue]:
    """`update.rate(before)`, checked: a finite RatingValue for every user and nobody else."""
    after = dict(update.rate(before))
    if set(after) != set(users) or not all(
            isinstance(v, RatingValue) and all(map(_finite, (v.mu, v.sigma, v.value)))
            and v.sigma > 0 for v in after.values()):
        raise StoreError(f"the rating function returned {after!r} for users {users}")
    return after


def _finite(x: float) -> bool:
    return isinstance(x, (int, float)) and x == x and abs(x) != float("inf")


def results_by_game(results: Any) -> list[tuple[int, list[ResultRecord]]]:
    """Results in game order, grouped: [(game id, its results in seat order)]."""
    out: list[tuple[int, list[ResultRecord]]] = []
    for r in results:
        if not out or out[-1][0] != r.game_id:
            out.append((r.game_id, []))
        out[-1][1].append(r)
    return out


def finished_records(games: list[Game], results: list[ResultRecord], posts: list[MessageRef],
              rated: set[int]) -> list[FinishedGame]:
    """The history's records of a page of finished games."""
    by_game = dict(results_by_game(results))
    post = {p.game_id: p for p in posts}
    return [FinishedGame(g, tuple(by_game.get(g.id, ())), post.get(g.id), g.id in rated)
            for g in games]


def outbox_record(row: Sequence[Any]) -> OutboxRow:
    (id_, game_id, kind, lane, payload, key, held, seq, due_at, created_at, attempts, sent_at,
     error) = row
    return OutboxRow(id_, game_id, kind, lane, json.loads(payload), key, bool(held), seq, due_at,
                     created_at, attempts, sent_at, error)


def lane_record(row: Sequence[Any]) -> LaneBlock:
    lane, guild_id, refused_since, retry_at, attempts, code = row
    return LaneBlock(lane, guild_id, refused_since, retry_at, attempts, code)


def vote_record(row: Sequence[Any]) -> Vote:
    (id_, game_id, kind, target_seat, proposer, voters, ballots, status, created_at, expires_at,
     closed_at) = row
    return Vote(id_, game_id, kind, target_seat, proposer, json.loads(voters),
                {int(k): bool(v) for k, v in json.loads(ballots).items()}, status, created_at,
                expires_at, closed_at)


def user_record(row: Sequence[Any]) -> UserPrefs:
    user_id, locale, dms_closed, updated_at, notify = row
    return UserPrefs(user_id, locale, bool(dms_closed), updated_at, json.loads(notify))


def dump_list(items: Sequence[Any]) -> str:
    return json.dumps(list(items), separators=(",", ":"))
