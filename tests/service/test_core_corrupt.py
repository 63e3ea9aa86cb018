"""A damaged action log (rows edited behind the bot's back) is reported, naming the game and
the action, when the game is rebuilt: never skipped, never replayed around. On both drivers
(`db_path`: the SQLite file, then a PostgreSQL database), except damage PostgreSQL's column
types cannot hold."""
import json
import random

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store, play_one, started, state_of
from tests.store.dbkit import DRIVERS
from ttr_bot.store import CorruptLog

pytestmark = [pytest.mark.asyncio, pytest.mark.drivers(*DRIVERS)]
LENGTH = 30


@pytest_asyncio.fixture
async def two_games(db_path):
    """Two games with LENGTH actions each, written by a service that is then shut down."""
    store = await open_store(db_path)
    svc = make_service(store)
    rng = random.Random(4)
    ids = []
    for ch in (1, 2):
        game_id, _ = await started(svc, ch, players=3)
        for _ in range(LENGTH):
            await play_one(svc, game_id, rng)
        ids.append(game_id)
    states = {g: state_of((await svc.load(g)).game) for g in ids}
    await store.close()
    return ids, states


def tamper(db_path, *statements):
    """Edit the database directly, past the append-only triggers and the JSON checks."""
    db_path.unguard_log()
    for sql, params in statements:
        assert db_path.execute(sql, *params) == 1, sql


def row(db_path, game_id, seq):
    return db_path.scalar("SELECT action FROM actions WHERE game_id = ? AND seq = ?", game_id, seq)


def sqlite_only_damage(db_path, what):
    if db_path.driver != "sqlite":
        pytest.skip(f"{what}: PostgreSQL's column types cannot hold that damage")


async def rebuild_fails(db_path, game_id, good_game_id, good_state, unreadable=True):
    """Rebuilding the damaged game raises CorruptLog; the other game still rebuilds. Returns
    the error. An `unreadable` log is refused by the store itself, so export fails too."""
    store = await open_store(db_path)
    try:
        svc = make_service(store)
        with pytest.raises(CorruptLog) as caught:
            await svc.moves.rebuild(game_id)
        if unreadable:
            with pytest.raises(CorruptLog):    # the log is read for an export too
                await svc.moves.export(game_id)
            with pytest.raises(CorruptLog):
                await store.load_actions(game_id)
        assert state_of(await svc.moves.rebuild(good_game_id)) == good_state
        assert caught.value.game_id == game_id
        return caught.value
    finally:
        await store.close()


UPDATE = "UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?"


