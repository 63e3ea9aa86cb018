"""Games are loaded on first use and kept in a bounded cache; a game evicted and loaded again
(from its snapshot) continues exactly as it would have; startup loads nothing."""
import asyncio
import random

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store, pick_action, started, state_of
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.maps import load_board
from ttr_bot.store import SqliteStore

pytestmark = pytest.mark.asyncio


class CountingStore:
    """Mixed into the real store (either driver): counts how often a game's state is read."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.snapshot_loads = []
        self.log_loads = []

    async def load_snapshot(self, game_id):
        self.snapshot_loads.append(game_id)
        return await super().load_snapshot(game_id)

    async def load_actions(self, game_id):
        self.log_loads.append(game_id)
        return await super().load_actions(game_id)


@pytest_asyncio.fixture
async def counting(db_path):
    s = await open_store(db_path, mixin=CountingStore)
    yield s
    await s.close()


async def test_cache_is_bounded_and_evicted_games_continue_correctly(counting):
    svc = make_service(counting, cache_size=3)
    games = {}
    for ch in range(10):
        game_id, users = await started(svc, 200 + ch, players=2 + ch % 4)
        row = await counting.get_game(game_id)
        # the shadow: the same game in a plain engine, never stored
        shadow = Game(load_board("usa"), 2 + ch % 4, Dealer(row.seed))
        games[game_id] = (users, shadow)
        assert len(svc.core._cache) <= 3
    assert len(games) == 10
    rng = random.Random(2)
    seqs = dict.fromkeys(games, 0)
    loads_before = len(counting.snapshot_loads)
    for _ in range(12):                    # round robin: every act meets an evicted game
        for game_id, (users, shadow) in games.items():
            if shadow.over:
                continue
            action = pick_action(shadow, rng)
            eff = await svc.moves.act(game_id, users[action.seat], action, seqs[game_id])
            shadow.apply(action)
            seqs[game_id] = eff.seq
            assert len(svc.core._cache) <= 3
            assert len(svc.core._locks) <= 3 + 1
            assert state_of((await svc.load(game_id)).game) == state_of(shadow)
    # games really were evicted and read back from their snapshots, not replayed
    assert len(counting.snapshot_loads) - loads_before >= 10 * 12
    assert counting.log_loads == []
    for game_id, (_, shadow) in games.items():
        assert state_of(await svc.moves.rebuild(game_id)) == state_of(shadow)
        assert (await counting.get_game(game_id)).seq == seqs[game_id]


async def test_an_evicted_game_plays_on_to_the_end_like_one_never_evicted(counting, tmp_path):
    """Two services play the same seeded game with the same moves: one with a cache of 1 and
    another game evicting it after every move, one keeping it all along."""
    evicting = make_service(counting, cache_size=1, seed=3)
    other = SqliteStore(tmp_path / "other.db")
    await other.open()
    try:
        keeping = make_service(other, cache_size=100, seed=3)
        g1, users = await started(evicting, 300, players=3, map_id="europe")
        g2, _ = await started(keeping, 300, players=3, map_id="europe")
        filler, fusers = await started(evicting, 301)
        assert (await counting.get_game(g1)).seed == (await other.get_game(g2)).seed
        rng = random.Random(3)
        while True:
            kept = await keeping.load(g2)
            action = pick_action(kept.game, rng)
            e1 = await evicting.moves.act(g1, users[action.seat], action, kept.seq)
            e2 = await keeping.moves.act(g2, users[action.seat], action, kept.seq)
            assert (e1.public, e1.private, e1.to_move, e1.seq) == (
                e2.public, e2.private, e2.to_move, e2.seq)
            await evicting.load(filler)          # pushes g1 out
            assert list(evicting.core._cache) == [filler]
            if e1.over:
                break
        assert (await evicting.load(g1)).game.scores() == (await keeping.load(g2)).game.scores()
        assert state_of((await evicting.load(g1)).game) == state_of((await keeping.load(g2)).game)
        r1 = [(r.seat, r.score, r.rank, r.won) for r in await counting.load_results(g1)]
        r2 = [(r.seat, r.score, r.rank, r.won) for r in await other.load_results(g2)]
        assert r1 == r2 and r1
    finally:
        await other.close()


async def test_startup_loads_no_game_until_it_is_used(db_path, counting):
    writer = make_service(counting)
    ids = []
    for ch in range(30):
        game_id, users = await started(writer, 400 + ch)
        ids.append((game_id, users))
    await counting.close()

    store = await open_store(db_path, mixin=CountingStore)
    try:
        svc = make_service(store, cache_size=5)
        assert await store.list_active_game_ids() == [g for g, _ in ids]
        assert store.snapshot_loads == [] and store.log_loads == [] and not svc.core._cache
        game_id, users = ids[17]
        loaded = await svc.load(game_id)
        action = pick_action(loaded.game, random.Random(1))
        await svc.moves.act(game_id, users[action.seat], action, 0)
        assert store.snapshot_loads == [game_id] and list(svc.core._cache) == [game_id]
        # a channel lookup loads only that channel's game
        await svc.game_in_channel(400 + 3)
        assert store.snapshot_loads == [game_id, ids[3][0]]
    finally:
        await store.close()


async def test_concurrent_loads_of_many_games_respect_the_bound(counting):
    svc = make_service(counting, cache_size=4)
    ids = [(await started(svc, 500 + ch))[0] for ch in range(20)]
    svc.core._cache.clear()
    loaded = await asyncio.gather(*(svc.load(g) for g in ids * 3))
    assert [x.id for x in loaded] == ids * 3
    assert len(svc.core._cache) <= 4
