"""Concurrency: a hundred clicks on one button apply once; two hundred games move at once;
two services (two connections to one database) racing the same action apply it once. Every
test runs on SQLite and on PostgreSQL (the `db_path` fixture)."""
import asyncio
import random

import pytest

from tests.service.svckit import make_service, open_store, pick_action, raw_counts, started, state_of
from tests.store.dbkit import DRIVERS
from ttr_bot.engine.actions import KeepTickets
from ttr_bot.service import ServiceError

pytestmark = [pytest.mark.asyncio, pytest.mark.drivers(*DRIVERS)]


async def outcomes(coros):
    """(effects applied, errors by key); anything but a ServiceError fails the test."""
    results = await asyncio.gather(*coros, return_exceptions=True)
    applied, errors = [], {}
    for r in results:
        if isinstance(r, ServiceError):
            key = r.key if r.illegal is None else f"{r.key}:{r.illegal.key}"
            errors[key] = errors.get(key, 0) + 1
        elif isinstance(r, BaseException):
            raise r
        else:
            applied.append(r)
    return applied, errors


@pytest.mark.parametrize("warm", [True, False], ids=["cached", "cold"])
async def test_a_hundred_identical_submissions_apply_once(store, db_path, warm):
    svc = make_service(store)
    game_id, users = await started(svc, 10, players=3)
    rng = random.Random(10)
    for step in range(8):               # setup choices, then ordinary turns
        if not warm:
            svc.core.forget(game_id)         # all hundred race to load the game too
        loaded = await svc.load(game_id)
        action = pick_action(loaded.game, rng)
        seq = loaded.seq
        n_before = raw_counts(db_path, game_id)[0]
        applied, errors = await outcomes(
            svc.moves.act(game_id, users[action.seat], action, seq) for _ in range(100))
        assert len(applied) == 1 and applied[0].seq == seq + 1, (step, errors)
        assert errors == {"service.stale": 99}, step
        n, game_seq, _, (snap_seq, _) = raw_counts(db_path, game_id)
        assert (n, game_seq, snap_seq) == (n_before + 1, seq + 1, seq + 1)
    assert state_of((await svc.load(game_id)).game) == state_of(await svc.moves.rebuild(game_id))


async def test_a_hundred_submissions_without_a_seq_apply_once(svc, db_path):
    game_id, users = await started(svc, 11)
    offer = tuple((await svc.load(game_id)).game.offers[0])
    applied, errors = await outcomes(
        svc.moves.act(game_id, users[0], KeepTickets(0, offer)) for _ in range(100))
    assert len(applied) == 1
    assert errors == {"service.illegal:already_chosen": 99}
    assert raw_counts(db_path, game_id)[:2] == (1, 1)


async def test_a_hundred_different_moves_at_one_seq_apply_once(svc, db_path):
    """Every player's clicks at once, sixteen different choices, all carrying the seq they
    saw: one wins, the rest are stale."""
    game_id, users = await started(svc, 12, players=4)
    game = (await svc.load(game_id)).game
    options = [(s, a) for s in range(4) for a in game.legal_actions(s)]
    assert len(options) == 16           # 4 seats x 4 ways to keep 2 or 3 of 3 tickets
    choices = [options[i % 16] for i in range(100)]
    applied, errors = await outcomes(svc.moves.act(game_id, users[s], a, 0) for s, a in choices)
    assert len(applied) == 1 and errors == {"service.stale": len(choices) - 1}
    assert raw_counts(db_path, game_id)[:2] == (1, 1)


async def test_simultaneous_setup_choices_without_a_seq_apply_once_per_seat(svc, db_path):
    """The starting ticket choice is simultaneous (the adapter sends it without a seq): every
    seat's first choice is applied, each exactly once, whatever the others click meanwhile."""
    game_id, users = await started(svc, 13, players=4)
    game = (await svc.load(game_id)).game
    options = [(s, a) for s in range(4) for a in game.legal_actions(s)]
    clicks = [options[i % len(options)] for i in range(100)]
    applied, errors = await outcomes(svc.moves.act(game_id, users[s], a) for s, a in clicks)
    assert sorted(e.actor for e in applied) == [0, 1, 2, 3]
    # the rest are refused by the rules: already chosen, or (once everyone has chosen and
    # play began) not that seat's turn / no offer open
    assert sum(errors.values()) == 96 and set(errors) <= {
        "service.illegal:already_chosen", "service.illegal:not_your_turn",
        "service.illegal:no_ticket_offer"}, errors
    assert raw_counts(db_path, game_id)[:2] == (4, 4)
    game = (await svc.load(game_id)).game
    assert game.phase == "play" and all(o is None for o in game.offers)
    assert state_of(game) == state_of(await svc.moves.rebuild(game_id))


