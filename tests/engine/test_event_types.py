"""The event types (ttr_bot/engine/event_types.py) say what the engine really emits. Nothing
checks a TypedDict at run time, so this does: seeded random legal games on every map the engine
plays (each variant) check every event `Game.apply` returns against its kind's TypedDict (keys:
the required ones all there, nothing that is neither required nor optional; values: of the
declared types), its private part too, and the public events and private parts the service
splits them into; every kind of the union comes up, and the kind constants are the literals of
their TypedDicts. A constructor whose keys and TypedDict disagree fails here."""
import functools
import json
import random
import types
import typing
from typing import Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from tests.engine.test_s03_turn import stuck_game
from ttr_bot.engine import actions as A
from ttr_bot.engine import event_types
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.maps import engine_maps, load_board, variants
from ttr_bot.service.effects import split_events

EVENTS = get_args(event_types.Event)
PARTS = get_args(event_types.PrivatePart)


def _kind_of(td):
    (kind,) = get_args(get_type_hints(td)["type"])
    return kind


BY_KIND = {_kind_of(td): td for td in EVENTS}
PART_BY_KIND = {_kind_of(td): td for td in PARTS}
GAMES = [(m, v) for m in engine_maps() for v in variants(m)]


def _problems(value, hint, where):
    """What in `value` disagrees with the type `hint` (as JSON data: a list, not a tuple)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is NotRequired:
        return _problems(value, args[0], where)
    if typing.is_typeddict(hint):
        return _dict_problems(value, hint, where)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} not one of {args}"]
    if origin in (Union, types.UnionType):
        tries = [_problems(value, a, where) for a in args]
        return [] if any(not t for t in tries) else [f"{where}: {value!r} is not {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, x in enumerate(value) for p in _problems(x, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [p for k, x in value.items()
                for p in _problems(k, args[0], f"{where} key") + _problems(x, args[1], f"{where}[{k!r}]")]
    if hint is int:     # a bool is an int to Python, not to JSON readers
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not an int"]
    if hint in (bool, str):
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not a {hint.__name__}"]
    raise AssertionError(f"{where}: no check for {hint}")


def _dict_problems(value, td, where):
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not a dict"]
    keys = set(value)
    out = [f"{where}: {k!r} missing" for k in sorted(td.__required_keys__ - keys)]
    out += [f"{where}: {k!r} is not a key of {td.__name__}"
            for k in sorted(keys - td.__required_keys__ - td.__optional_keys__)]
    hints = get_type_hints(td, include_extras=True)
    return out + [p for k in sorted(keys & set(hints)) for p in _problems(value[k], hints[k], f"{where}.{k}")]


def check_event(e):
    kind = e.get("type")
    assert kind in BY_KIND, f"{e}: not a kind of the union Event"
    problems = _dict_problems(e, BY_KIND[kind], kind)
    assert not problems, (e, problems)


def check_part(p):
    kind = p.get("type")
    assert kind in PART_BY_KIND, f"{p}: not a kind of the union PrivatePart"
    problems = _dict_problems(p, PART_BY_KIND[kind], f"{kind} (private part)")
    assert not problems, (p, problems)


def play(map_id, variant, n, seed):
    """Every list of events of a seeded random legal game, in order."""
    g = Game(load_board(map_id, variant), n, Dealer(seed=seed))
    rng = random.Random(seed)
    steps = 0
    while not g.over and steps < 3000:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        # now and then a player who would rather draw tickets (their offers, keeps, returns)
        picks = [a for a in legal if isinstance(a, A.DrawTickets)] if rng.random() < 0.05 else []
        yield g.apply(rng.choice(picks or legal))
        steps += 1


@functools.cache
def events_of(map_id, variant):
    """The lists of events of one seeded random game on the map at its most seats."""
    n = load_board(map_id, variant).rules.max_players
    return tuple(play(map_id, variant, n, seed=len(map_id)))


def passes():
    """The events of a game stuck for everyone (nothing left to draw, claim or build): two
    passes, and the game over for them."""
    g = stuck_game(2)
    return [g.apply(A.Pass(0)), g.apply(A.Pass(1))]


def check_events(events):
    for e in events:
        check_event(e)
    public, private = split_events(events)
    for e in public:
        check_event(e)
        assert "private" not in e
    for parts in private.values():
        for p in parts:
            check_part(p)
    # as JSON (a record, an outbox row) they are the same: nothing but JSON's types
    assert json.loads(json.dumps(events)) == events


@pytest.mark.parametrize("map_id,variant", GAMES)
def test_every_event_of_a_random_game_has_its_kinds_type(map_id, variant):
    for events in events_of(map_id, variant):
        check_events(events)


def test_a_pass_and_the_game_over_it_brings_have_their_types():
    for events in passes():
        check_events(events)


def test_every_kind_comes_up():
    """The games above try every TypedDict of the union (none is left unchecked)."""
    seen = {e["type"] for m, v in GAMES for events in events_of(m, v) for e in events}
    seen |= {e["type"] for events in passes() for e in events}
    assert set(BY_KIND) - seen == set()


def test_the_kinds_are_the_literals_of_their_types():
    assert len(BY_KIND) == len(EVENTS)          # one TypedDict per kind
    assert set(BY_KIND) == set(get_args(event_types.Kind))
    constants = {v for k, v in vars(event_types).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(BY_KIND)
    assert set(PART_BY_KIND) <= set(BY_KIND)
    for kind, part in PART_BY_KIND.items():     # a part: the event's "private", with its kind
        private = get_type_hints(BY_KIND[kind])["private"]
        assert part.__required_keys__ == private.__required_keys__ | {"type"}
    with_private = {k for k, td in BY_KIND.items() if "private" in td.__optional_keys__}
    assert with_private == set(PART_BY_KIND)
    assert not any("private" in td.__required_keys__ for td in EVENTS)


def test_a_wrong_key_is_found():
    """The check itself: a misspelt, a missing and a mistyped key are each reported."""
    good = {"type": "claim_route", "seat": 0, "route": 3, "cards": {"red": 2}, "points": 2}
    check_event(good)
    for bad in ({**good, "rout": 3}, {k: v for k, v in good.items() if k != "points"},
                {**good, "cards": [2]}, {**good, "seat": True}, {**good, "type": "claim"}):
        with pytest.raises(AssertionError):
            check_event(bad)
    with pytest.raises(AssertionError):
        check_event({"type": "draw_card", "seat": 0, "from": "deck", "private": {"cards": 1}})
