"""The architecture as a test: which part of the bot may import which (docs/architecture.md).

Every `import` in ttr_bot/ is read with `ast` — function-local imports included, since they are
the usual way to hide a cycle — and checked against the arrows:

    discord -> service -> engine        service -> store (its interface only), ai, maps
    render -> engine, i18n              ai -> engine          maps, game_record -> engine
    service, discord -> workers (the process pool, which imports nothing of ttr_bot)

The engine is pure (the standard library's pure modules only); only ttr_bot/discord imports
discord.py; render and ai never reach the service or the store; the adapter reaches the game
only through the service; a service part uses only the public names of the core and the other
parts; no module imports itself back through others.

Around the package, the repository's sides (every .py file of each, read the same way):

    tests -> testkit -> ttr_bot        tools -> testkit        tests, tools -> ttr_bot

testkit/ (the fake Discord, the end-to-end driver, the sample games: what the tests and the
developer's tools share) imports only ttr_bot; tools never import tests; tests import tools
only where a tool is what the test is about (TESTS_OF_TOOLS); ttr_bot and bot.py import none
of the three.

Inside the adapter, its rooms by direction (ADAPTER_ARROWS): commands -> controls, posting,
text; posting -> controls, text; controls -> text; text imports neither them nor discord.py.
"""
import ast
import sys
from pathlib import Path

import pytest

from testkit.source_walks import core_parameters

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "ttr_bot"

# What each part of ttr_bot may import from ttr_bot (its own part is always allowed).
ALLOWED = {
    "engine": set(),
    "i18n": set(),
    "bounded": set(),
    "store": set(),
    "workers": set(),       # the process pool runs what it is given: it knows no part of the bot
    "maps": {"engine"},
    "game_record": {"engine", "maps"},
    "ratings": {"engine", "i18n"},
    "stats": {"engine", "i18n", "ratings"},
    "ai": {"engine"},
    "render": {"engine", "i18n", "ratings", "stats"},
    # service -> workers: computer players think in worker processes (GameService.decide)
    "service": {"engine", "maps", "game_record", "store", "ai", "i18n", "ratings", "stats",
                "bounded", "workers"},
    # discord -> workers: the pictures are drawn in them (pictures.py); the bot owns the pool
    "discord": {"service", "engine", "render", "i18n", "ratings", "stats", "bounded", "workers"},
    # the two commands that ship with the bot: the offline demo (what bot.py plays without a
    # token) and the replay tool of the record contract (docs/record-format.md)
    "replay": {"game_record", "render", "i18n"},
    "demo": {"engine", "maps", "game_record", "ai", "i18n", "render"},
}
# The developer's tools (tools/: benchmarks, the arena, map and font builders), the tests and
# what those two share (testkit/) may import any part; the product never imports them.
OUTSIDE = ("tools", "tests", "testkit")
# The engine is pure: the standard library's modules without I/O, clock, threads or networks.
ENGINE_STDLIB = {"collections", "dataclasses", "itertools", "functools", "heapq", "math",
                 "random", "typing", "enum", "abc", "operator", "bisect", "copy", "__future__"}
DRIVERS = {"aiosqlite", "sqlite3", "asyncpg"}


def modules():
    """{module name: path} of every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = modules()


def _typing_only(tree):
    """The import statements under `if TYPE_CHECKING:`: the type checker follows them, Python
    never runs them."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)
                    if isinstance(n, (ast.Import, ast.ImportFrom))}
    return out


def imports_of(name, path, runtime_only=False):
    """[(imported module, line)] with relative imports resolved; `from X import y` names the
    module X.y when y is a module, else X. `runtime_only`: without the imports made for the
    type checker alone (they obey the arrows, but cannot make a cycle at run time)."""
    is_package = path.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _typing_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[:len(base) - node.level + 1]
                module = ".".join(anchor + ([node.module] if node.module else []))
            else:
                module = node.module
            for a in node.names:
                sub = f"{module}.{a.name}"
                found.append((sub if sub in MODULES else module, node.lineno))
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}
RUNTIME_GRAPH = {name: imports_of(name, path, runtime_only=True) for name, path in MODULES.items()}


def part(module):
    """'ttr_bot.service.host' -> 'service'; None outside the package."""
    bits = module.split(".")
    return bits[1] if bits[0] == "ttr_bot" and len(bits) > 1 else None


def where(name, line):
    return f"{MODULES[name].relative_to(REPO)}:{line}"


def test_every_part_is_known():
    assert {part(m) for m in MODULES if part(m)} <= set(ALLOWED) | {None}, \
        "a new part of ttr_bot: give it its arrows in ALLOWED (and in docs/architecture.md)"


