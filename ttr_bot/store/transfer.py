"""Moving a bot's data from one database to another: `python bot.py migrate-db`.

    report = await migrate_database("sqlite:///ttr.sqlite3", "postgresql://bot@db/ttr",
                                    check_game=...)

copies every row of every table (games, seats, the action logs, snapshots, timers, user
settings, results, ratings and their log, message references) from the source to an empty target of the same schema
version, keeping every id (buttons and timers name games by id) and each id sequence's high-water
mark (ids are never reused), then verifies the copy:
- every table has as many rows as the source, and the same rows, compared column by column in
  a form both drivers share (the JSON texts byte for byte);
- every game that started loads from the target through the `Store` interface (its log and
  snapshot pass the loads' checks), and `check_game`, which the caller supplies (the bot
  replays the log with GameService.rebuild and compares the state with the snapshot: the store
  package does not import the service), finds nothing wrong.

The copy is one transaction on the target: a failure leaves it empty, ready for another try.
The source is read in one transaction too (one consistent snapshot), and never written, except
that opening it brings it up to this bot's schema as the bot itself would at start-up. Stop the
bot first: the copy is of the moment it starts. A target that already holds anything is
refused. Both drivers' internals are used here (their connections), so nothing of this is part
of the `Store` interface the service sees.
"""
import asyncio
import hashlib
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .base import Store
from .copy_sides import side_of
from .copy_tables import TABLES, CopyError, row_key
from .dburl import parse_db_url, redact
from .errors import CorruptData
from .factory import open_store
from .models import Snapshot

# check_game(target store, game id, its snapshot) -> None if the game is right, else why not
GameCheck = Callable[[Store, int, Snapshot], Awaitable[str | None]]


# -- copying and verifying ---------------------------------------------------------------------------
@dataclass
class CopyReport:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)       # table -> rows
    statuses: dict[str, int] = field(default_factory=dict)   # game status -> games
    games_checked: int = 0
    copied: bool = True
    seconds: float = 0.0

    def summary(self) -> str:
        """One line: what was copied (or checked) and that it verified."""
        by = self.statuses
        games = (f"{self.rows.get('games', 0)} games ({by.get('active', 0)} in play, "
                 f"{by.get('lobby', 0)} in the lobby, {by.get('finished', 0)} finished, "
                 f"{by.get('cancelled', 0)} cancelled)")
        rest = ", ".join(f"{self.rows.get(t.name, 0)} {t.label}" for t in TABLES
                         if t.name != "games")
        verb = "Copied" if self.copied else "Checked the copy of"
        return (f"{verb} {self.source} to {self.target}: {games}, {rest}; verified: every table "
                f"matches row for row and {self.games_checked} started games rebuild from "
                f"their logs to their snapshots ({self.seconds:.1f} s).")


async def copy_rows(source: Store, target: Store) -> dict[str, int]:
    """Copy every table's rows into the empty `target`, in one transaction; rows per table."""
    if source.schema_version != target.schema_version:
        raise CopyError(f"the source is at schema version {source.schema_version} and the "
                        f"target at {target.schema_version}")
    counts = {}
    async with side_of(source).reading() as reader, side_of(target).writing() as writer:
        held = {t.label: n for t in TABLES if (n := await writer.count(t))}
        if held:
            raise CopyError("the target already holds data (" + ", ".join(
                f"{n} {label}" for label, n in held.items()) + "): migrate-db copies only into "
                "an empty database")
        for table in TABLES:
            counts[table.name] = 0
            async for rows in reader.rows(table):
                await writer.insert(table, rows)
                counts[table.name] += len(rows)
            if table.identity:
                await writer.set_high_water(table, await reader.high_water(table))
    return counts


