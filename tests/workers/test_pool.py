"""The worker pool on real processes: values and errors come back, tasks run side by side, a
worker that dies (killed mid-task or while idle) or hangs is replaced and only its own task is
lost, workers start fresh (nothing of the parent inherited), and closing ends them."""
import asyncio
import os
import signal
import sqlite3
import time

import pytest
import pytest_asyncio

from tests.workers import tasks
from ttr_bot.maps import load_board
from ttr_bot.workers import WorkerCrashed, WorkerError, WorkerLost, WorkerPool, WorkerTimeout

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def pool():
    p = WorkerPool(2, timeout=20)
    await p.start()
    await p.wait_ready()
    yield p
    await p.close()


async def wait_for_new_pids(pool, old, eventually):
    await eventually(lambda: len(pool.pids()) == pool.size and not set(pool.pids()) & old,
                     timeout=30)


async def test_values_come_back_from_other_processes(pool):
    assert await pool.run(tasks.square, 12) == 144
    pids = set(await asyncio.gather(*(pool.run(tasks.pid) for _ in range(6))))
    assert os.getpid() not in pids and pids <= set(pool.pids())


async def test_tasks_run_side_by_side(pool):
    start = time.monotonic()
    await asyncio.gather(pool.run(tasks.sleep, 0.6), pool.run(tasks.sleep, 0.6))
    assert time.monotonic() - start < 1.1          # not 1.2 s one after the other


async def test_more_tasks_than_workers_wait_their_turn(pool):
    results = await asyncio.gather(*(pool.run(tasks.square, i) for i in range(20)))
    assert results == [i * i for i in range(20)]


async def test_an_exception_comes_back_and_the_worker_goes_on(pool):
    before = set(pool.pids())
    with pytest.raises(WorkerError) as info:
        await pool.run(tasks.fail, "bad position")
    assert info.value.type_name == "ValueError" and "bad position" in str(info.value)
    assert "tasks.py" in info.value.remote_traceback
    assert set(pool.pids()) == before
    assert await pool.run(tasks.square, 3) == 9


async def test_a_worker_killed_mid_task_loses_only_that_task(pool, tmp_path, eventually):
    marker = tmp_path / "started"
    victim = asyncio.ensure_future(pool.run(tasks.start_then_sleep, str(marker), 30))
    other = asyncio.ensure_future(pool.run(tasks.sleep, 1.0))
    await eventually(marker.exists, timeout=20)
    os.kill(int(marker.read_text()), signal.SIGKILL)
    with pytest.raises(WorkerCrashed):
        await victim
    assert await other == 1.0                       # the other worker's task is untouched
    await eventually(lambda: len(pool.pids()) == 2, timeout=30)   # replaced
    assert int(marker.read_text()) not in pool.pids()
    assert await asyncio.gather(pool.run(tasks.square, 4), pool.run(tasks.square, 5)) == [16, 25]


async def test_a_hung_task_hits_its_timeout_and_its_worker_is_replaced(pool, eventually):
    before = set(pool.pids())
    start = time.monotonic()
    with pytest.raises(WorkerTimeout):
        await pool.run(tasks.sleep, 60, timeout=0.5)
    assert time.monotonic() - start < 5
    await eventually(lambda: len(pool.pids()) == 2 and len(set(pool.pids()) & before) == 1,
                     timeout=30)
    assert await pool.run(tasks.square, 6) == 36
    assert pool.stats["timed_out"] == 1


async def test_an_idle_worker_that_dies_is_replaced(pool, eventually):
    old = set(pool.pids())
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    await wait_for_new_pids(pool, old, eventually)
    assert await asyncio.gather(*(pool.run(tasks.square, i) for i in range(4))) == [0, 1, 4, 9]


async def test_a_cancelled_caller_does_not_leave_its_answer_to_the_next_task(pool, eventually):
    task = asyncio.ensure_future(pool.run(tasks.sleep, 0.5))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(4):
        assert await pool.run(tasks.square, 7) == 49


async def test_what_a_task_prints_cannot_corrupt_the_answers(pool):
    assert await pool.run(tasks.noisy, "x") == "x"
    assert await pool.run(tasks.square, 2) == 4


async def test_only_module_level_functions_and_picklable_values(pool):
    with pytest.raises(TypeError):
        await pool.run(lambda: 1)
    before = set(pool.pids())
    with pytest.raises(WorkerError):
        await pool.run(tasks.unpicklable_result)
    assert set(pool.pids()) == before and await pool.run(tasks.square, 1) == 1


async def test_workers_inherit_nothing_open_in_the_bot(tmp_path):
    """Spawned, not forked: a database file the bot has open is not open in a worker, and
    neither are the bot's sockets."""
    db = tmp_path / "bot.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    p = WorkerPool(1)
    try:
        await p.start()
        opened = await p.run(tasks.open_files)
        assert not any(str(db) in f for f in opened)
        assert not any(f.startswith("socket:") for f in opened), opened
    finally:
        await p.close()
        server.close()
        conn.close()


