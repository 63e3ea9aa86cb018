"""What the service depends on: never discord, the store only through its interface; what it
returns: plain data; bot turns as durable timers."""
import ast
import dataclasses
import inspect
import json
import random
import subprocess
import sys

import pytest

from tests.service.svckit import REPO, make_service, pick_action, play_one
from ttr_bot.engine.actions import KeepTickets
from ttr_bot.store import BoardStore, CupStore, SeasonStore, Store

SERVICE_DIR = REPO / "ttr_bot" / "service"


def test_the_service_never_imports_discord():
    code = ("import sys; import ttr_bot.service; "
            "bad = sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.')); "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for path in SERVICE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "discord" for n in names), (path, names)
            assert not any("sqlite" in n for n in names), (path, names)


def test_the_service_uses_only_the_store_interface():
    interface = {name for name, _ in inspect.getmembers(Store, inspect.isfunction)}
    interface |= {name for name in vars(Store) if not name.startswith("_")}  # e.g. `shared`
    for subject in (SeasonStore, BoardStore, CupStore):       # the store's subjects a part is handed
        interface |= {name for name, _ in inspect.getmembers(subject, inspect.isfunction)}
    used = set()
    for path in SERVICE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "store"):
                used.add(node.attr)
    assert used and used <= interface, used - interface


def plain(eff):
    """Effects as JSON (sets become sorted lists): fails on anything but plain data."""
    return json.dumps(dataclasses.asdict(eff), default=sorted)


@pytest.mark.asyncio
async def test_effects_are_plain_data(svc):
    first = await svc.lobby.open_lobby(guild_id=1, channel_id=5, user_id=50, name="a",
                                     map_id="usa")
    await svc.lobby.join(5, 51, "b")
    effects = [await svc.lobby.start(5, 50)]
    rng = random.Random(5)
    for _ in range(300):
        eff, _, _ = await play_one(svc, first.id, rng)
        effects.append(eff)
        if eff.over:
            break
    assert effects[-1].over
    for eff in effects:
        back = json.loads(plain(eff))
        assert (back["game_id"], back["seq"]) == (first.id, eff.seq)
    other = await svc.lobby.open_lobby(guild_id=1, channel_id=6, user_id=60, name="c", map_id="usa")
    back = json.loads(plain(await svc.lobby.cancel(6, 60)))
    assert (back["game_id"], back["cancelled"]) == (other.id, True)


@pytest.mark.asyncio
async def test_bot_turns_become_durable_timers(store):
    svc = make_service(store, bot_delay=2.0)    # not started: we only look at the table
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=7, user_id=70, name="a", map_id="usa")
    await svc.lobby.add_bot(7, 70, "easy")
    await svc.lobby.start(7, 70)
    due = [t for t in await store.due_timers(float("inf")) if t.kind == "bot_move"]
    assert [(t.kind, t.game_id, t.payload) for t in due] == [("bot_move", loaded.id, {"seq": 0})]
    game = (await svc.load(loaded.id)).game
    await svc.moves.act(loaded.id, 70, KeepTickets(0, tuple(game.offers[0])), 0)
    # the bot still has to choose: another timer, carrying the new seq
    assert [t.payload for t in await store.due_timers(float("inf"))
            if t.kind == "bot_move"] == [{"seq": 0}, {"seq": 1}]
    await svc.lobby.cancel(7, 70)
    assert await store.due_timers(float("inf")) == []     # a cancelled game leaves no timers


@pytest.mark.asyncio
async def test_a_finished_game_leaves_no_timers(store):
    class Random:
        def __init__(self, seed):
            self.rng = random.Random(seed)

        def act(self, view):
            return pick_action_from_view(view, self.rng)

    svc = make_service(store, agents=lambda level, seed: Random(seed))
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=8, user_id=80, name="a", map_id="usa")
    await svc.lobby.add_bot(8, 80, "medium")
    await svc.lobby.start(8, 80)
    rng = random.Random(8)
    while True:
        cur = await svc.load(loaded.id)
        if cur.game.over:
            break
        if 1 in cur.game.to_move():
            eff = await svc.moves.play_bot(loaded.id, cur.seq)
        else:
            eff = await svc.moves.act(loaded.id, 80, pick_action(cur.game, rng, seat=0), cur.seq)
    assert eff.over
    assert await store.due_timers(float("inf")) == []
    assert len(await store.load_results(loaded.id)) == 2


def pick_action_from_view(view, rng):
    return rng.choice(view.legal_actions())