async def verify_copy(source: Store, target: Store, *, check_game: GameCheck | None = None,
                      report: CopyReport | None = None) -> CopyReport:
    """Compare every table row by row, load every started game from the target and run
    `check_game` on it; CopyError listing what differs (the first few) if anything does."""
    report = report or CopyReport("source", "target", copied=False)
    problems: list[str] = []
    started: list[int] = []
    if source.schema_version != target.schema_version:
        problems.append(f"schema versions differ ({source.schema_version} and "
                        f"{target.schema_version})")
    async with side_of(source).reading() as a, side_of(target).reading() as b:
        for table in TABLES:
            n_a, n_b = await a.count(table), await b.count(table)
            report.rows[table.name] = n_b
            if n_a != n_b:
                problems.append(f"{table.label}: {n_a} in the source, {n_b} in the copy")
                continue
            differ, first, digest_a, digest_b = 0, None, hashlib.sha256(), hashlib.sha256()
            async for row_a, row_b in _pairs(a.rows(table), b.rows(table)):
                digest_a.update(repr(row_a).encode())
                digest_b.update(repr(row_b).encode())
                if row_a != row_b:
                    differ += 1
                    first = first or row_key(table, row_a)
                if table.name == "games":
                    report.statuses[row_b[7]] = report.statuses.get(row_b[7], 0) + 1
                    if row_b[7] != "lobby":
                        started.append(row_b[0])
            if differ or digest_a.digest() != digest_b.digest():
                problems.append(f"{table.label}: {differ} rows differ from the source "
                                f"(the first: {first})")
    for game_id in started:
        try:
            await target.load_actions(game_id)
            snapshot = await target.load_snapshot(game_id)
        except CorruptData as exc:
            problems.append(str(exc))
            continue
        if snapshot is None:            # cancelled in the lobby: nothing to rebuild
            continue
        report.games_checked += 1
        if check_game is not None:
            try:
                why = await check_game(target, game_id, snapshot)
            except CorruptData as exc:
                why = str(exc)
            if why:
                problems.append(f"game {game_id}: {why}")
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise CopyError("the copy does not verify: " + "; ".join(problems[:5]) + more)
    return report


async def _pairs(left: AsyncIterator[list[tuple]],
                 right: AsyncIterator[list[tuple]]) -> AsyncIterator[tuple[tuple, tuple]]:
    """Rows of two equally long streams of batches, side by side."""
    buffer_a: list[tuple] = []
    buffer_b: list[tuple] = []
    done_a = done_b = False
    while True:
        if not buffer_a and not done_a:
            buffer_a = await anext(left, []) or []
            done_a = not buffer_a
        if not buffer_b and not done_b:
            buffer_b = await anext(right, []) or []
            done_b = not buffer_b
        if not buffer_a or not buffer_b:
            return
        n = min(len(buffer_a), len(buffer_b))
        for pair in zip(buffer_a[:n], buffer_b[:n]):
            yield pair
        buffer_a, buffer_b = buffer_a[n:], buffer_b[n:]


async def migrate_database(source_url: str, target_url: str, *, check_game: GameCheck | None,
                           verify_only: bool = False, **options: Any) -> CopyReport:
    """What `bot.py migrate-db` does: open both, copy (unless verify_only), verify."""
    started = time.monotonic()
    src_driver, src_target = parse_db_url(source_url)
    dst_driver, dst_target = parse_db_url(target_url)
    if (src_driver, _same(src_driver, src_target)) == (dst_driver, _same(dst_driver, dst_target)):
        raise CopyError("--from and --to name the same database")
    if src_driver == "sqlite" and not await asyncio.to_thread(os.path.exists, src_target):
        raise CopyError(f"there is no SQLite database at {src_target}")
    report = CopyReport(redact(source_url), redact(target_url), copied=not verify_only)
    source = open_store(source_url, **options)
    target = open_store(target_url, **options)
    try:
        await source.open()
        await target.open()
        if not verify_only:
            await copy_rows(source, target)
        await verify_copy(source, target, check_game=check_game, report=report)
    finally:
        await source.close()
        await target.close()
    report.seconds = time.monotonic() - started
    return report


def _same(driver: str, target: str) -> str:
    return os.path.realpath(target) if driver == "sqlite" else target


__all__ = ["TABLES", "CopyError", "CopyReport", "GameCheck", "copy_rows", "verify_copy",
           "migrate_database"]