async def play_rounds(svc, games, rounds, rng):
    """One random move in every game per round, all games at once."""
    total = 0
    for _ in range(rounds):
        picks = []
        for game_id, users in games:
            loaded = await svc.load(game_id)
            if loaded.game.over:
                continue
            action = pick_action(loaded.game, rng)
            picks.append((game_id, users[action.seat], action, loaded.seq))
        applied, errors = await outcomes(svc.moves.act(*p) for p in picks)
        assert errors == {} and len(applied) == len(picks)
        assert sorted(e.game_id for e in applied) == sorted(p[0] for p in picks)
        assert all(e.seq == p[3] + 1 for e, p in zip(applied, picks))
        total += len(picks)
    return total


async def test_two_hundred_games_at_once(store, db_path):
    svc = make_service(store, cache_size=64)        # smaller than the crowd: evictions too
    channels = range(1000, 1200)
    lobbies = await asyncio.gather(*(svc.lobby.open_lobby(     # a server each: SERVER_LOBBIES
        guild_id=ch, channel_id=ch, user_id=ch * 10, name="host", map_id="usa")
        for ch in channels))
    await asyncio.gather(*(svc.lobby.join(ch, ch * 10 + 1, "guest") for ch in channels))
    starts = await asyncio.gather(*(svc.lobby.start(ch, ch * 10) for ch in channels))
    assert all(e.seq == 0 and e.to_move for e in starts)
    assert {(await store.get_game(lob.id)).status for lob in lobbies} == {"active"}
    games = [(lob.id, [lob.channel_id * 10, lob.channel_id * 10 + 1]) for lob in lobbies]
    assert len({g for g, _ in games}) == 200
    rng = random.Random(5)
    total = await play_rounds(svc, games, 3, rng)
    assert total == 3 * 200
    assert len(svc.core._cache) <= 64
    for game_id, _ in games:
        n, seq, status, (snap_seq, _) = raw_counts(db_path, game_id)
        assert (n, seq, snap_seq, status) == (3, 3, 3, "active")
    for game_id, _ in games[::20]:
        assert state_of((await svc.load(game_id)).game) == state_of(await svc.moves.rebuild(game_id))


async def test_two_hundred_games_on_two_connections_at_once(db_path):
    """Two services, each with its own connection, write 100 games each at the same time:
    SQLite's write lock is waited for, never reported as 'database is locked' (PostgreSQL:
    each store's pool)."""
    a, b = await open_store(db_path, busy_timeout=30), await open_store(db_path, busy_timeout=30)
    try:
        sa, sb = make_service(a, seed=1), make_service(b, seed=2)
        ga = [await started(sa, 2000 + i) for i in range(100)]
        gb = [await started(sb, 3000 + i) for i in range(100)]
        ra, rb = random.Random(1), random.Random(2)
        done = await asyncio.gather(play_rounds(sa, ga, 3, ra), play_rounds(sb, gb, 3, rb))
        assert done == [300, 300]
        for game_id, _ in ga + gb:
            assert raw_counts(db_path, game_id)[:2] == (3, 3)
    finally:
        await a.close()
        await b.close()


async def test_two_services_on_one_file_race_the_same_action(db_path):
    a, b = await open_store(db_path), await open_store(db_path)
    try:
        sa, sb = make_service(a), make_service(b)
        game_id, users = await started(sa, 20, players=3)
        rng = random.Random(20)
        wins = {"a": 0, "b": 0}
        for step in range(40):
            loaded = await sa.load(game_id)
            if loaded.game.over:
                break
            action = pick_action(loaded.game, rng)
            seq = loaded.seq
            user = users[action.seat]
            await sb.load(game_id)   # both hold the game in their caches
            ra, rb = await asyncio.gather(sa.moves.act(game_id, user, action, seq),
                                          sb.moves.act(game_id, user, action, seq),
                                          return_exceptions=True)
            oks = [r for r in (ra, rb) if not isinstance(r, BaseException)]
            errs = [r for r in (ra, rb) if isinstance(r, BaseException)]
            assert len(oks) == 1, (step, ra, rb)
            assert isinstance(errs[0], ServiceError) and errs[0].key == "service.stale", errs
            wins["a" if oks[0] is ra else "b"] += 1
            assert raw_counts(db_path, game_id)[:2] == (seq + 1, seq + 1)
        # both services agree with the log afterwards, whichever won each race
        for s in (sa, sb):
            assert state_of((await s.load(game_id)).game) == state_of(await s.moves.rebuild(game_id))
    finally:
        await a.close()
        await b.close()


