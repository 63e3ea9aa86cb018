"""`python bot.py migrate-db`: a server's data moves from SQLite to PostgreSQL and back, every
game, log, snapshot, timer, result, rating, user setting and message reference with its ids; the copy
is verified (rows, and every started game rebuilt from its log to its snapshot); a target that
holds anything is refused; a copy that was tampered with does not verify."""
import asyncio
import json
import math
import random
import subprocess
import sys

import pytest

from bot import main as bot_main
from bot import rebuilds_to_snapshot
from tests.service.svckit import lobby, make_service, play_one, play_to_end, started
from tests.store.conftest import REPO
from tests.store.dbkit import make_test_db
from ttr_bot.store import open_store
from ttr_bot.store.transfer import CopyError, copy_rows, migrate_database, verify_copy

BIG = 2**63 - 1


@pytest.fixture
def sqlite_db(request, tmp_path):
    return make_test_db(request, "sqlite", tmp_path)


@pytest.fixture
def pg_db(request, tmp_path):
    return make_test_db(request, "postgresql", tmp_path, migrated=False)


async def fill(url):
    """A server's worth of real games: finished (with results), in play (a seat handed to a
    computer player), in the lobby, cancelled before and after starting; timers (one deleted,
    so the id sequence is ahead of the rows), user settings, message references."""
    async with open_store(url) as store:
        svc = make_service(store, seed=5)
        rng = random.Random(5)
        finished, _ = await started(svc, 1, players=2)
        await play_to_end(svc, finished, rng)
        active, users = await started(svc, 2, players=3, map_id="europe")
        for _ in range(25):
            await play_one(svc, active, rng)
        await store.hand_seat_to_bot(active, 1, bot_level=2, display_name="P21 (bot, medium)")
        await lobby(svc, 3, players=2, map_id="switzerland")
        cancelled_lobby = await lobby(svc, 4)
        await store.set_status(cancelled_lobby, "cancelled", now=1_700_000_100.5)
        cancelled_game, _ = await started(svc, 5, players=2, map_id="nordic")
        await play_one(svc, cancelled_game, rng)
        await store.set_status(cancelled_game, "cancelled", now=1_700_000_200.25)
        await store.add_timer("bot_move", 1_700_000_300.125, {"seq": 25, "z": [1, 2]}, active)
        await store.add_timer("cleanup", 1_700_000_400.0, None)
        gone = await store.add_timer("bot_move", 1.0, {"seq": 0}, finished)
        await store.delete_timer(gone)
        await store.set_locale(users[0], "th", now=5.5)
        await store.set_dms_closed(users[2], True, now=6.5)
        await store.set_locale(BIG, "fa", now=7.5)
        await store.set_palette(users[0], "colourblind", now=7.75)
        await store.set_message(active, "turn_panel", 2, BIG, now=8.5)
        await store.set_message(finished, "scores", 1, 123456789012345678)
        # a server's settings, seasons and live board
        await store.set_guild_timezone(1, "Asia/Bangkok", now=9.5)
        await store.set_season_settings(1, "quarterly", channel_id=BIG, role_id=7, set_by=3,
                                        now=9.75)
        await store.close_season(1, "2026-Q3", users[0], now=10.5)
        await store.set_board(1, 2, set_by=3, now=11.5)
        await store.set_board_message(1, 2, BIG)
        # the games' own timers (deadlines, reminders) and owed messages come along too
        return {"finished": finished, "active": active, "users": users, "next_timer": gone + 1}


