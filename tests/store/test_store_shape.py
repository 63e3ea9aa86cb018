"""The store's shape, kept so: one small protocol per subject (store/subjects/), its SQL written
once in the module of the same name (store/sql/), no store file much over 300 lines, and each
service part given only the subjects it uses (typed, so the type checker refuses a call to
another subject's operation)."""
import ast
import importlib
import inspect
from pathlib import Path
from typing import Protocol

import pytest

from ttr_bot import store
from ttr_bot.store.postgres import PostgresStore
from ttr_bot.store.sqlite import SqliteStore

STORE = Path(store.__file__).parent
SERVICE = STORE.parent / "service"
DRIVERS = {"aiosqlite", "sqlite3", "asyncpg"}
SUBJECTS = sorted(p.stem for p in (STORE / "subjects").glob("*.py") if p.stem != "__init__")
LONGEST = 320        # "about 300 lines": the drivers are 303 and 306
DRIVER_WRITTEN = {"lock_game", "claim_timers"}    # advisory locks, SKIP LOCKED


def _protocols(module):
    return [c for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__ and Protocol in c.__mro__[1:]
            and getattr(c, "_is_protocol", False)]


def _operations(cls):
    return {n for n, v in vars(cls).items()
            if not n.startswith("_") and (inspect.iscoroutinefunction(v) or inspect.isfunction(v))}


def _written(subject):
    sql = importlib.import_module(f"ttr_bot.store.sql.{subject}")
    return set().union(*(_operations(c) for _, c in inspect.getmembers(sql, inspect.isclass)
                         if c.__module__ == sql.__name__))


def test_every_store_file_is_about_300_lines_at_most():
    long = {str(p.relative_to(STORE)): n for p in STORE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > LONGEST}
    assert not long, long


@pytest.mark.parametrize("folder", ["sql", "subjects"])
def test_the_sql_and_the_subjects_import_no_database_library(folder):
    bad = []
    for path in sorted((STORE / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.name}:{node.lineno}: {n}" for n in names if n.split(".")[0] in DRIVERS]
    assert not bad, bad


@pytest.mark.parametrize("subject", SUBJECTS)
def test_each_subject_has_its_sql_module_which_implements_every_operation(subject):
    """An operation of subjects/x.py is written in sql/x.py, or by each driver where the drivers
    truly differ (DRIVER_WRITTEN); both drivers are complete."""
    protocols = _protocols(importlib.import_module(f"ttr_bot.store.subjects.{subject}"))
    assert protocols, f"subjects/{subject}.py declares no protocol"
    written = _written(subject)
    for proto in protocols:
        for name in _operations(proto):
            if name in DRIVER_WRITTEN:
                assert all(name in vars(d) for d in (SqliteStore, PostgresStore)), name
            else:
                # or another subject's, which declares it too (what a change owes, results
                # a cup reads): then written there
                owners = [s for s in SUBJECTS if s != subject and name in _written(s) and any(
                    name in _operations(c) for c in _protocols(
                        importlib.import_module(f"ttr_bot.store.subjects.{s}")))]
                assert name in written or owners, f"{proto.__name__}.{name}"
    for driver in (SqliteStore, PostgresStore):
        assert not inspect.isabstract(driver), sorted(driver.__abstractmethods__)


def test_every_operation_is_written_once_across_the_sql_modules():
    where = {}
    for path in sorted((STORE / "sql").glob("*.py")):
        module = importlib.import_module(f"ttr_bot.store.sql.{path.stem}"
                                         if path.stem != "__init__" else "ttr_bot.store.sql")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                for name in _operations(cls):
                    where.setdefault(name, []).append(f"{path.name}:{cls.__name__}")
    twice = {n: w for n, w in where.items() if len(w) > 1}
    assert not twice, twice


def _part_classes():
    """(file, class, its `self.store` annotation) of every service part given a store subject."""
    for path in sorted(SERVICE.glob("*.py")):
        for cls in ast.walk(ast.parse(path.read_text())):
            if not isinstance(cls, ast.ClassDef):
                continue
            for node in ast.walk(cls):
                if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute)
                        and node.target.attr == "store"
                        and getattr(node.target.value, "id", None) == "self"):
                    yield path, cls.name, ast.unparse(node.annotation)


def test_a_service_part_reaches_the_store_only_through_the_subjects_it_was_given():
    """`self.core.store.add_seat(...)` in a part would reach every subject; a part names its
    subjects (`self.store: LobbyStore = core.store`) and calls only them. The core (core.py)
    and the root (host.py: closing the store) hold the whole store; the core's `Owing`
    (owed.py) is given the subjects it reads (`OwingStore`)."""
    bad = []
    for path in sorted(SERVICE.glob("*.py")):
        if path.name in ("core.py", "host.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "store"
                    and getattr(node.value.value, "attr", getattr(node.value.value, "id", None))
                    == "core"):
                bad.append(f"{path.name}:{node.lineno}: core.store.{node.attr}")
    assert not bad, "\n".join(bad)
    subjects = {c for s in SUBJECTS for c in _protocols(
        importlib.import_module(f"ttr_bot.store.subjects.{s}"))}
    given = list(_part_classes())
    assert len(given) >= 12, given
    for path, cls, annotation in given:
        module = importlib.import_module(f"ttr_bot.service.{path.stem}")
        typ = eval(annotation, vars(module))     # noqa: S307 (a name from the module)
        if isinstance(typ, type) and typ not in subjects:
            bases = [b for b in typ.__mro__[1:] if b in subjects]
            assert bases and getattr(typ, "_is_protocol", False), (
                f"{path.name} {cls}: self.store is {annotation}, not the store's subjects")
            assert _operations(typ) == set(), f"{annotation} adds operations of its own"