@pytest.mark.parametrize("src", sorted(ALLOWED))
def test_each_part_imports_only_what_its_arrows_allow(src):
    bad = []
    for name, found in GRAPH.items():
        if part(name) != src:
            continue
        for target, line in found:
            dst = part(target)
            if dst is not None and dst != src and dst not in ALLOWED[src]:
                bad.append(f"{where(name, line)}: {src} -> {dst} ({target})")
    assert not bad, "\n".join(bad)


def test_the_engine_is_pure():
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           if part(name) == "engine" for target, line in found
           if part(target) != "engine" and target.split(".")[0] not in ENGINE_STDLIB]
    assert not bad, "the engine imports I/O, a clock or a library:\n" + "\n".join(bad)


def test_only_the_adapter_imports_discord():
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           if part(name) != "discord" for target, line in found
           if target.split(".")[0] == "discord"]
    assert not bad, "\n".join(bad)


def test_the_product_never_imports_the_tools_or_the_tests():
    """What `pip install .` ships (ttr_bot) runs without the repository's tools/, tests/ and
    testkit/."""
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           for target, line in found if target.split(".")[0] in OUTSIDE]
    assert not bad, "\n".join(bad)


def test_render_and_ai_never_reach_the_service_or_the_store():
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           if part(name) in ("render", "ai") for target, line in found
           if part(target) in ("service", "store", "discord")
           or target.split(".")[0] in DRIVERS | {"discord"}]
    assert not bad, "\n".join(bad)


def test_the_service_reaches_the_store_only_through_its_interface():
    """The service imports the store package's public names (`from ..store import …`), never
    a driver module or a database library."""
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           if part(name) == "service" for target, line in found
           if (part(target) == "store" and target != "ttr_bot.store")
           or target.split(".")[0] in DRIVERS]
    assert not bad, "\n".join(bad)


def test_the_adapter_reaches_the_game_only_through_the_service():
    bad = [f"{where(name, line)}: {target}" for name, found in GRAPH.items()
           if part(name) == "discord" for target, line in found
           if part(target) in ("store", "ai") or target.split(".")[0] in DRIVERS]
    assert not bad, "\n".join(bad)



SERVICE_PARTS = {"core", "lobby", "handover", "moves", "queue", "absence", "away", "votes",
                 "records", "listing", "invariants", "since", "hints", "adapter_state", "seasons",
                 "board", "cups"}


def test_a_service_part_uses_only_the_public_names_of_the_core_and_the_other_parts():
    """`self.core._reload(...)` or `self.handover._hand_over(...)` from another part is a
    private name reached across parts: each operation a part needs is public on its owner
    (core.py may use its own)."""
    bad = []
    for path in sorted((PACKAGE / "service").glob("*.py")):
        if path.name == "core.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Attribute)
                    and node.value.attr in SERVICE_PARTS):
                bad.append(f"{path.name}:{node.lineno}: .{node.value.attr}.{node.attr}")
    assert not bad, "\n".join(bad)