async def test_a_service_whose_cache_fell_behind_accepts_the_current_seq(db_path):
    """Service B holds the game at seq 0; A (another connection, another process in real
    life) moves it on. A click carrying the current seq must be applied by B, not answered
    'no longer current' until B happens to evict the game."""
    a, b = await open_store(db_path), await open_store(db_path)
    try:
        sa, sb = make_service(a), make_service(b)
        game_id, users = await started(sa, 30)
        game = (await sb.load(game_id)).game                       # B caches seq 0
        await sa.moves.act(game_id, users[0], KeepTickets(0, tuple(game.offers[0])), 0)
        eff = await sb.moves.act(game_id, users[1], KeepTickets(1, tuple(game.offers[1])), 1)
        assert eff.seq == 2
        assert raw_counts(db_path, game_id)[:2] == (2, 2)
        # and the old seq is still refused by both
        for s in (sa, sb):
            with pytest.raises(ServiceError) as caught:
                await s.moves.act(game_id, users[1], KeepTickets(1, tuple(game.offers[1])), 1)
            assert caught.value.key == "service.stale"
    finally:
        await a.close()
        await b.close()


class Gated:
    """(Mixed into the driver's store) pauses one get_game() after it has read the row, until
    released."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.gate = None
        self.paused = asyncio.Event()

    async def get_game(self, game_id):
        row = await super().get_game(game_id)
        gate, self.gate = self.gate, None
        if gate is not None:
            self.paused.set()
            await gate.wait()
        return row


async def test_a_view_loaded_during_an_action_does_not_leave_a_stale_cache(db_path):
    store = await open_store(db_path, mixin=Gated)
    try:
        svc = make_service(store)
        game_id, users = await started(svc, 40)
        game = (await svc.load(game_id)).game
        svc.core.forget(game_id)
        gate = store.gate = asyncio.Event()
        viewer = asyncio.create_task(svc.moves.player_view(game_id, users[0]))  # reads row at seq 0
        await store.paused.wait()
        eff = await svc.moves.act(game_id, users[0], KeepTickets(0, tuple(game.offers[0])), 0)
        assert eff.seq == 1
        gate.set()
        await viewer
        cached = await svc.load(game_id)
        assert cached.seq == 1 and cached.game.offers[0] is None
        eff = await svc.moves.act(game_id, users[1], KeepTickets(1, tuple(game.offers[1])), 1)
        assert eff.seq == 2
    finally:
        await store.close()


class CommitThenCancel:
    """(Mixed into the driver's store) commits the next append, then raises CancelledError, as when the caller's task is
    cancelled while the commit is already under way (it may or may not have happened)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.armed = False

    async def append_action(self, *a, **kw):
        seq = await super().append_action(*a, **kw)
        if self.armed:
            self.armed = False
            raise asyncio.CancelledError
        return seq


async def test_an_action_cancelled_after_its_commit_is_not_applied_twice(db_path):
    store = await open_store(db_path, mixin=CommitThenCancel)
    try:
        svc = make_service(store)
        game_id, users = await started(svc, 50, players=2)
        game = (await svc.load(game_id)).game
        keep0 = KeepTickets(0, tuple(game.offers[0]))
        store.armed = True
        with pytest.raises(asyncio.CancelledError):
            await svc.moves.act(game_id, users[0], keep0, 0)
        assert raw_counts(db_path, game_id)[:2] == (1, 1)      # it was committed
        # the player, told nothing, clicks again: answered, not applied a second time
        with pytest.raises(ServiceError) as caught:
            await svc.moves.act(game_id, users[0], keep0, 0)
        assert caught.value.key == "service.stale"
        with pytest.raises(ServiceError) as caught:
            await svc.moves.act(game_id, users[0], keep0)
        assert caught.value.key in ("service.stale", "service.illegal")
        assert raw_counts(db_path, game_id)[:2] == (1, 1)
        # the game goes on from the committed state
        eff = await svc.moves.act(game_id, users[1], KeepTickets(1, tuple(game.offers[1])), 1)
        assert eff.seq == 2
        assert state_of((await svc.load(game_id)).game) == state_of(await svc.moves.rebuild(game_id))
    finally:
        await store.close()
