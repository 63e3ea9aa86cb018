"""The pool: worker processes, a queue of callers waiting for one, replacement of lost workers.

Each worker has its own pipes (its stdin and stdout), read and written by the event loop
without blocking: a worker that dies or hangs harms only the task it was running. (Shared-queue
pools behave worse here: in concurrent.futures one dead worker breaks the whole pool and a hung
task cannot be stopped; in pebble 5.2 the workers share one pipe and lock, and a worker that
dies while idle breaks the whole pool.)
"""
import asyncio
import logging
import os
import pickle
import sys
import time
from collections import deque
from pathlib import Path

from .protocol import HEADER, frame, unframe

log = logging.getLogger(__name__)
ROOT = str(Path(__file__).resolve().parents[2])   # the directory ttr_bot is imported from
START_TIMEOUT = 120.0       # a worker that is not ready by then is killed and started again
RESTART_PAUSES = (0.0, 1.0, 5.0, 30.0)   # after 0, 1, 2, 3+ failed starts in a row
GIVE_UP = 3                 # failed starts in a row after which callers are told at once


class WorkerError(Exception):
    """The task raised in the worker (the worker is fine and goes on)."""

    def __init__(self, type_name, message, remote_traceback):
        super().__init__(f"{type_name}: {message}")
        self.type_name = type_name
        self.remote_traceback = remote_traceback


class WorkerLost(Exception):
    """The worker running the task is gone (replaced); the task may or may not have run."""


class WorkerCrashed(WorkerLost):
    pass


class WorkerTimeout(WorkerLost):
    pass


def default_size():
    """One worker per core this process may run on (a container's CPU set included)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:     # not on Linux
        return os.cpu_count() or 1


def rss_bytes(pid):
    """Resident memory of a process (Linux /proc), or None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


class _Worker:
    """One process and the task it runs; its reader task notices its death at any time."""

    def __init__(self, pool, proc, reserved=False):
        self.pool, self.proc = pool, proc
        self.reserved = reserved     # takes only the tasks marked first (the picture lane)
        loop = asyncio.get_running_loop()
        self.ready = loop.create_future()
        self.reply = None            # the future of the running task's answer
        self.chores = deque()        # (payload, future, timeout) for this worker alone (run_each)
        self.lost = False
        self.spawned = time.perf_counter()
        self.boot_seconds = None
        self.reader = loop.create_task(self._read(), name=f"ttr-worker-{proc.pid}")

    @property
    def pid(self):
        return self.proc.pid

    async def _read(self):
        out = self.proc.stdout
        try:
            while True:
                header = await out.readexactly(HEADER.size)
                message = unframe(await out.readexactly(HEADER.unpack(header)[0]))
                if message[0] == "ready":
                    self.boot_seconds = time.perf_counter() - self.spawned
                    if not self.ready.done():
                        self.ready.set_result(message)
                elif self.reply is not None and not self.reply.done():
                    self.reply.set_result(message)
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, EOFError):
            pass
        finally:
            self._gone()

    def _gone(self):
        if self.lost:
            return
        self.lost = True
        code = self.proc.returncode
        error = WorkerCrashed(f"worker {self.pid} ended" + (
            f" (exit status {code})" if code is not None else ""))
        chores = [fut for _, fut, _ in self.chores]
        self.chores.clear()
        for fut in (self.ready, self.reply, *chores):
            if fut is not None and not fut.done():
                fut.set_exception(error)
                fut.exception()     # retrieved here too: nobody may be waiting for it
        self.pool._lost(self)

    def kill(self):
        """Kill the process; it counts as lost (and is replaced) at once."""
        if self.proc.returncode is None:
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass
        self._gone()

    async def call(self, payload, timeout):
        self.reply = asyncio.get_running_loop().create_future()
        try:
            self.proc.stdin.write(payload)
            await self.proc.stdin.drain()
        except (ConnectionError, RuntimeError) as exc:   # RuntimeError: the pipe is closing
            self.kill()
            raise WorkerCrashed(f"worker {self.pid} is gone: {exc}") from None
        try:
            return await asyncio.wait_for(asyncio.shield(self.reply), timeout)
        except TimeoutError:
            self.kill()
            raise WorkerTimeout(f"task ran over {timeout:g} s in worker {self.pid}; "
                                f"the worker is replaced") from None
        finally:
            self.reply = None


