"""A throwaway PostgreSQL server, for the tests and `python -m tools.bench service --pg`.

`TempPostgres().start()` runs `initdb` in a new temporary directory (in /dev/shm where it has
room: memory, as nothing is kept), starts `postgres` on a free port of 127.0.0.1 (and a Unix socket in that directory), and
`stop()` stops it and deletes the directory. It is a test server, tuned to start fast and not to keep anything: fsync=off,
full_page_writes=off, a small shared_buffers, trust authentication on the loopback address only.
Its commits are not on disk; the driver's durability (synchronous_commit=on) is a property of
a real server's configuration, not something these tests could show by killing a client.

The server programs come from $TTR_PG_BIN, else the PATH, else Debian's
/usr/lib/postgresql/<version>/bin (where the `postgresql` package puts them, off the PATH).
`initdb` refuses to run as root: as root the server runs as the unprivileged `postgres` user
(through `runuser`), which owns the data directory.

Databases are made and dropped over an admin connection that lives on a background thread's
event loop, so synchronous code (pytest fixtures, a test inspecting rows) can use it too:
`server.run(coro)` runs a coroutine there and returns its result.
"""
import asyncio
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

PROGRAMS = ("initdb", "pg_ctl", "postgres")
INSTALL_HINT = ("install PostgreSQL's server programs (Debian: apt-get install postgresql) "
                "or point TTR_PG_BIN at the directory holding initdb and pg_ctl")
SETTINGS = {
    "fsync": "off", "full_page_writes": "off", "synchronous_commit": "on",
    "shared_buffers": "32MB", "max_connections": "400", "listen_addresses": "127.0.0.1",
    "logging_collector": "off", "log_min_messages": "warning", "max_wal_size": "256MB",
    "max_locks_per_transaction": "128", "timezone": "UTC",
}


_SHM = "/dev/shm"


def _roomy(directory: str, need: int = 2 << 30) -> bool:
    """A writable directory with `need` bytes free (a container's /dev/shm may have 64 MB)."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return False
    return os.access(directory, os.W_OK) and stat.f_bavail * stat.f_frsize >= need


class ServerUnavailable(RuntimeError):
    """The server programs are missing or the server would not start."""


def find_bin_dir() -> Path | None:
    """The directory with initdb, pg_ctl and postgres, or None."""
    candidates = []
    if os.environ.get("TTR_PG_BIN"):
        candidates.append(Path(os.environ["TTR_PG_BIN"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(os.path.realpath(on_path)).parent)
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0)
    candidates += [Path(p) for p in reversed(debian)]
    for directory in candidates:
        if all((directory / name).exists() for name in PROGRAMS):
            return directory
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TempPostgres:
    def __init__(self, *, bin_dir: Path | None = None, settings: dict[str, str] | None = None,
                 base_dir: str | None = None):
        self.bin_dir = bin_dir or find_bin_dir()
        # memory (tmpfs) where there is some: a test server keeps nothing, and on a slow disk
        # each CREATE DATABASE for a test would take ten times longer
        self.base_dir = base_dir or (_SHM if _roomy(_SHM) else None)
        self.settings = {**SETTINGS, **(settings or {})}
        self.root: Path | None = None
        self.port: int | None = None
        self.user = "postgres"
        self.startup_seconds: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._admin: Any = None
        self._counter = 0

    # -- lifetime ------------------------------------------------------------------------------
    def start(self) -> "TempPostgres":
        if self.bin_dir is None:
            raise ServerUnavailable(f"no PostgreSQL server programs found: {INSTALL_HINT}")
        started = time.monotonic()
        self.root = Path(tempfile.mkdtemp(prefix="ttr-pg-", dir=self.base_dir))
        run_as = self._run_as()
        if run_as:
            os.chown(self.root, pwd.getpwnam(run_as).pw_uid, pwd.getpwnam(run_as).pw_gid)
        data = self.root / "data"
        try:
            self._run([self.bin_dir / "initdb", "-D", data, "-U", self.user, "-A", "trust",
                       "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"])
            for attempt in range(3):     # the free port may be taken before postgres binds it
                self.port = _free_port()
                options = " ".join(f"-c {k}={v}" for k, v in {
                    **self.settings, "port": str(self.port),
                    "unix_socket_directories": str(self.root)}.items())
                try:
                    self._run([self.bin_dir / "pg_ctl", "-D", data, "-l", self.root / "server.log",
                               "-w", "-t", "30", "-o", options, "start"])
                    break
                except ServerUnavailable:
                    if attempt == 2:
                        raise
            self._start_admin()
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - started
        return self

    def stop(self) -> None:
        if self._loop is not None:
            if self._admin is not None:
                try:
                    self.run(self._admin.close(), timeout=10)
                except Exception:
                    pass
                self._admin = None
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=10)
            self._loop.close()
            self._loop = None
        if self.root is not None:
            data = self.root / "data"
            if self.bin_dir is not None and (data / "postmaster.pid").exists():
                try:
                    self._run([self.bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "-w",
                               "stop"])
                except ServerUnavailable:
                    pass
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> "TempPostgres":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run_as(self) -> str | None:
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise ServerUnavailable("initdb refuses to run as root and there is no unprivileged "
                                    "'postgres' user to run the test server as") from None
        return "postgres"

    def _run(self, argv: list[Any]) -> None:
        argv = [str(a) for a in argv]
        run_as = self._run_as()
        if run_as:
            argv = ["runuser", "-u", run_as, "--", *argv]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                              cwd=str(self.root), stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            log = ""
            if self.root is not None and (self.root / "server.log").exists():
                log = (self.root / "server.log").read_text(errors="replace")[-2000:]
            raise ServerUnavailable(f"{Path(argv[-1] if run_as else argv[0]).name} failed "
                                    f"({' '.join(argv[:6])} ...):\n{proc.stdout}{proc.stderr}{log}")

    # -- databases -------------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 120) -> Any:
        """Run a coroutine on the admin thread's loop and return its result."""
        if self._loop is None:
            raise ServerUnavailable("the test server is not running")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def _start_admin(self) -> None:
        import asyncpg

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ttr-pg-admin",
                                        daemon=True)
        self._thread.start()
        self._admin = self.run(asyncpg.connect(self.url()))

    def create_database(self, name: str | None = None, template: str = "template1") -> str:
        """A new database (a fresh name unless given) copied from `template`; its name."""
        if name is None:
            self._counter += 1
            name = f"ttr_{os.getpid()}_{self._counter}"
        # FILE_COPY copies the files (about 12 ms on tmpfs); the default WAL_LOG writes the
        # template through the WAL (about 30 ms)
        self.run(self._admin.execute(
            f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY'))
        return name

    def drop_database(self, name: str) -> None:
        self.run(self._admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def mark_template(self, name: str) -> None:
        """Let `name` be a template (it must have no connections when it is copied)."""
        self.run(self._admin.execute(f'ALTER DATABASE "{name}" WITH IS_TEMPLATE true'))

    def log_tail(self, chars: int = 3000) -> str:
        path = self.root / "server.log" if self.root else None
        return path.read_text(errors="replace")[-chars:] if path and path.exists() else ""
