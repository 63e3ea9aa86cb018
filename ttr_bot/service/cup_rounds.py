"""A cup's next round, decided from its state (no I/O but the pairing's worker): the Swiss
pairing of the active players into tables (cup_pairing.py, worked out by `pairer`, which runs it
off the event loop), written into the state, with what it owes: the cup's post edited, each
table's opening (`CupTableOpen`), the round's check and deadline timers; or the end of the cup
(its final post) after the last round or when too few players are left."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ..store import OutboxItem, Owed
from .cup_messages import CupFinal, CupPost, CupTableOpen
from .cup_pairing import Entrant, Pairing
from .cup_rules import CupCheck, CupRoundEnd, timer
from .cup_state import Cup, history, standings
from .messages import Lane
from .owed import owed_row

HOUR = 3600.0
CHECK_EVERY = 300.0          # how often a running round looks whether its games have ended
# pair_round's arguments (players, seats, fill, met, filled, seed) -> the round's tables
Pairer = Callable[[Sequence[Entrant], int, str, frozenset[tuple[int, int]], Mapping[int, int],
                   int], Awaitable[Pairing]]


def post_row(cup_id: int, channel_id: int, version: int) -> OutboxItem:
    """The cup's post as of `version` (edited in place by the adapter)."""
    return owed_row(Lane.channel(channel_id), CupPost(cup_id), key=f"cup:{cup_id}:v{version}")


async def next_round(cup: Cup, state: dict[str, Any], now: float,
                     pairer: Pairer) -> tuple[str, Owed]:
    """Pair the next round into `state` (or end the cup): the new status and what it owes."""
    s = cup.settings
    done = len(state["rounds"])
    table = standings(state["players"], state["rounds"], s.seats)
    active = [x for x in table if not x.withdrawn]
    post = post_row(cup.id, cup.channel_id, cup.version + 1)
    too_few = len(active) < (s.seats if s.fill == "bye" else 2)
    if done >= s.rounds or too_few:
        if done == 0:           # nobody to play: the cup closes without a round
            return "cancelled", Owed((post,))
        final = owed_row(Lane.channel(cup.channel_id), CupFinal(cup.id),
                         key=f"cup:{cup.id}:final")
        return "finished", Owed((post, final))
    rating = {p["id"]: float(p["rating"]) for p in state["players"]}
    met, filled = history(state["rounds"])
    pairing = await pairer([Entrant(x.id, x.points, x.opponents * 1e6 + x.score, rating[x.id])
                            for x in active], s.seats, s.fill, frozenset(met), dict(filled),
                           (int(state["seed"]) + done * 7919) % 2 ** 62)
    n = done + 1
    ends = now + s.round_hours * HOUR
    tables: list[dict[str, Any]] = [
        {"no": i + 1, "map": s.map_of(n), "players": list(tb.players),
         "computers": tb.computers, "game": None, "channel": None, "result": None}
        for i, tb in enumerate(pairing.tables)]
    state["rounds"].append({"n": n, "ends_at": ends, "byes": list(pairing.byes),
                            "done": False, "tables": tables})
    lane = Lane.channel(cup.channel_id)
    rows = [post] + [owed_row(lane, CupTableOpen(cup.id, n, tb["no"], tuple(
        p for p in tb["players"] if p > 0)), key=f"cup:{cup.id}:r{n}:t{tb['no']}")
        for tb in tables]
    timers = (timer(CupCheck(cup.id, n), now + CHECK_EVERY),
              timer(CupRoundEnd(cup.id, n), ends))
    return "running", Owed(tuple(rows), timers)
