"""A cup round's pairing by the Swiss rule: pure (no I/O, no clock), deterministic for a seed.

    tables = pair(players, seats=3, fill="computer", met=met, filled=filled, seed=7)

Every table has exactly `seats` seats. The players who are not enough to make a last full table
are seated with computers (`fill="computer"`: the computers spread over the last tables, one or
two per table, so no human waits and humans meet humans where they can) or sit the round out
with a bye (`fill="bye"`). Who gets the computer seats or the byes rotates: those who had them
least often so far, then the lowest in the standings, then a seeded draw; when that choice
forces a repeated opponent, another among those who had them as often is tried (up to CHOICES
of them, within one more `budget` of search steps), so a repeat is never the price of the
standings' order alone.

The others are seated top down by standing (points, then the tie-break, then rating, then the
seeded draw): each table is the best-placed player not yet seated and the next ones below them
they have not met. A depth-first search backs up when the rest cannot be seated without a
repeat; within `budget` steps it finds a pairing with no repeated opponent whenever one exists
for the sizes at hand (small rounds: always), else it allows one repeat, then two..., up to
what a greedy seating (fewest repeats at each choice) needs, which is the answer otherwise.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

FILLS = ("computer", "bye")
BUDGET = 20_000     # search steps before the greedy pairing is taken
CHOICES = 128       # other fair choices of who sits with computers (or out) tried for a repeat


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player to pair: their id, tournament points, tie-break and rating (higher is better)."""
    id: int
    points: float = 0.0
    tiebreak: float = 0.0
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class Table:
    players: tuple[int, ...]      # the humans, best placed first
    computers: int = 0            # seats a computer player fills


@dataclass(frozen=True, slots=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    repeats: int = 0              # pairs of players at one table who had met before
    filled: tuple[int, ...] = field(default=())   # the players seated with computers


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def met_pairs(tables: Iterable[Sequence[int]]) -> set[tuple[int, int]]:
    """Every pair of players who sat at one of `tables`."""
    out: set[tuple[int, int]] = set()
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1:]:
                out.add(pair_key(a, b))
    return out