def _contract_names():
    """The names `CoreContract` (service/core_contract.py) declares: its properties and
    methods."""
    tree = ast.parse((PACKAGE / "service" / "core_contract.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CoreContract")
    return {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_a_service_part_holds_the_core_as_its_contract_and_uses_nothing_else():
    """Each part is built with `core: CoreContract` (never the concrete `Core`), and every
    `core.<name>` / `self.core.<name>` it reads is a name of the contract, in the bodies the
    type checker skips (unannotated functions) too."""
    names = _contract_names()
    assert {"lock", "load", "apply", "cancel", "reload", "write_game", "committed"} <= names
    bad, parts = [], 0
    for path in sorted((PACKAGE / "service").glob("*.py")):
        if path.name in ("core.py", "core_contract.py", "host.py"):
            continue
        tree = ast.parse(path.read_text())
        for line, annotation in core_parameters(tree):
            parts += 1
            if annotation != "CoreContract":
                bad.append(f"{path.name}:{line}: core is not a CoreContract")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            held = node.value
            if ((isinstance(held, ast.Name) and held.id == "core")
                    or (isinstance(held, ast.Attribute) and held.attr == "core"
                        and isinstance(held.value, ast.Name) and held.value.id == "self")):
                if node.attr not in names:
                    bad.append(f"{path.name}:{node.lineno}: core.{node.attr} is not the "
                               "core's contract")
    assert parts >= 16, parts
    assert not bad, "\n".join(bad)


def test_no_import_cycles():
    """Tarjan's strongly connected components of the module graph (the imports Python runs):
    none larger than one."""
    edges = {name: sorted({t for t, _ in found if t in MODULES and t != name})
             for name, found in RUNTIME_GRAPH.items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert not cycles, "modules that import each other:\n" + "\n".join(map(" <-> ".join, cycles))


# ----- the repository's sides ------------------------------------------------------------------
# What each side may import of the other sides (its own always); bot.py is the bot's side.
SIDES = {
    "ttr_bot": set(),
    "testkit": {"ttr_bot"},              # shared by the tests and the tools: it knows neither
    "tools": {"ttr_bot", "testkit"},
    "tests": {"ttr_bot", "testkit"},
}
# tests -> tools where the tool is what the test is about: {test file: the tool's modules}.
# (Tests of a tool's command line may also run it as `python -m tools.x`, which imports nothing.)
TESTS_OF_TOOLS = {
    "tests/ai/test_arena.py": {"tools.arena"},
    "tests/render/test_card_picture.py": {"tools.card_picture"},
}


def side_files():
    """{path relative to the repository: its side} of every Python file of the four sides."""
    out = {"bot.py": "ttr_bot"}
    for side in SIDES:
        for path in sorted((REPO / side).rglob("*.py")):
            if "__pycache__" not in path.parts:
                out[path.relative_to(REPO).as_posix()] = side
    return out


def side_imports(rel):
    """[(absolute module, line)] of a file's imports, function-local and typing-only ones
    included; a relative import stays on its file's side and is left out."""
    found = []
    for node in ast.walk(ast.parse((REPO / rel).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return found


def crossings():
    """[(file, line, its side, the side imported, module)] of every import from one side into
    another that SIDES does not allow (less TESTS_OF_TOOLS), and the set of the exceptions used."""
    bad, used = [], set()
    for rel, side in side_files().items():
        for module, line in side_imports(rel):
            other = module.split(".")[0]
            if other not in SIDES or other == side or other in SIDES[side]:
                continue
            tools = TESTS_OF_TOOLS.get(rel, set())
            hit = next((t for t in tools if module == t or module.startswith(t + ".")), None)
            if hit is not None:
                used.add((rel, hit))
                continue
            bad.append(f"{rel}:{line}: {side} -> {other} ({module})")
    return bad, used


def test_the_sides_import_only_along_their_arrows():
    """ttr_bot (and bot.py) imports none of tests, tools and testkit; testkit only ttr_bot;
    tools no tests; tests no tools, but for a test of that very tool (TESTS_OF_TOOLS). What both
    the tests and the tools need lives in testkit/."""
    bad, _ = crossings()
    assert not bad, ("an import across the repository's sides (what tests and tools share goes "
                     "into testkit/):\n" + "\n".join(bad))


def test_each_test_of_a_tool_still_imports_it():
    """An exception of TESTS_OF_TOOLS that is no longer used is removed, so the list stays the
    tests that are about a tool."""
    _, used = crossings()
    listed = {(rel, tool) for rel, tools in TESTS_OF_TOOLS.items() for tool in tools}
    assert listed - used == set()


def test_the_side_walk_sees_every_kind_of_import(tmp_path, monkeypatch):
    """A module-level, a function-local and a `from X import y` import each count; a relative
    one stays on its side."""
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    (tmp_path / "testkit").mkdir()
    (tmp_path / "testkit" / "x.py").write_text(
        "import tests.helpers\nfrom . import y\ndef f():\n    from tools.bench import cards\n",
        encoding="utf-8")
    assert side_imports("testkit/x.py") == [("tests.helpers", 1), ("tools.bench.cards", 4)]


# The adapter by direction (ttr_bot/discord/__init__.py): what each of its rooms may import
# of the others. Commands use the controls (one move end to end), the posts and the words;
# posts carry buttons (controls) and words; the words are pure and import no other room; the
# shared modules at the top (errors, ack, membership, palettes...) import only the words, and
# bot.py, which wires them all, any room.
ADAPTER_ROOMS = ("commands", "controls", "posting", "text")
ADAPTER_ARROWS = {
    "commands": {"controls", "posting", "text"},
    "controls": {"text"},
    "posting": {"controls", "text"},
    "text": set(),
    "top": {"text"},
}


def adapter_room(module):
    parts = module.split(".")
    if parts[:2] != ["ttr_bot", "discord"]:
        return None
    if len(parts) > 2 and parts[2] in ADAPTER_ROOMS:
        return parts[2]
    return "top"


def test_the_adapter_imports_only_along_its_directions():
    bad = []
    for name, found in GRAPH.items():
        room = adapter_room(name)
        if room is None or name == "ttr_bot.discord.bot":
            continue
        for target, line in found:
            other = adapter_room(target)
            if other in (None, room, "top"):
                continue
            if other not in ADAPTER_ARROWS[room]:
                bad.append(f"{name}:{line} ({room}) imports {target} ({other})")
    assert not bad, "\n".join(bad)
    # the words talk to nobody: no discord.py in text/
    talking = [f"{name}:{line}" for name, found in GRAPH.items()
               if adapter_room(name) == "text"
               for target, line in found if target.split(".")[0] == "discord"]
    assert not talking, talking
