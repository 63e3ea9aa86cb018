"""The game as a film: build time and GIF size, for the test corpus's records and a few long
five-player Europe games made by the sample players; the longest game is the figure to watch
(target: under 8 MiB, Discord's upload limit without boosts).

    python -m tools.bench film [--europe N] [--locale LOC] [--out DIR]
"""
import argparse
import json
import time
from pathlib import Path

from testkit.sample_games import film_input, greedy_record
from ttr_bot.engine.errors import Illegal
from ttr_bot.game_record import RecordError
from ttr_bot.render.film import MAX_BYTES, film_plan, render_film

REPO = Path(__file__).resolve().parents[2]
RECORDS = REPO / "tests" / "records"


def corpus(europe_games=3):
    """[(name, (game as dealt, names, actions))]: the test records that replay, and
    `europe_games` greedy 5-player Europe games."""
    out = []
    for path in sorted(RECORDS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        try:
            out.append((path.name, film_input(doc)))
        except (RecordError, Illegal):         # the records made to stop on an illegal action
            continue
    for seed in range(1, europe_games + 1):
        out.append((f"greedy europe 5p seed {seed}", film_input(greedy_record("europe", 5, seed)[0])))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench film",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--europe", type=int, default=3, help="greedy 5-player Europe games (default 3)")
    ap.add_argument("--locale", default="en")
    ap.add_argument("--out", help="write the longest game's GIF into this directory")
    args = ap.parse_args(argv)
    games = corpus(args.europe)
    print(f"{'game':<34} {'actions':>7} {'turns':>5} {'claims':>6} {'mode':>6} {'frames':>6} "
          f"{'build s':>8} {'KiB':>7}")
    longest = None
    for name, (game, names, actions) in games:
        plan = film_plan(game, names, actions)
        t0 = time.perf_counter()
        data = render_film(game, names, actions, args.locale)
        dt = time.perf_counter() - t0
        row = (len(actions), name, plan, dt, data)
        if longest is None or row[0] > longest[0]:
            longest = row
        print(f"{name:<34} {len(actions):>7} {plan.final.turn:>5} {plan.claims:>6} "
              f"{plan.mode:>6} {plan.frames:>6} {dt:>8.2f} {len(data) / 1024:>7.0f}")
    n, name, plan, dt, data = longest
    game, names, actions = dict(games)[name]
    warm = []
    for _ in range(3):           # again, with the map's static layer and masks cached
        t0 = time.perf_counter()
        render_film(game, names, actions, args.locale)
        warm.append(time.perf_counter() - t0)
    ok = len(data) <= MAX_BYTES
    print(f"longest game: {name} ({n} actions, {plan.final.turn} turns, {plan.claims} claims): "
          f"{plan.frames} frames ({plan.mode}), built in {dt:.2f} s (first) / "
          f"{sorted(warm)[1]:.2f} s (median of 3, cached map), {len(data) / 1024:.0f} KiB "
          f"({len(data) / MAX_BYTES:.1%} of the 8 MiB limit){'' if ok else '  (OVER)'}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "film.gif").write_bytes(data)
        print(f"wrote {out / 'film.gif'}")
    return 0 if ok else 1


if __name__ == "__main__":
    import sys
    sys.exit(main())
