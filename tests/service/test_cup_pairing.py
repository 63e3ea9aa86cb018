"""The Swiss pairing of a cup's round (service/cup_pairing.py) as properties: every player seated
exactly once (or given a bye), every table exactly its seats, no repeated opponents when a
pairing without one exists (checked against every partition of small rounds, and every fair
choice of who sits with computers or out), computer seats and byes spread fairly over rounds,
the same tables for the same seed."""
import itertools
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_bot.service.cup_pairing import Entrant, met_pairs, pair

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rounds(draw, max_players=14):
    n = draw(st.integers(0, max_players))
    seats = draw(st.integers(2, 5))
    fill = draw(st.sampled_from(["computer", "bye"]))
    players = [Entrant(i + 1, draw(st.integers(0, 8)), draw(st.integers(0, 20)),
                       draw(st.floats(0, 2000))) for i in range(n)]
    ids = [p.id for p in players]
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=20)
                 ) if ids else []
    met = {(min(a, b), max(a, b)) for a, b in pairs if a != b}
    return players, seats, fill, met, draw(st.integers(0, 2 ** 32))


def check_shape(players, seats, fill, out):
    seated = [p for t in out.tables for p in t.players] + list(out.byes)
    assert sorted(seated) == sorted(p.id for p in players)       # each exactly once
    for t in out.tables:
        assert len(t.players) + t.computers == seats              # never over or under
        assert len(t.players) >= 1
        assert fill == "computer" or t.computers == 0
    assert fill == "bye" or not out.byes
    assert len(out.byes) < seats                                  # nobody waits needlessly


@given(rounds())
@FAST
def test_everyone_seated_once_within_the_seats(case):
    players, seats, fill, met, seed = case
    out = pair(players, seats=seats, fill=fill, met=met, seed=seed)
    check_shape(players, seats, fill, out)
    if fill == "computer":   # just enough computers, spread: one table has at most one more
        per = [t.computers for t in out.tables if t.computers]
        assert sum(per) == (-len(players)) % seats
        assert not per or max(per) - min(per) <= 1


@given(rounds())
@FAST
def test_deterministic_for_a_seed(case):
    players, seats, fill, met, seed = case
    a = pair(players, seats=seats, fill=fill, met=met, seed=seed)
    b = pair(list(reversed(players)), seats=seats, fill=fill, met=set(met), seed=seed)
    assert a == b


def least_repeats(ids, sizes, met):
    """The fewest repeated pairs over every way of seating `ids` at tables of `sizes`."""
    best = None
    def go(left, sizes, acc):
        nonlocal best
        if best == 0:
            return
        if not sizes:
            best = acc if best is None else min(best, acc)
            return
        head, rest = left[0], left[1:]
        for size in set(sizes):             # the first player at a table of each size there is
            others_sizes = list(sizes)
            others_sizes.remove(size)
            for others in itertools.combinations(rest, size - 1):
                table = (head, *others)
                r = sum(1 for pr in met_pairs([table]) if pr in met)
                go([x for x in rest if x not in others], others_sizes, acc + r)
    go(list(ids), list(sizes), 0)
    return best