async def test_a_board_travels_by_name(pool):
    assert await pool.run(tasks.board_is_this_process_cached_one, load_board("europe"))


async def test_close_ends_the_workers_and_refuses_new_tasks(eventually):
    p = WorkerPool(2)
    await p.start()
    await p.wait_ready()
    pids = p.pids()
    running = asyncio.ensure_future(p.run(tasks.sleep, 30))
    await asyncio.sleep(0.2)
    await p.close()
    with pytest.raises(WorkerLost):
        await running
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(WorkerLost):
        await p.run(tasks.square, 1)


async def test_size_zero_runs_in_threads_of_this_process():
    p = WorkerPool(0)
    assert await p.run(tasks.pid) == os.getpid()
    assert p.pids() == []


async def queued(p, first=0, waiting=0):
    """Let the callers just started queue (a caller queues in its first step), and check the
    pool holds `first` marked first and `waiting` others."""
    await asyncio.sleep(0)
    assert (len(p._first), len(p._waiters)) == (first, waiting)


async def test_tasks_marked_first_go_ahead_of_the_queue(tmp_path):
    p = WorkerPool(1)
    try:
        await p.start()
        await p.wait_ready()
        done = []
        release = tmp_path / "release"

        async def task(name, first=False):
            await p.run(tasks.sleep, 0.01, first=first)
            done.append(name)
        busy = asyncio.ensure_future(p.run(tasks.hold, str(release)))   # the worker is taken
        queued_ = [asyncio.ensure_future(task(f"decision {i}")) for i in range(3)]
        await queued(p, waiting=3)
        picture = asyncio.ensure_future(task("picture", first=True))
        await queued(p, first=1, waiting=3)
        release.touch()
        await asyncio.gather(busy, picture, *queued_)
        assert done == ["picture", "decision 0", "decision 1", "decision 2"]
    finally:
        await p.close()


async def test_run_each_runs_once_in_every_worker_after_the_tasks_marked_first(tmp_path):
    p = WorkerPool(2)
    try:
        await p.start()
        await p.wait_ready()
        release = tmp_path / "release"
        busy = [asyncio.ensure_future(p.run(tasks.hold, str(release))) for _ in range(2)]
        decision = asyncio.ensure_future(p.run(tasks.started_where, 0.05))
        await queued(p, waiting=1)
        each = asyncio.ensure_future(p.run_each(tasks.started_where, 0.05))
        picture = asyncio.ensure_future(p.run(tasks.started_where, 0.05, first=True))
        await queued(p, first=1, waiting=1)
        release.touch()
        assert sorted(await asyncio.gather(*busy)) == p.pids()
        chores = dict(await each)
        # one in each worker, although both were busy when it was asked for; in the worker
        # that took the picture, the picture went ahead of its chore, and the decision queued
        # before them waited for the chore of the worker that took it
        assert sorted(chores) == p.pids() and p.stats["chores"] == 2
        picture_pid, picture_began = await picture
        decision_pid, decision_began = await decision
        assert picture_began < chores[picture_pid]
        assert chores[decision_pid] < decision_began
        assert sorted(await p.run_each(tasks.pid)) == p.pids()
    finally:
        await p.close()


async def test_run_each_without_worker_processes_does_nothing():
    assert await WorkerPool(0).run_each(tasks.pid) is None


async def test_a_reserved_worker_takes_pictures_while_decisions_hold_every_other(tmp_path,
                                                                                  eventually):
    """The picture lane: with its one ordinary worker held and decisions queued behind it, a
    task marked first runs at once in the reserved worker; the decisions never take that
    worker, even while it is idle; a reserved worker that dies is replaced by a reserved one."""
    p = WorkerPool(1, reserve=1)
    try:
        await p.start()
        await p.wait_ready()
        assert len(p.pids()) == 2
        release = tmp_path / "release"
        busy = asyncio.ensure_future(p.run(tasks.hold, str(release)))
        decisions = [asyncio.ensure_future(p.run(tasks.square, i)) for i in range(3)]
        await queued(p, waiting=3)
        assert await asyncio.wait_for(p.run(tasks.square, 7, first=True), 30) == 49
        assert not busy.done()
        await queued(p, waiting=3)              # the reserved worker, idle, took none of them
        (reserved,) = [w for w in p._workers if w.reserved]
        reserved.kill()
        await eventually(lambda: len(p.pids()) == 2 and
                         sum(w.reserved for w in p._workers) == 1, timeout=30)
        await p.wait_ready()
        assert await asyncio.wait_for(p.run(tasks.square, 5, first=True), 30) == 25
        assert not any(d.done() for d in decisions)
        release.touch()
        assert await asyncio.gather(*decisions) == [0, 1, 4]
        await busy
    finally:
        await p.close()