async def contents(url, game_ids):
    """Everything the store interface returns about the games, users and timers."""
    async with open_store(url) as store:
        out = {}
        for game_id in game_ids:
            game = await store.get_game(game_id)
            out[game_id] = (
                game, await store.list_seats(game_id),
                await store.load_actions(game_id) if game.status != "lobby" else None,
                await store.load_snapshot(game_id), await store.load_results(game_id),
                await store.get_message(game_id, "turn_panel"),
                await store.get_message(game_id, "scores"))
        users = sorted({s.user_id for g in out.values() for s in g[1] if s.user_id} | {BIG})
        out["users"] = [await store.get_user(u) for u in users]
        out["palettes"] = [await store.get_palette(u) for u in users]
        out["timers"] = await store.due_timers(math.inf)
        out["server"] = (await store.get_guild_timezone(1), await store.get_season_settings(1),
                         await store.closed_seasons(1), await store.get_board(1))
        out["results"] = [await store.results_for_user(u, include_left=True) for u in users]
        out["ratings"] = [await store.get_ratings(scope, users) for scope in (0, 1)]
        out["rating log"] = [await store.rating_log(scope) for scope in (0, 1)]
        out["rating changes"] = [await store.rating_changes(g, scope) for g in game_ids
                                 for scope in (0, 1)]
        return out


def game_ids(db):
    return [r[0] for r in db.fetchall("SELECT id FROM games ORDER BY id")]


