"""One worker process: `python -m ttr_bot.workers.child NICE [MODULE ...]`.

It imports the given modules first (so that the first task does not pay for them), says it is
ready, then runs one task at a time as they come on stdin and answers on stdout
(protocol.py). It ends when stdin closes (the pool closed it, or the bot is gone).

A worker lowers its CPU priority by NICE (the pool's `nice`, 10 in the bot): with as many
workers as cores, the bot's own process, whose event loop answers Discord, still gets a core the
moment it has work.

The protocol owns the real stdout: `print` in a task goes to stderr, as a log line would, and
cannot corrupt a frame. Ctrl-C in a terminal reaches the whole process group; the worker
ignores it and lets the bot shut the pool down in order.
"""
import importlib
import os
import signal
import sys
import time
import traceback

from .protocol import HEADER, frame, unframe


def _read_exactly(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(inp, out):
    while True:
        header = _read_exactly(inp, HEADER.size)
        if header is None:
            return
        body = _read_exactly(inp, HEADER.unpack(header)[0])
        if body is None:
            return
        try:
            function, args = unframe(body)
            reply = frame(("ok", function(*args)))
        except BaseException as exc:   # noqa: BLE001 - the caller gets it, the worker goes on
            reply = frame(("error", type(exc).__name__, str(exc), traceback.format_exc()))
        out.write(reply)
        out.flush()


def main(argv):
    started = time.perf_counter()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    nice, modules = int(argv[0]), argv[1:]
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    inp = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    for name in modules:
        importlib.import_module(name)
    out.write(frame(("ready", os.getpid(), time.perf_counter() - started)))
    out.flush()
    serve(inp, out)


if __name__ == "__main__":
    main(sys.argv[1:])
