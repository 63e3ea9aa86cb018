"""Tasks for the worker pool that keep its workers busy: `sleep` (a decision that takes a while)
and `hold` (a worker kept until a file says it may go). Module-level functions in a module of
their own, because a worker imports a task's module by name (ttr_bot/workers).

Used by testkit/endkit.py (a saturated pool before a game's final post: tests/discord/
test_e2e_final_post.py and `python -m tools.bench finale`) and by the pool's own tests
(tests/workers/tasks.py imports them back)."""
import os
import time


def sleep(seconds):
    time.sleep(seconds)
    return seconds


def hold(release):
    """Keep this worker busy until the file `release` exists (the test says when)."""
    while not os.path.exists(release):
        time.sleep(0.005)
    return os.getpid()
