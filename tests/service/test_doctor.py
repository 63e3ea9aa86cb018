"""`python bot.py doctor`: an operator checks a database's open games for missing timers, reads
one plain line per problem, and with --repair re-arms them; exit status 0 (nothing wrong), 1
(re-armed), 4 (found, not repaired), 8 (could not check). On both drivers, and once as the
operator runs it (a subprocess, the database from TTR_DB)."""
import asyncio
import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from bot import main as bot_main
from tests.service.svckit import REPO, game_in_play, open_store, timed_service
from ttr_bot.service.clock import ManualClock


def a_game_that_lost_its_deadline(db):
    """A game in play with a 24 h deadline whose timers are gone, and a healthy one."""
    async def setup():
        clock = ManualClock(datetime(2024, 3, 1, 12, tzinfo=timezone.utc).timestamp())
        store = await open_store(db)
        svc = timed_service(store, clock)
        broken, _ = await game_in_play(svc, 40, options={"deadline": 24})
        await game_in_play(svc, 41, options={"deadline": 24})
        await store.delete_timers(broken)
        await store.close()
        return broken
    return asyncio.run(setup())


def deadline_timers(db, game_id):
    async def read():
        store = await open_store(db)
        try:
            return await store.list_timers(game_id, "deadline")
        finally:
            await store.close()
    return asyncio.run(read())


def test_doctor_reports_then_repairs_a_missing_deadline(db_path, capsys):
    broken = a_game_that_lost_its_deadline(db_path)
    assert bot_main(["doctor", "--db", str(db_path)]) == 4
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"game {broken}: seat ") and "24 h deadline" in out[0]
    assert out[-1].startswith("doctor: 1 missing timer(s) in 1 game(s); run `python bot.py "
                              "doctor --repair`")
    assert deadline_timers(db_path, broken) == []           # a check changes nothing
    assert bot_main(["doctor", "--db", str(db_path), "--repair"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("(re-armed)") and out[-1].startswith("doctor: re-armed 1 ")
    assert len(deadline_timers(db_path, broken)) == 1
    assert bot_main(["doctor", "--db", str(db_path)]) == 0
    assert capsys.readouterr().out.startswith("doctor: every open game has a pending timer")


# aiosqlite's thread, left running by a failed connect, once answered a closed loop (an error
# printed on stderr): the store waits for it
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_doctor_cannot_check_a_database_it_cannot_open(tmp_path, capsys):
    missing = tmp_path / "no-such-dir" / "ttr.sqlite3"
    assert bot_main(["doctor", "--db", str(missing)]) == 8
    assert capsys.readouterr().err.startswith(f"doctor: could not check {missing}")


@pytest.mark.sqlite_only("runs the command on a SQLite file named by TTR_DB")
def test_doctor_as_an_operator_runs_it(db_path):
    broken = a_game_that_lost_its_deadline(db_path)
    env = {**os.environ, "TTR_DB": str(db_path)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, "bot.py", "doctor", "--repair"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0].startswith(f"game {broken}: ")
