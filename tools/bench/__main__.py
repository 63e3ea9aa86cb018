"""python -m tools.bench [engine|service|render|discord|channel|film|stats|timers|outbox|workers|
processes|names|finale|board]: print performance figures.

Each part is a module of this package with a main(argv); `engine` is the default.
"""
import importlib
import sys

PARTS = ("engine", "service", "render", "discord", "channel", "film", "stats", "timers",
         "outbox", "workers", "processes", "names", "finale", "board")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)   # `bench PART --help` reaches the part's own options instead
        return 0
    part = argv.pop(0) if argv and argv[0] in PARTS else "engine"
    try:
        module = importlib.import_module(f"tools.bench.{part}")
    except ModuleNotFoundError as e:
        print(f"bench {part}: not available ({e.name} is missing)", file=sys.stderr)
        return 2
    return module.main(argv) or 0


if __name__ == "__main__":
    sys.exit(main())
