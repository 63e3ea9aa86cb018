"""Walks of the bot's source that the architecture test and the house's figures
(tools/house_figures.py) both make."""
import ast


def core_parameters(tree):
    """[(line, annotation or None)] of every `core` parameter of an `__init__` in a module's
    tree: how each service part is built with the core, and what it types it as."""
    return [(fn.lineno, ast.unparse(arg.annotation) if arg.annotation is not None else None)
            for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef) and fn.name == "__init__"
            for arg in fn.args.args if arg.arg == "core"]