def pair(players: Sequence[Entrant], *, seats: int, fill: str = "computer",
         met: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
         filled: Mapping[int, int] | None = None, seed: int = 0,
         budget: int = BUDGET) -> Pairing:
    """The round's tables (see the module's text). `met`: pairs who met before (pair_key);
    `filled`: how often each player sat with computers or had a bye so far."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    if fill not in FILLS:
        raise ValueError(f"fill is one of {FILLS}")
    if len({p.id for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    filled = filled or {}
    rng = random.Random(seed)
    draw = {p.id: rng.random() for p in sorted(players, key=lambda p: p.id)}
    order = sorted(players, key=lambda p: (-p.points, -p.tiebreak, -p.rating, draw[p.id]))
    rank = {p.id: i for i, p in enumerate(order)}
    n = len(order)
    short = (-n) % seats                     # seats to fill to make the last table full
    if fill == "bye":
        extra, computers = n % seats, []      # players sitting out
    else:
        k = -(-n // seats)
        computers = [short // k + (1 if i < short % k else 0) for i in range(k)][::-1]
        computers = [c for c in computers if c]
        extra = sum(seats - c for c in computers)
    # who sits out / plays with computers: fewest times so far, then lowest placed, then draw;
    # among those as often so far, another choice where it avoids a repeated opponent
    ranked = sorted(order, key=lambda p: (filled.get(p.id, 0), -rank[p.id]))
    spare = [budget]                    # the alternatives' search steps, all together
    best: Pairing | None = None
    for i, chosen_ids in enumerate(_fair_choices([p.id for p in ranked], extra, filled)):
        main = [p.id for p in order if p.id not in chosen_ids]
        rest = [p.id for p in order if p.id in chosen_ids]
        steps = None if i == 0 else spare
        if steps is not None:           # a greedy seating's comparisons count as steps too
            spare[0] -= n * n // seats
        if fill == "bye":
            tables = [Table(tuple(g)) for g in
                      _seat(main, [seats] * (len(main) // seats), met, budget, steps)]
            byes = tuple(rest)
        else:
            groups = _seat(main, [seats] * (len(main) // seats), met, budget, steps)
            groups += _seat(rest, [seats - c for c in computers], met, budget, steps)
            tables = [Table(tuple(g)) for g in groups[:len(main) // seats]]
            tables += [Table(tuple(g), c)
                       for g, c in zip(groups[len(main) // seats:], computers)]
            byes = ()
        repeats = sum(1 for t in tables for pr in met_pairs([t.players]) if pr in met)
        if best is None or repeats < best.repeats:
            best = Pairing(tuple(tables), byes, repeats,
                           tuple(rest) if fill == "computer" else ())
        if repeats == 0 or spare[0] <= 0:
            break
    assert best is not None
    return best


def pair_round(players: Sequence[Entrant], seats: int, fill: str,
               met: frozenset[tuple[int, int]], filled: Mapping[int, int],
               seed: int) -> Pairing:
    """`pair` with its arguments in order: what a worker process runs (pool.run passes no
    keywords)."""
    return pair(players, seats=seats, fill=fill, met=met, filled=filled, seed=seed)


def _fair_choices(ranked: list[int], extra: int,
                  filled: Mapping[int, int]) -> Iterator[set[int]]:
    """The sets of `extra` players who may sit out or with computers, the rotation's own
    choice first (the first `extra` of `ranked`): whoever had it fewer times than the last one
    chosen is in every set; those who had it as often as that one are interchangeable, taken
    at most CHOICES ways."""
    if extra == 0:
        yield set()
        return
    cut = filled.get(ranked[extra - 1], 0)
    must = [p for p in ranked[:extra] if filled.get(p, 0) < cut]
    pool = [p for p in ranked if filled.get(p, 0) == cut]
    for combo in itertools.islice(itertools.combinations(pool, extra - len(must)), CHOICES):
        yield set(must) | set(combo)


def _seat(order: list[int], sizes: list[int], met: Iterable[tuple[int, int]],
          budget: int, steps: list[int] | None = None) -> list[list[int]]:
    """`order` (best first) into tables of `sizes`: no repeat if the search finds a way within
    `budget` steps (each number of repeats allowed its own; with `steps`, every search takes
    from that one count), else greedily with the fewest repeats at each choice."""
    met = met if isinstance(met, (set, frozenset)) else set(met)
    if not sizes:
        return []
    greedy = _greedy(order, sizes, met)
    worst = sum(1 for pr in met_pairs(greedy) if pr in met)
    for allow in range(worst):       # the fewest repeats the search finds in its budget
        found = _search(order, sizes, met, [budget] if steps is None else steps, allow)
        if found is not None:
            return found
    return greedy


def _search(order: list[int], sizes: list[int], met: set | frozenset,
            steps: list[int], allow: int = 0) -> list[list[int]] | None:
    """Seated top down with at most `allow` repeated pairs, or None (also when `steps`, the
    search steps left, run out)."""
    spare = [allow]
    tables: list[list[int]] = []
    left = list(order)

    def fill(t: int) -> bool:
        if t == len(sizes):
            return True
        head = left.pop(0)
        table = [head]
        if grow(t, table, 0):
            return True
        left.insert(0, head)
        return False

    def grow(t: int, table: list[int], start: int) -> bool:
        steps[0] -= 1
        if steps[0] < 0:
            return False
        if len(table) == sizes[t]:
            tables.append(table)
            if fill(t + 1):
                return True
            tables.pop()
            return False
        for i in range(start, len(left)):
            cand = left[i]
            cost = sum(1 for x in table if pair_key(cand, x) in met)
            if cost > spare[0]:
                continue
            left.pop(i)
            table.append(cand)
            spare[0] -= cost
            if grow(t, table, i):
                return True
            spare[0] += cost
            table.pop()
            left.insert(i, cand)
            if steps[0] < 0:
                return False
        return False

    return [list(t) for t in tables] if fill(0) else None


def _greedy(order: list[int], sizes: list[int], met: set | frozenset) -> list[list[int]]:
    left = list(order)
    out = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(range(len(left)),
                       key=lambda i: (sum(pair_key(left[i], x) in met for x in table), i))
            table.append(left.pop(best))
        out.append(table)
    return out
