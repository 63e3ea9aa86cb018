"""The figures issue 35 ("the house for the next engineer") is measured by, before and after each
step: how much of each package the type checker covers, and how the service's parts lean on the
core.

    python -m tools.house_figures

- mypy-checked files per package: the .py files under pyproject.toml's [tool.mypy] `files`
  (the rest are followed for their types, not checked), of all the package's files;
- annotated functions per package: functions whose every parameter (but self/cls) and return
  is annotated, of all functions;
- `Any` in the service: each use of the name `Any` (annotations and casts) in ttr_bot/service;
- private-name reaches across parts: `<x>.core._name` / `core._name` (or another part's
  `_name`) read in a service file other than the core's own (core.py);
- parts typed against the core's contract: the service's classes built with a `core`
  parameter whose annotation is `CoreContract` (core_contract.py), of all such classes;
- the core's game-row writes outside `apply`/`cancel`: a part's store write of a game's own
  rows (GAME_ROW_WRITES: the rows the core caches) made through `core.write_game`, of all;
- direct store calls outside the core: `core.store.<method>` in those files, by method's
  subject file, and the store reached through the service in the adapter, bot.py and tools/;
- façade names: attributes `GameService` serves that are not parts (0 once parts are the API);
- the adapter's rooms: .py files at ttr_bot/discord's top and in each of its subpackages, and
  the kinds of owed post with a renderer of their own (posting/renderers.py), of the kinds the
  service can owe;
- the largest files of ttr_bot/ (lines).
"""
import ast
import sys
import tomllib
from collections import Counter
from pathlib import Path

from testkit.source_walks import core_parameters

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "service", "store", "discord", "ai", "render", "workers")
CORE_FILES = {"core.py"}
# the store writes of a game's own rows (games, seats): the core caches them, so a part makes
# them through `core.write_game` (core_contract.py)
GAME_ROW_WRITES = {"create_game", "start_game", "leave_lobby", "add_seat", "remove_seat",
                   "update_seat", "hand_seat_to_bot", "return_seat"}
PARTS = {"core", "lobby", "handover", "moves", "queue", "absence", "away", "votes", "records",
         "listing", "invariants", "since", "hints", "adapter_state", "seasons", "board", "cups"}


def py_files(where):
    return sorted(p for p in where.rglob("*.py") if "__pycache__" not in p.parts)


def mypy_files():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    out = set()
    for entry in config["files"]:
        path = ROOT / entry
        out.update(py_files(path) if path.is_dir() else [path])
    return out


def functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def annotated(fn):
    args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
    args = [a for a in args if a.arg not in ("self", "cls")]
    args += [a for a in (fn.args.vararg, fn.args.kwarg) if a is not None]
    return fn.returns is not None and all(a.annotation is not None for a in args)


def chain(node):
    """'self.core.store' for an Attribute/Name chain, else None."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
        return ".".join(reversed(names))
    return None


def main():
    checked = mypy_files()
    print("package     mypy-checked files    annotated functions")
    for pkg in PACKAGES:
        files = py_files(ROOT / "ttr_bot" / pkg)
        fns = [f for p in files for f in functions(ast.parse(p.read_text()))]
        print(f"{pkg:10}  {sum(p in checked for p in files):4} of {len(files):<4}          "
              f"{sum(map(annotated, fns)):4} of {len(fns)}")

    anys, reaches, store_calls, reach_files = Counter(), Counter(), Counter(), set()
    for path in py_files(ROOT / "ttr_bot" / "service"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "Any":
                anys[path.name] += 1
            if path.name in CORE_FILES or not isinstance(node, ast.Attribute):
                continue
            receiver = chain(node.value)
            if receiver is None:
                continue
            last = receiver.split(".")[-1]
            if (node.attr.startswith("_") and not node.attr.startswith("__") and last in PARTS
                    and receiver != "self"):
                reaches[node.attr] += 1
                reach_files.add(path.name)
            if last == "store" and receiver.split(".")[-2:-1] == ["core"]:
                store_calls[path.name] += 1
    typed, built, routed, rows = 0, 0, 0, 0
    for path in py_files(ROOT / "ttr_bot" / "service"):
        if path.name in CORE_FILES | {"core_contract.py", "host.py"}:
            continue
        tree = ast.parse(path.read_text())
        for _, annotation in core_parameters(tree):
            built += 1
            typed += annotation == "CoreContract"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in GAME_ROW_WRITES
                    and chain(node.func.value) == "self.store"):
                rows += 1
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "write_game" and len(node.args) > 1
                    and isinstance(node.args[1], ast.Call)
                    and isinstance(node.args[1].func, ast.Attribute)
                    and node.args[1].func.attr in GAME_ROW_WRITES):
                routed += 1
    outside = Counter()
    for path in py_files(ROOT / "ttr_bot" / "discord") + py_files(ROOT / "tools") + [ROOT / "bot.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "store":
                receiver = chain(node.value) or ""
                if receiver.split(".")[-1] in ("service", "svc", "core"):
                    outside[str(path.relative_to(ROOT))] += 1
    print(f"\nAny in the service: {sum(anys.values())} "
          f"({', '.join(f'{f} {n}' for f, n in anys.most_common(6))}, ...)")
    most = ", ".join(f"{a} {n}" for a, n in reaches.most_common(5))
    print(f"private-name reaches across parts: {sum(reaches.values())} in {len(reach_files)} files"
          + (f" ({most}, ...)" if most else ""))
    print(f"parts typed against the core's contract: {typed} of {built}")
    print(f"game-row writes outside apply/cancel through core.write_game: {routed} of {rows}")
    print(f"direct core.store calls in the service's parts: {sum(store_calls.values())} "
          f"({', '.join(f'{f} {n}' for f, n in store_calls.most_common())})")
    print(f"the store through the service in the adapter, bot.py, tools/: {sum(outside.values())} "
          f"({', '.join(f'{f} {n}' for f, n in outside.most_common())})")
    sys.path.insert(0, str(ROOT))
    from ttr_bot.service.host import GameService
    served = [n for n in dir(GameService) if not n.startswith("_")
              and isinstance(getattr(GameService, n, None), property) is False
              and type(getattr(GameService, n)).__name__ == "_Part"]
    print(f"façade names (descriptors on GameService): {len(served)}")
    adapter = ROOT / "ttr_bot" / "discord"
    rooms = Counter(p.parent.name if p.parent != adapter else "(top)"
                    for p in py_files(adapter))
    print("the adapter's rooms: " + ", ".join(f"{r} {n}" for r, n in sorted(rooms.items())))
    try:
        from ttr_bot.discord.posting.delivery import Delivery
        from ttr_bot.discord.posting.renderers import RENDERERS
    except ImportError:     # before the adapter had renderers of its own
        print("kinds of owed post with a renderer of their own: 0 (one Delivery renders all)")
    else:
        from types import SimpleNamespace

        from ttr_bot.service.messages import KINDS
        kinds = Delivery(SimpleNamespace(clock=float), renderers=RENDERERS).kinds
        print(f"kinds of owed post with a renderer of their own: "
              f"{len(kinds & set(KINDS.values()))} of {len(KINDS)}, "
              f"in {len(RENDERERS)} renderer modules")
    sizes = sorted(((len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(ROOT))
                    for p in py_files(ROOT / "ttr_bot")), reverse=True)[:6]
    print("largest files: " + ", ".join(f"{p} {n}" for n, p in sizes))


if __name__ == "__main__":
    main()
