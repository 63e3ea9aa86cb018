"""python -m ttr_bot.replay FILE [--png OUT.png]: replay a ttr-record/1 game (docs/record-format.md).

Prints one JSON document with the result. An illegal action is a result (exit 0, reported in
"error"); a document that is not a valid record exits 2 with a message on standard error.
"""
import argparse
import json
import sys

from .game_record import RecordError, replay, result
from .i18n import reason


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ttr_bot.replay", description=__doc__.splitlines()[0])
    ap.add_argument("file", help="the record (JSON); - for standard input")
    ap.add_argument("--png", metavar="OUT.png", help="also write the board as it stands at the end")
    args = ap.parse_args(argv)
    try:
        raw = sys.stdin.buffer.read() if args.file == "-" else open(args.file, "rb").read()
    except OSError as e:
        print(f"replay: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        print("replay: the record is not UTF-8 text", file=sys.stderr)
        return 2
    except (ValueError, RecursionError) as e:
        print(f"replay: not valid JSON: {e}", file=sys.stderr)
        return 2
    try:
        game, names, error = replay(doc)
    except RecordError as e:
        print(f"replay: not a valid ttr-record/1: {e}", file=sys.stderr)
        return 2
    message = reason(error[1]) if error else None
    out = json.dumps(result(game, names, error, message), ensure_ascii=False, indent=2) + "\n"
    sys.stdout.buffer.write(out.encode("utf-8"))   # UTF-8 whatever the locale: names may be Thai
    sys.stdout.flush()
    if args.png:
        from .render import render_board
        with open(args.png, "wb") as f:
            f.write(render_board(game, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
