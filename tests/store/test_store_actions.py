"""The action log: append under an expected seq, one writer wins, nothing is lost or skipped."""
import asyncio
import json

import pytest

from ttr_bot.store import (
    CorruptLog,
    CorruptSnapshot,
    SeatResult,
    StaleSequence,
    StoreError,
    WrongStatus,
)

pytestmark = pytest.mark.asyncio


def action(kind="draw", **extra):
    return json.dumps({"type": kind, **extra})


def state(turn):
    return json.dumps({"turn": turn})


def counts(db, game_id):
    """(log rows, (snapshot seq, state text), (game seq, updated_at)), read past the store."""
    return (db.scalar("SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id),
            db.fetchone("SELECT seq, state FROM snapshots WHERE game_id = ?", game_id),
            db.fetchone("SELECT seq, updated_at FROM games WHERE id = ?", game_id))


async def test_append_then_load_survives_a_restart(db, store, make_game):
    game_id = await make_game()
    assert (await store.load_snapshot(game_id)).state == {"turn": 0}
    for seq in range(3):
        new_seq = await store.append_action(game_id, seq, seq % 2, action(n=seq), state(seq + 1),
                                            now=200.0 + seq)
        assert new_seq == seq + 1
    await store.close()  # the bot restarts

    async with db.open_store() as again:
        game = await again.get_game(game_id)
        assert (game.seq, game.updated_at) == (3, 202.0)
        log = await again.load_actions(game_id)
        assert [(a.seq, a.actor, a.action, a.created_at) for a in log] == [
            (1, 0, {"type": "draw", "n": 0}, 200.0),
            (2, 1, {"type": "draw", "n": 1}, 201.0),
            (3, 0, {"type": "draw", "n": 2}, 202.0)]
        snap = await again.load_snapshot(game_id)
        assert (snap.seq, snap.state, snap.updated_at) == (3, {"turn": 3}, 202.0)
        assert await again.list_active_game_ids() == [game_id]


async def test_when_another_seat_last_acted(store, make_game):
    """What the timer invariant reads as the earliest a turn can have begun: the last action
    of another seat that acted itself (the bot's own, with no actor, do not count)."""
    game_id = await make_game()
    assert await store.last_acted_at(game_id, 0) is None
    for seq, actor in enumerate((1, 0, None, 0)):
        await store.append_action(game_id, seq, actor, action(), state(seq + 1), now=100.0 + seq)
    assert await store.last_acted_at(game_id, 0) == 100.0
    assert await store.last_acted_at(game_id, 1) == 103.0


async def test_stale_sequence_writes_nothing(store, make_game, db):
    game_id = await make_game()
    await store.append_action(game_id, 0, 0, action(), state(1), now=300.0)
    before = counts(db, game_id)
    for wrong in (0, 2, 7):
        with pytest.raises(StaleSequence) as caught:
            await store.append_action(game_id, wrong, 1, action("claim"), state(99), now=400.0)
        assert (caught.value.game_id, caught.value.expected, caught.value.actual) == (
            game_id, wrong, 1)
    assert counts(db, game_id) == before == (1, (1, state(1)), (1, 300.0))


async def test_actions_only_on_active_games(store, make_game, db):
    lobby = await make_game(active=False)
    with pytest.raises(WrongStatus, match="is lobby"):
        await store.append_action(lobby, 0, 0, action(), state(1))
    done = await make_game()
    await store.set_status(done, "cancelled")
    with pytest.raises(WrongStatus, match="is cancelled"):
        await store.append_action(done, 0, 0, action(), state(1))
    assert counts(db, lobby)[0] == counts(db, done)[0] == 0


async def test_unloadable_actions_are_refused_before_writing(store, make_game, db):
    game_id = await make_game()
    for bad in ('{"kind": "draw"}', "[1, 2]", '{"type": "dr', '{"type": ""}'):
        with pytest.raises(ValueError, match="action_json"):
            await store.append_action(game_id, 0, 0, bad, state(1))
    with pytest.raises(ValueError, match="state_json"):
        await store.append_action(game_id, 0, 0, action(), "not json")
    assert counts(db, game_id)[0] == 0
    assert (await store.get_game(game_id)).seq == 0


async def test_final_action_and_results_in_one_transaction(store, make_game):
    game_id = await make_game()
    results = [SeatResult(0, 10, 50, 1, True, 2), SeatResult(1, 11, 40, 2, False, 1)]
    assert await store.append_action(game_id, 0, 1, action("end"), state(1), now=9.0,
                                     results=results) == 1
    game = await store.get_game(game_id)
    assert (game.status, game.seq, game.finished_at) == ("finished", 1, 9.0)
    assert len(await store.load_results(game_id)) == 2
    assert len(await store.load_actions(game_id)) == 1


async def test_failed_results_roll_back_the_final_action(store, make_game, db):
    game_id = await make_game()
    dup = [SeatResult(0, 10, 50, 1, True, 2), SeatResult(0, 10, 50, 1, True, 2)]
    with pytest.raises(StoreError):
        await store.append_action(game_id, 0, 1, action("end"), state(1), results=dup)
    assert counts(db, game_id) == (0, (0, state(0)), (0, 100.0))
    assert (await store.get_game(game_id)).status == "active"


async def race(stores, game_id, n=100):
    """n appends that all believe the game is at seq 0."""
    jobs = [stores[i % len(stores)].append_action(game_id, 0, i % 2, action(n=i), state(i))
            for i in range(n)]
    return await asyncio.gather(*jobs, return_exceptions=True)


def check_one_winner(outcomes, log, snapshot):
    winners = [i for i, o in enumerate(outcomes) if o == 1]
    losers = [o for o in outcomes if o != 1]
    assert len(winners) == 1, outcomes
    assert all(isinstance(o, StaleSequence) for o in losers), {type(o) for o in losers}
    assert len(log) == 1 and log[0].action == {"type": "draw", "n": winners[0]}
    assert snapshot.seq == 1 and snapshot.state == {"turn": winners[0]}


async def test_100_concurrent_appends_one_connection(store, make_game):
    game_id = await make_game()
    outcomes = await race([store], game_id)
    check_one_winner(outcomes, await store.load_actions(game_id),
                     await store.load_snapshot(game_id))


async def test_100_concurrent_appends_several_connections(db, store, make_game):
    game_id = await make_game()
    stores = [store] + [db.open_store() for _ in range(7)]
    for s in stores[1:]:
        await s.open()
    try:
        outcomes = await race(stores, game_id)
    finally:
        for s in stores[1:]:
            await s.close()
    check_one_winner(outcomes, await store.load_actions(game_id),
                     await store.load_snapshot(game_id))


@pytest.mark.parametrize("connections", [1, 4])
async def test_200_games_at_once(db, store, make_game, connections):
    """Every game plays its moves (each one waiting for the last, as the service's per-game lock
    makes it) while all games run at once: all applied, no "database is locked"."""
    stores = [store] + [db.open_store() for _ in range(connections - 1)]
    for s in stores[1:]:
        await s.open()
    moves = 5

    async def play(i):
        s = stores[i % len(stores)]
        game_id = await make_game(s=s)
        seq = 0
        for m in range(moves):
            seq = await s.append_action(game_id, seq, m % 2, action(m=m), state(m + 1))
            await s.set_message(game_id, "turn_panel", 1, seq)
        return game_id

    try:
        game_ids = await asyncio.gather(*(play(i) for i in range(200)))
    finally:
        for s in stores[1:]:
            await s.close()
    assert len(set(game_ids)) == 200
    for game_id in game_ids:
        assert [a.action["m"] for a in await store.load_actions(game_id)] == list(range(moves))
        assert (await store.load_snapshot(game_id)).state == {"turn": moves}


# -- damage from outside is reported, never skipped -------------------------------------------
async def game_with_actions(store, make_game, n=3):
    game_id = await make_game()
    for seq in range(n):
        await store.append_action(game_id, seq, 0, action(n=seq), state(seq + 1))
    return game_id


def overwrite_action(db, game_id, seq, text):
    """Replace one stored row as disk damage or a hand edit would (past triggers and checks)."""
    db.unguard_log()
    db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", game_id, seq)
    if text is not None:
        db.execute("INSERT INTO actions (game_id, seq, actor, action, created_at) "
                   "VALUES (?, ?, 0, ?, 0)", game_id, seq, text)


@pytest.mark.parametrize("text, reason", [
    ('{"type": "claim", "route": 4', "invalid JSON"),   # truncated
    ("\x00\x00\x00", "invalid JSON"),                    # garbage
    ("\x7f\u00ff garbage", "invalid JSON"),
    ('["claim", 4]', "not a JSON object"),
    ('{"route": 4}', 'no "type"'),
])
async def test_corrupt_row_names_game_and_seq(store, make_game, db, text, reason):
    if db.driver == "postgresql" and "\x00" in text:
        pytest.skip("PostgreSQL's text cannot hold a NUL character: that damage cannot exist there")
    game_id = await game_with_actions(store, make_game)
    overwrite_action(db, game_id, 2, text)
    with pytest.raises(CorruptLog) as caught:
        await store.load_actions(game_id)
    assert (caught.value.game_id, caught.value.seq) == (game_id, 2)
    assert reason in caught.value.reason
    assert f"game {game_id}: action log corrupt at seq 2" in str(caught.value)


async def test_gap_in_the_log_is_reported(store, make_game, db):
    game_id = await game_with_actions(store, make_game)
    overwrite_action(db, game_id, 2, None)
    with pytest.raises(CorruptLog) as caught:
        await store.load_actions(game_id)
    assert (caught.value.game_id, caught.value.seq) == (game_id, 2)
    assert "missing" in caught.value.reason


async def test_lost_tail_is_reported(store, make_game, db):
    game_id = await game_with_actions(store, make_game)
    overwrite_action(db, game_id, 3, None)
    with pytest.raises(CorruptLog) as caught:
        await store.load_actions(game_id)
    assert (caught.value.game_id, caught.value.seq) == (game_id, 3)
    assert "ends at 2" in caught.value.reason


async def test_the_log_is_append_only(store, make_game, db):
    game_id = await game_with_actions(store, make_game)
    statements = ["UPDATE actions SET action = '{\"type\":\"x\"}'", "DELETE FROM actions"]
    if db.driver == "postgresql":
        statements.append("TRUNCATE actions")
    for sql in statements:
        with pytest.raises(Exception, match="append-only"):
            db.execute(sql)
    assert len(await store.load_actions(game_id)) == 3


async def test_corrupt_snapshot_is_reported(store, make_game, db):
    game_id = await game_with_actions(store, make_game)
    db.execute("UPDATE snapshots SET seq = 2 WHERE game_id = ?", game_id)
    with pytest.raises(CorruptSnapshot, match=f"game {game_id}: snapshot corrupt at seq 2"):
        await store.load_snapshot(game_id)
    db.unguard_log()
    db.execute("UPDATE snapshots SET seq = 3, state = '{\"turn\": ' WHERE game_id = ?", game_id)
    with pytest.raises(CorruptSnapshot, match="invalid JSON"):
        await store.load_snapshot(game_id)
    db.execute("DELETE FROM snapshots WHERE game_id = ?", game_id)
    with pytest.raises(CorruptSnapshot, match="missing"):
        await store.load_snapshot(game_id)
    lobby = await make_game(active=False)
    assert await store.load_snapshot(lobby) is None


async def test_cancelled_appends_leave_the_store_consistent(store, make_game):
    """Callers cancelled at any point (an interaction timing out) neither leave a transaction
    open on the shared connection nor half-write an action."""
    game_id = await make_game()
    for i in range(60):
        seq = (await store.get_game(game_id)).seq
        task = asyncio.create_task(store.append_action(game_id, seq, 0, action(n=i), state(i)))
        for _ in range(i % 6):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    seq = (await store.get_game(game_id)).seq
    assert await store.append_action(game_id, seq, 0, action(n="last"), state(-1)) == seq + 1
    log = await store.load_actions(game_id)  # validates: no gaps, ends at the game's seq
    assert len(log) == seq + 1
    assert (await store.load_snapshot(game_id)).state == {"turn": -1}