class WorkerPool:
    """`size` worker processes (None: one per core; 0: no process, tasks run in threads of
    this one, as asyncio.to_thread does). `preload`: modules each worker imports at start.
    `timeout`: seconds a task may run before its worker is killed (per call: run(timeout=)).
    `nice`: how much lower the workers' CPU priority is than this process's (child.py).
    `reserve`: workers besides `size` that run only the tasks marked first (`run(first=True)`:
    pictures and films, what players wait for), so a burst of long tasks (computer players'
    decisions) that takes every other worker never makes a picture wait for one to end."""

    def __init__(self, size=None, *, preload=(), timeout=60.0, nice=10, python=None,
                 reserve=0):
        self.size = default_size() if size is None else int(size)
        if self.size < 0:
            raise ValueError("a pool has 0 workers or more")
        self.reserve = int(reserve) if self.size else 0
        if self.reserve < 0:
            raise ValueError("a pool reserves 0 workers or more")
        self.preload = tuple(preload)
        self.timeout = timeout
        self.nice = nice
        self.python = python or sys.executable
        self.stats = {"tasks": 0, "errors": 0, "crashed": 0, "timed_out": 0, "started": 0,
                      "chores": 0}
        self._workers = set()        # started or starting, not lost
        self._idle = deque()
        self._waiters = deque()      # futures of callers waiting for a worker
        self._first = deque()        # ... of callers that go ahead of them (run(first=True))
        self._failed_starts = 0
        self._closing = False
        self._started = False
        self._spawning = set()
        self._chores = set()         # tasks running a worker's chore (run_each)

    # ----- lifetime -------------------------------------------------------------------------
    async def start(self):
        """Start the workers; returns before they are ready (see `wait_ready`)."""
        if self._started:
            return
        self._started = True
        for _ in range(self.size):
            self._spawn_later()
        for _ in range(self.reserve):
            self._spawn_later(reserved=True)

    async def wait_ready(self, timeout=START_TIMEOUT):
        """Until every worker is ready (benchmarks, tests): the seconds each took to boot."""
        deadline = time.monotonic() + timeout
        while len(self._idle) + self._busy() < self.size + self.reserve or self._spawning:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.size + self.reserve} workers not ready within "
                                   f"{timeout:g} s")
            await asyncio.sleep(0.01)
        return [w.boot_seconds for w in self._workers]

    def _live(self):
        return any(w.ready.done() and not w.lost for w in self._workers)

    def _busy(self):
        return sum(1 for w in self._workers if w.ready.done() and w not in self._idle
                   and not w.lost)

    async def close(self):
        """Stop every worker (a task still running is lost: its caller gets WorkerLost)."""
        self._closing = True
        for fut in (*self._first, *self._waiters):
            if not fut.done():
                fut.set_exception(WorkerLost("the pool is closed"))
        self._first.clear()
        self._waiters.clear()
        for task in list(self._spawning) + list(self._chores):
            task.cancel()
        workers = list(self._workers)
        for w in workers:
            if w.proc.stdin is not None and not w.proc.stdin.is_closing():
                w.proc.stdin.close()          # an idle worker ends by itself on end of input
        for w in workers:
            try:
                await asyncio.wait_for(w.proc.wait(), 2.0)
            except TimeoutError:
                w.kill()
                await w.proc.wait()
        for w in workers:
            await asyncio.gather(w.reader, return_exceptions=True)
        self._workers.clear()
        self._idle.clear()

    @property
    def busy(self):
        """How many tasks the workers are running now."""
        return self._busy()

    def pids(self):
        return sorted(w.pid for w in self._workers if not w.lost)

    def memory(self):
        """{pid: resident bytes} of the live workers."""
        return {pid: rss_bytes(pid) for pid in self.pids()}

    # ----- running ----------------------------------------------------------------------------
    async def run(self, function, *args, timeout=None, first=False):
        """function(*args) in a worker; its value, or WorkerError (it raised) or WorkerLost
        (the worker died or ran over `timeout`). The arguments are pickled at once, so the
        task sees them as they are now even if it has to wait for a worker. `first`: it goes
        ahead of the tasks waiting without it (a picture a player waits for, before the
        decisions of computer players, who pause before moving anyway)."""
        self.stats["tasks"] += 1
        if self.size == 0:
            return await asyncio.to_thread(function, *args)
        try:
            payload = frame((function, args))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise TypeError(f"a worker runs module-level functions with picklable arguments: "
                            f"{exc}") from None
        if not self._started:
            await self.start()
        worker = await self._acquire(first)
        try:
            reply = await worker.call(payload, self.timeout if timeout is None else timeout)
        except WorkerTimeout:
            self.stats["timed_out"] += 1
            raise
        except WorkerLost:
            self.stats["crashed"] += 1
            raise
        except asyncio.CancelledError:
            worker.kill()       # its answer would come to the next task: it goes
            raise
        self._release(worker)
        if reply[0] == "ok":
            return reply[1]
        self.stats["errors"] += 1
        raise WorkerError(*reply[1:])

    async def run_each(self, function, *args, timeout=None):
        """function(*args) once in every worker there is now (started, or being started: it
        waits for those; one that starts later does not run it): for what each process must hold, such as a cache built
        before it is needed. Each worker takes it when it is next free, after the tasks that
        go ahead of the queue (run(first=True)) and before the others. The list of what each
        returned or raised (WorkerError, WorkerLost). With no worker process (size 0), None:
        the threads of this process would compete with its event loop for no gain."""
        if self.size == 0:
            return None
        payload = frame((function, args))
        if not self._started:
            await self.start()
        if self._spawning:      # a worker being started gets it too, once it is there
            await asyncio.wait(list(self._spawning), timeout=START_TIMEOUT)
        loop = asyncio.get_running_loop()
        futures = []
        for worker in list(self._workers):
            if worker.lost:
                continue
            fut = loop.create_future()
            worker.chores.append((payload, fut, timeout))
            futures.append(fut)
            if worker in self._idle:
                self._idle.remove(worker)
                self._chore(worker)
        return await asyncio.gather(*futures, return_exceptions=True)

    def _chore(self, worker):
        """Run the worker's next chore, then hand it on (_release)."""
        payload, fut, timeout = worker.chores.popleft()
        self.stats["chores"] += 1

        async def run():
            try:
                reply = await worker.call(payload, self.timeout if timeout is None else timeout)
            except WorkerLost as exc:
                if not fut.done():
                    fut.set_exception(exc)
                return
            except asyncio.CancelledError:
                if not fut.done():
                    fut.set_exception(WorkerLost("the pool is closed"))
                raise
            if not fut.done():
                if reply[0] == "ok":
                    fut.set_result(reply[1])
                else:
                    fut.set_exception(WorkerError(*reply[1:]))
            self._release(worker)
        task = asyncio.get_running_loop().create_task(run(), name=f"ttr-chore-{worker.pid}")
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _acquire(self, first=False):
        worker = self._take_idle(first)
        if worker is not None:
            return worker
        if self._closing:
            raise WorkerLost("the pool is closed")
        if self._failed_starts >= GIVE_UP and not self._live():
            raise WorkerLost(f"no worker could start ({self._failed_starts} tries in a row)")
        fut = asyncio.get_running_loop().create_future()
        (self._first if first else self._waiters).append(fut)
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self._release(fut.result())   # handed over just as the caller went away
            raise

    def _take_idle(self, first):
        """An idle worker for a task (`first`: marked first, which a reserved worker takes
        before any other; else only one that is not reserved), or None."""
        for worker in [w for w in self._idle if w.lost]:
            self._idle.remove(worker)
        fits = [w for w in self._idle if w.reserved == first] or \
            (list(self._idle) if first else [])
        if not fits:
            return None
        self._idle.remove(fits[0])
        return fits[0]

    def _release(self, worker):
        if worker.lost or self._closing:
            return
        if self._hand_over(self._first, worker):
            return
        if worker.chores:
            self._chore(worker)
            return
        if not worker.reserved and self._hand_over(self._waiters, worker):
            return
        self._idle.append(worker)

    @staticmethod
    def _hand_over(queue, worker):
        while queue:
            fut = queue.popleft()
            if not fut.done():
                fut.set_result(worker)
                return True
        return False

    # ----- starting and replacing workers ---------------------------------------------------
    def _spawn_later(self, reserved=False):
        task = asyncio.get_running_loop().create_task(self._spawn(reserved),
                                                      name="ttr-worker-start")
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    async def _spawn(self, reserved=False):
        pause = RESTART_PAUSES[min(self._failed_starts, len(RESTART_PAUSES) - 1)]
        if pause:
            await asyncio.sleep(pause)
        if self._closing:
            return
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
        proc = await asyncio.create_subprocess_exec(
            self.python, "-m", "ttr_bot.workers.child", str(self.nice), *self.preload,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
        worker = _Worker(self, proc, reserved)
        self._workers.add(worker)
        self.stats["started"] += 1
        try:
            await asyncio.wait_for(asyncio.shield(worker.ready), START_TIMEOUT)
        except (WorkerLost, TimeoutError) as exc:
            self._failed_starts += 1
            log.error("worker %s did not start (%s); trying again", proc.pid, exc or "timeout")
            worker.kill()
            if self._failed_starts >= GIVE_UP and not self._live():
                for fut in (*self._first, *self._waiters):   # rather than wait for ever
                    if not fut.done():
                        fut.set_exception(WorkerLost("no worker could start"))
                self._first.clear()
                self._waiters.clear()
            return          # its reader sees it end and asks for another (_lost)
        self._failed_starts = 0
        self._release(worker)

    def _lost(self, worker):
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if not self._closing:
            if worker.ready.done() and worker.ready.exception() is None:
                log.warning("worker %s is gone; starting another", worker.pid)
            self._spawn_later(worker.reserved)
