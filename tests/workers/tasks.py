"""Module-level functions the pool's tests run in worker processes (a worker imports this
module by name, as it would any function of ttr_bot). `sleep` and `hold` live in
testkit/pool_tasks.py, which the end of a game on a busy pool (testkit/endkit.py) uses too."""
import os
import sys
import time

from testkit.pool_tasks import hold, sleep  # noqa: F401 (the pool's tests run them too)


def square(x):
    return x * x


def pid():
    return os.getpid()


def fail(message):
    raise ValueError(message)


def start_then_sleep(marker, seconds):
    """Say it has started (a file), then take `seconds`: a task to kill in the middle."""
    with open(marker, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(seconds)
    return "finished"


def spin(seconds):
    """Busy for `seconds` of CPU (a decision)."""
    end = time.process_time() + seconds
    n = 0
    while time.process_time() < end:
        n += 1
    return n


def noisy(x):
    print("a task that prints", x)
    sys.stdout.flush()
    return x


def unpicklable_result():
    return lambda: None


def open_files():
    """What the worker process has open (Linux)."""
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            out.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return out


def board_is_this_process_cached_one(board):
    from ttr_bot.maps import load_board
    return board is load_board(board.map_id, board.variant)


def started(seconds):
    """When it started (the wall clock), after taking `seconds`: the order tasks began in."""
    began = time.time()
    time.sleep(seconds)
    return began


def started_where(seconds):
    """(this worker's pid, when it started), after taking `seconds`."""
    return os.getpid(), started(seconds)


def pages_held(board):
    """The static pages this process holds for `board`: [(page kind, locale)]."""
    from ttr_bot.render import static
    fp = static.fingerprint(board)
    return sorted((kind, locale) for (f, kind, locale) in static._PAGES if f == fp)