@given(rounds(max_players=9))
@FAST
def test_repeats_only_when_unavoidable(case):
    players, seats, fill, met, seed = case
    out = pair(players, seats=seats, fill=fill, met=met, seed=seed)
    # given who sits with computers / out, the rest could not have been seated with fewer
    # repeats: where a pairing without one exists, this is one
    main = [p for t in out.tables if not t.computers for p in t.players]
    with_bots = [t for t in out.tables if t.computers]
    floor = least_repeats(sorted(main), [seats] * (len(main) // seats), met)
    rest = sorted(p for t in with_bots for p in t.players)
    floor += least_repeats(rest, [len(t.players) for t in with_bots], met) if rest else 0
    assert out.repeats == floor


def fair_sets(players, extra, filled):
    """Every set of `extra` players that may sit with computers (or out): nobody in it had
    that more often than anybody left out."""
    for chosen in itertools.combinations([p.id for p in players], extra):
        inside = max((filled.get(p, 0) for p in chosen), default=0)
        if all(filled.get(p.id, 0) >= inside for p in players if p.id not in chosen):
            yield set(chosen)


@given(rounds(max_players=9), st.lists(st.integers(0, 2), min_size=9, max_size=9))
@FAST
def test_no_repeat_is_the_price_of_who_sits_with_computers(case, counts):
    players, seats, fill, met, seed = case
    filled = {p.id: c for p, c in zip(players, counts)}
    out = pair(players, seats=seats, fill=fill, met=met, filled=filled, seed=seed)
    extra = len(out.byes) if fill == "bye" else len(out.filled)
    assert set(out.byes or out.filled) in list(fair_sets(players, extra, filled))
    sizes = [len(t.players) for t in out.tables if t.computers]
    floor = None
    for chosen in fair_sets(players, extra, filled):
        main = [p.id for p in players if p.id not in chosen]
        cost = least_repeats(main, [seats] * (len(main) // seats), met)
        if fill == "computer" and chosen:
            cost += least_repeats(sorted(chosen), sizes, met)
        floor = cost if floor is None else min(floor, cost)
    assert out.repeats == floor


def test_the_fewest_repeats_after_rounds_of_history():
    players = [Entrant(i) for i in range(1, 13)]
    met: set = set()
    for r in range(5):
        out = pair(players, seats=3, met=met, seed=r)
        assert out.repeats == least_repeats(list(range(1, 13)), [3] * 4, met), r
        met |= met_pairs(t.players for t in out.tables)


@given(st.integers(2, 23), st.integers(2, 5), st.sampled_from(["computer", "bye"]),
       st.integers(0, 999))
@FAST
def test_computer_seats_and_byes_rotate_fairly(n, seats, fill, seed):
    players = [Entrant(i, points=i % 4) for i in range(1, n + 1)]
    counts = {p.id: 0 for p in players}
    for r in range(6):
        out = pair(players, seats=seats, fill=fill, filled=counts, seed=seed + r)
        for pid in (out.byes if fill == "bye" else out.filled):
            counts[pid] += 1
        assert max(counts.values()) - min(counts.values()) <= 1


def test_by_standing_the_leaders_meet():
    players = [Entrant(i, points=10 - i) for i in range(1, 10)]
    out = pair(players, seats=3, seed=1)
    assert [t.players for t in out.tables] == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]


def test_rating_breaks_a_tie_of_points_and_tie_break_comes_first():
    # equal points: the tie-break (opponents' points, then score) orders them, then the rating
    players = [Entrant(1, points=3, rating=1500), Entrant(2, points=3, rating=1900),
               Entrant(3, points=3, rating=1200), Entrant(4, points=3, rating=1700)]
    assert [t.players for t in pair(players, seats=2, seed=4).tables] == [(2, 4), (1, 3)]
    players[2] = Entrant(3, points=3, tiebreak=1, rating=1200)
    assert [t.players for t in pair(players, seats=2, seed=4).tables] == [(3, 2), (4, 1)]


def pairing_time(n=256, seats=4, rounds=5):
    """Seconds to pair the last of `rounds` rounds of `n` players (figure: 256-player round)."""
    players = [Entrant(i, points=(i * 7) % 11, rating=i) for i in range(1, n + 1)]
    met: set = set()
    took = 0.0
    for r in range(rounds):
        start = time.perf_counter()
        out = pair(players, seats=seats, met=met, seed=r)
        took = time.perf_counter() - start
        met |= met_pairs(t.players for t in out.tables)
    return took, out.repeats


def test_a_256_player_round_pairs_quickly():
    took, repeats = pairing_time()
    assert took < 2.0 and repeats == 0


if __name__ == "__main__":   # the figure: python -m tests.service.test_cup_pairing
    took, repeats = pairing_time()
    print(f"256 players, 4 seats, round 5: paired in {took * 1000:.1f} ms, {repeats} repeats")