async def test_a_truncated_row_is_reported(db_path, two_games):
    (bad, good), states = two_games
    text = row(db_path, bad, 7)
    tamper(db_path, (UPDATE, (text[: len(text) // 2], bad, 7)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == 7 and "JSON" in err.reason


@pytest.mark.parametrize("damage, what", [
    (b"\xff\xfe\x00garbage", "binary garbage"),
    ("", "an empty row"),
    ("[1, 2, 3]", "not an object"),
    ('{"player": "0", "from": "deck"}', "no type"),
    ("null", "JSON null"),
])
async def test_an_unreadable_row_is_reported(db_path, two_games, damage, what):
    (bad, good), states = two_games
    if isinstance(damage, bytes):
        sqlite_only_damage(db_path, "bytes in a text column")
    tamper(db_path, (UPDATE, (damage, bad, 12)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == 12, what


async def test_a_readable_row_that_is_no_move_of_this_game_is_reported(db_path, two_games):
    (bad, good), states = two_games
    for seq in range(1, LENGTH + 1):    # the first ordinary move after the setup
        action = json.loads(row(db_path, bad, seq))
        if action["type"] != "keep_tickets":
            break
    nonsense = [
        {"type": "claim_route", "player": action["player"], "from": "Atlantis", "to": "Denver",
         "color": "red", "cards": {"red": 9}},
        {"type": "teleport", "player": action["player"]},
        {"type": "draw_card", "player": "7", "from": "deck"},       # no such seat
    ]
    for n, obj in enumerate(nonsense):
        tamper(db_path, (UPDATE, (json.dumps(obj), bad, seq)))
        err = await rebuild_fails(db_path, bad, good, states[good], unreadable=False)
        assert err.seq == seq and "cannot be replayed" in err.reason, (n, err)


async def test_a_missing_row_is_reported(db_path, two_games):
    (bad, good), states = two_games
    tamper(db_path, ("DELETE FROM actions WHERE game_id = ? AND seq = ?", (bad, 5)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == 5 and "missing" in err.reason


async def test_a_log_cut_short_is_reported(db_path, two_games):
    (bad, good), states = two_games
    tamper(db_path, ("DELETE FROM actions WHERE game_id = ? AND seq = ?", (bad, LENGTH)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == LENGTH and "missing" in err.reason


async def test_a_row_beyond_the_games_seq_is_reported(db_path, two_games):
    (bad, good), states = two_games
    tamper(db_path, ("INSERT INTO actions (game_id, seq, actor, action, created_at) "
                     "VALUES (?, ?, 0, '{\"type\": \"pass\", \"player\": \"0\"}', 0)",
                     (bad, LENGTH + 1)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == LENGTH + 1


async def test_a_row_with_a_bad_actor_is_reported(db_path, two_games):
    (bad, good), states = two_games
    sqlite_only_damage(db_path, "text in an integer column")
    tamper(db_path, ("UPDATE actions SET actor = 'x' WHERE game_id = ? AND seq = ?", (bad, 3)))
    err = await rebuild_fails(db_path, bad, good, states[good])
    assert err.seq == 3


async def test_a_damaged_snapshot_is_reported_and_the_game_rebuilt_from_its_log(
        db_path, two_games, caplog):
    """The snapshot is only a cache of the log: when it is unreadable the game is rebuilt from
    the intact log (an error is logged), so players lose nothing."""
    (bad, good), states = two_games
    tamper(db_path, ("UPDATE snapshots SET state = '{\"v\": 1, \"map\"' WHERE game_id = ?",
                     (bad,)))
    store = await open_store(db_path)
    try:
        svc = make_service(store)
        with caplog.at_level("ERROR"):
            loaded = await svc.load(bad)
        assert f"game {bad}: snapshot unreadable" in caplog.text
        assert state_of(loaded.game) == states[bad]
        assert state_of((await svc.load(good)).game) == states[good]
    finally:
        await store.close()


@pytest.mark.parametrize("state", ["{}", '{"v": 99, "future": true}', '{"v": 1, "map": "usa"}',
                                   '{"v": 1, "map": "usa", "variant": "base", "n": 3, "deck": 7}'])
async def test_a_snapshot_of_the_wrong_shape_is_rebuilt_from_the_log(db_path, two_games, caplog,
                                                                      state):
    """Valid JSON of the wrong shape (`{}`, or written by a newer version before a downgrade)
    is a damaged snapshot like any other: the game is rebuilt from its log and plays on."""
    (bad, good), states = two_games
    tamper(db_path, ("UPDATE snapshots SET state = ? WHERE game_id = ?", (state, bad)))
    store = await open_store(db_path)
    try:
        svc = make_service(store)
        with caplog.at_level("ERROR"):
            loaded = await svc.load(bad)
        assert f"game {bad}: snapshot of the wrong shape" in caplog.text
        assert state_of(loaded.game) == states[bad]
        eff, _, seq = await play_one(svc, bad, random.Random(9))      # and it plays on
        assert eff.seq == seq + 1 == LENGTH + 1
    finally:
        await store.close()


async def test_an_intact_log_rebuilds_to_the_snapshot(db_path, two_games):
    """The control for the tests above: without damage, nothing is reported."""
    ids, states = two_games
    store = await open_store(db_path)
    try:
        svc = make_service(store)
        for game_id in ids:
            assert state_of(await svc.moves.rebuild(game_id)) == states[game_id]
            assert state_of((await svc.load(game_id)).game) == states[game_id]
            assert len((await svc.moves.export(game_id))["actions"]) == LENGTH
    finally:
        await store.close()
