"""A cup's state and its standings: plain values, pure functions (no I/O), what service/cups.py
stores as one JSON document (store/subjects/cups.py) and hands the adapter (`Cup`).

Tournament points: at a table of S seats a player earns one point for every seat (a computer's
too) that finished behind them: S - 1 for a win, 0 for last; players with equal results share
the better place. A bye earns the middle place's points, (S - 1) // 2. Standings: points, then
the tie-break of opponents' points (the sum of the current points of every human opponent met,
once per table), then the sum of the player's game scores; equal on all three share a place.
A table whose game did not finish (closed, or still going when the round ended) is scored as it
stood when it ended: the engine's final scoring as if the game ended then (rules §11.14).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cup_pairing import met_pairs

FILLS = ("computer", "bye")


@dataclass(frozen=True, slots=True)
class CupSettings:
    maps: tuple[str, ...]      # round r plays maps[(r - 1) % len(maps)]
    variant: str
    seats: int                 # per table, within every map's limits
    rounds: int
    deadline: int              # hours per turn (turns.DEADLINES)
    round_hours: int           # how long a round may last
    signup_close: float        # epoch seconds
    fill: str = "computer"     # FILLS: a short table gets computers, or its players a bye
    level: str = "easy"        # the computers' level (fill, and the cup's computer entrants)

    def to_dict(self) -> dict[str, Any]:
        return {"maps": list(self.maps), "variant": self.variant, "seats": self.seats,
                "rounds": self.rounds, "deadline": self.deadline,
                "round_hours": self.round_hours, "signup_close": self.signup_close,
                "fill": self.fill, "level": self.level}

    @classmethod
    def of(cls, d: dict[str, Any]) -> CupSettings:
        return cls(tuple(d["maps"]), str(d["variant"]), int(d["seats"]), int(d["rounds"]),
                   int(d["deadline"]), int(d["round_hours"]), float(d["signup_close"]),
                   str(d.get("fill", "computer")), str(d.get("level", "easy")))

    def map_of(self, round_no: int) -> str:
        return self.maps[(round_no - 1) % len(self.maps)]


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    id: int                    # a user id; a computer entrant's is negative
    name: str
    points: int
    opponents: int             # the tie-break: opponents' points
    score: int                 # the second tie-break: the sum of game scores
    games: int
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Cup:
    """A cup as the adapter sees it."""
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    created_by: int
    name: str
    status: str
    version: int
    settings: CupSettings
    players: tuple[dict[str, Any], ...]    # {"id", "name", "level", "rating", "withdrawn"}
    rounds: tuple[dict[str, Any], ...]     # {"n", "ends_at", "byes", "done", "tables": [...]}
    standings: tuple[Standing, ...]

    @property
    def round(self) -> int:
        return len(self.rounds)

    def player(self, pid: int) -> dict[str, Any] | None:
        return next((p for p in self.players if p["id"] == pid), None)

    def active(self) -> list[dict[str, Any]]:
        return [p for p in self.players if not p["withdrawn"]]


def table_points(result: list[dict[str, Any]], seats: int) -> dict[int, tuple[int, int]]:
    """{player id: (points, score)} of a table's result (rows {"id", "rank", "score"}; a
    computer's id is None)."""
    out = {}
    for row in result:
        if row["id"] is not None:
            behind = sum(1 for o in result if o["rank"] > row["rank"])
            out[int(row["id"])] = (behind, int(row["score"]))
    return out


def standings(players: list[dict[str, Any]], rounds: list[dict[str, Any]],
              seats: int) -> tuple[Standing, ...]:
    """The standings after the rounds' finished tables (module text: points, tie-breaks)."""
    points = {p["id"]: 0 for p in players}
    score = {p["id"]: 0 for p in players}
    games = {p["id"]: 0 for p in players}
    met: dict[int, list[int]] = {p["id"]: [] for p in players}
    for rnd in rounds:
        for pid in rnd.get("byes", ()):
            points[pid] += (seats - 1) // 2
        for table in rnd["tables"]:
            if table.get("result") is None:
                continue
            for pid, (pts, sc) in table_points(table["result"], seats).items():
                points[pid] += pts
                score[pid] += sc
                games[pid] += 1
                met[pid] += [o for o in table["players"] if o != pid]
    opp = {pid: sum(points[o] for o in met[pid]) for pid in points}
    key = {pid: (points[pid], opp[pid], score[pid]) for pid in points}
    order = sorted(players, key=lambda p: (tuple(-k for k in key[p["id"]]), p["name"], p["id"]))
    return tuple(Standing(1 + sum(1 for o in points if key[o] > key[p["id"]]), p["id"],
                          p["name"], points[p["id"]], opp[p["id"]], score[p["id"]],
                          games[p["id"]], bool(p["withdrawn"])) for p in order)


def history(rounds: list[dict[str, Any]]) -> tuple[set[tuple[int, int]], dict[int, int]]:
    """(pairs who met, how often each player sat with computers or had a bye)."""
    met = met_pairs(t["players"] for r in rounds for t in r["tables"])
    filled: dict[int, int] = {}
    for r in rounds:
        for pid in r.get("byes", ()):
            filled[pid] = filled.get(pid, 0) + 1
        for t in r["tables"]:
            if t.get("computers"):
                for pid in t["players"]:
                    filled[pid] = filled.get(pid, 0) + 1
    return met, filled