def test_sqlite_to_postgresql_by_the_command(sqlite_db, pg_db):
    made = asyncio.run(fill(sqlite_db.url))
    ids = game_ids(sqlite_db)
    proc = subprocess.run(
        [sys.executable, "bot.py", "migrate-db", "--from", f"sqlite:///{sqlite_db.path}",
         "--to", pg_db.url], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.splitlines()
    assert line.startswith(f"Copied sqlite:///{sqlite_db.path} to {pg_db.url}: 5 games "
                           "(1 in play, 1 in the lobby, 1 finished, 2 cancelled), "), line
    n_actions = sqlite_db.scalar("SELECT COUNT(*) FROM actions")
    n_timers = sqlite_db.scalar("SELECT COUNT(*) FROM timers")
    n_owed = sqlite_db.scalar("SELECT COUNT(*) FROM outbox")
    assert n_timers > 2 and n_owed > 0
    assert (f"{n_actions} actions, 3 snapshots, {n_timers} timers, 3 user settings, 0 away "
            f"periods, 0 away periods taken, 2 results, 4 ratings, 1 rated games, 4 rating changes, "
            f"2 message references, {n_owed} owed messages, 0 votes, 1 server settings, "
            "1 season settings, 1 seasons closed, 1 live boards; "
            "verified: every table matches row for row and 3 started "
            "games rebuild from their logs to their snapshots") in line, line
    assert asyncio.run(contents(sqlite_db.url, ids)) == asyncio.run(contents(pg_db.url, ids))

    async def new_ids():   # ids go on after the copied ones, never reusing a deleted timer's
        async with open_store(pg_db.url) as store:
            game = await store.create_game(guild_id=1, channel_id=99, map="usa", variant="",
                                           options={}, seed=1, host_id=1)
            return game, await store.add_timer("x", 1.0)
    assert asyncio.run(new_ids()) == (max(ids) + 1, made["next_timer"])
    assert made["active"] in ids


@pytest.mark.asyncio
async def test_postgresql_to_sqlite(sqlite_db, pg_db, tmp_path):
    made = await fill(pg_db.url)
    ids = game_ids(pg_db)
    target = tmp_path / "moved.sqlite3"
    report = await migrate_database(pg_db.url, f"sqlite:///{target}",
                                    check_game=rebuilds_to_snapshot)
    assert report.rows["games"] == 5 and report.games_checked == 3
    assert report.rows["actions"] == pg_db.scalar("SELECT COUNT(*) FROM actions") > 100
    assert await contents(pg_db.url, ids) == await contents(str(target), ids)
    async with open_store(target) as store:
        assert await store.add_timer("x", 1.0) == made["next_timer"]   # the sequence came along


def test_a_target_that_holds_anything_is_refused(sqlite_db, pg_db, capsys):
    asyncio.run(fill(sqlite_db.url))

    async def one_setting():
        async with open_store(pg_db.url) as store:
            await store.set_dms_closed(42, True)
    asyncio.run(one_setting())
    status = bot_main(["migrate-db", "--from", sqlite_db.url, "--to", pg_db.url])
    err = capsys.readouterr().err
    assert status == 1
    assert err == ("migrate-db: the target already holds data (1 user settings): migrate-db "
                   "copies only into an empty database\n")
    assert pg_db.fetchall("SELECT user_id FROM users") == [(42,)]
    assert pg_db.scalar("SELECT COUNT(*) FROM games") == 0


def test_a_tampered_copy_does_not_verify(sqlite_db, pg_db, capsys):
    made = asyncio.run(fill(sqlite_db.url))
    assert bot_main(["migrate-db", "--from", sqlite_db.url, "--to", pg_db.url]) == 0
    assert capsys.readouterr().out.startswith("Copied ")
    assert bot_main(["migrate-db", "--from", sqlite_db.url, "--to", pg_db.url,
                     "--verify-only"]) == 0
    assert capsys.readouterr().out.startswith("Checked the copy of ")

    active = made["active"]
    state = json.loads(pg_db.scalar("SELECT state FROM snapshots WHERE game_id = ?", active))
    state["turn"] = state.get("turn", 0) + 1         # a snapshot that is not its log's replay
    pg_db.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", json.dumps(state), active)
    assert bot_main(["migrate-db", "--from", sqlite_db.url, "--to", pg_db.url,
                     "--verify-only"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("migrate-db: the copy does not verify: snapshots: 1 rows differ from "
                          f"the source (the first: {{'game_id': {active}}}); game {active}: "
                          "its log does not rebuild to its snapshot"), err
    assert err.count("\n") == 1

    n_timers = sqlite_db.scalar("SELECT COUNT(*) FROM timers")
    pg_db.execute("DELETE FROM timers WHERE kind = 'cleanup'")
    assert bot_main(["migrate-db", "--from", sqlite_db.url, "--to", pg_db.url,
                     "--verify-only"]) == 1
    assert f"timers: {n_timers} in the source, {n_timers - 1} in the copy" in \
        capsys.readouterr().err


@pytest.mark.asyncio
async def test_a_failed_copy_leaves_the_target_empty(sqlite_db, pg_db):
    await fill(sqlite_db.url)
    sqlite_db.unguard_log()        # SQLite's loose typing: a value no PostgreSQL column holds
    sqlite_db.execute("UPDATE actions SET actor = 'x' WHERE seq = 3")
    async with open_store(sqlite_db.url) as source, open_store(pg_db.url) as target:
        with pytest.raises(CopyError, match=r"actions row \{'game_id': \d+, 'seq': 3\}: "
                                            "column actor holds 'x', which is not int"):
            await copy_rows(source, target)
        assert pg_db.scalar("SELECT COUNT(*) FROM games") == 0      # one transaction
        with pytest.raises(CopyError, match="games: 5 in the source, 0 in the copy"):
            await verify_copy(source, target)


def test_clear_errors_for_impossible_requests(sqlite_db, tmp_path, capsys):
    asyncio.run(fill(sqlite_db.url))
    for argv, message in [
        (["--from", str(tmp_path / "nothing.db"), "--to", str(tmp_path / "b.db")],
         f"there is no SQLite database at {tmp_path / 'nothing.db'}"),
        (["--from", sqlite_db.url, "--to", f"sqlite:///{sqlite_db.path}"],
         "--from and --to name the same database"),
        (["--from", sqlite_db.url, "--to", "mysql://db/ttr"], "unknown database URL scheme"),
        (["--from", sqlite_db.url, "--to", "postgresql://bot:pw@127.0.0.1:1/ttr"],
         "cannot connect to PostgreSQL at postgresql://bot:***@127.0.0.1:1/ttr"),
    ]:
        assert bot_main(["migrate-db", *argv]) == 1, argv
        err = capsys.readouterr().err
        assert err.startswith("migrate-db: ") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "b.db").exists()
