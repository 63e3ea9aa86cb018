"""A pool of worker processes for CPU work, so that the event loop only waits.

    pool = WorkerPool(size)                 # size None: one per core; 0: threads of this process
    await pool.start()                      # the workers boot in the background
    value = await pool.run(function, *args, timeout=30)
    await pool.close()

`run` takes a module-level function (sent by name, as pickle sends functions) and picklable
arguments, runs it in a free worker and returns its value; callers queue, first come first
served, while every worker is busy. The bot has one pool: the service's computer players
(`GameService.decide`) and the adapter's pictures (`discord/pictures.py`) are two uses of it.

A worker is a fresh interpreter (`python -m ttr_bot.workers.child`, started with asyncio's
subprocess support: the "spawn" way, never a fork), so it inherits neither the event loop nor
its threads, sockets or database connections, and behaves the same under Docker, macOS and in
the tests. A worker that dies, or is killed because its task ran over its timeout, is replaced;
its caller gets `WorkerLost` (the task is not retried here: the caller knows whether doing it
again is safe, e.g. the durable bot-move timer fires again).

This package imports nothing of ttr_bot: it runs what it is given.
"""
from .pool import (
    WorkerCrashed,
    WorkerError,
    WorkerLost,
    WorkerPool,
    WorkerTimeout,
    default_size,
    rss_bytes,
)

__all__ = ["WorkerCrashed", "WorkerError", "WorkerLost", "WorkerPool", "WorkerTimeout",
           "default_size", "rss_bytes"]
