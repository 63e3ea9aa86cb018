"""python -m tools.arena: computer players against each other, with figures.

    python -m tools.arena --map usa --players hard,medium --games 500 --seed 1 \
        [--variant base] [--records DIR] [--json] [--workers 2] [--set expert.budget=4000]
    python -m tools.arena --maps all --seats 2,max --players expert,medium --games 300 ...

Seats rotate from game to game so that nobody always plays first (the games are
testkit/agent_games.py's, which the computer players' tests play too). For every player of the list
it prints games, wins, the win rate with its 95% (Wilson) interval, the mean score with p10/p90,
the mean margin (its score less the best other score of the game), and the decision time
p50/p95. Agents receive only their own `PlayerView`; every action is checked by the engine, and
`--records DIR` writes each game as a `ttr-record/1` (replayed here once more to make sure it
reproduces the game; `python -m ttr_bot.replay` replays it too).

`--maps` (a list, or `all`: every map the engine plays, offered or not yet) with `--seats` (player counts; `max` is the map's maximum) plays one
table per map and count: the first level of --players against the others, the list's last level
filling the extra seats (expert,medium at 4 seats: expert and three medium). It prints one line
per table for that first player, with the table's wall time; records go to DIR/MAP-Np/.
`--set LEVEL.KNOB=VALUE` tunes a level (e.g. a smaller budget for a quick sample).
"""
import argparse
import json
import math
import os
import sys
import time

from testkit.agent_games import ArenaError, play_game, player_names
from ttr_bot.demo import add_table_args, table_levels
from ttr_bot.game_record import replay
from ttr_bot.maps import engine_maps, load_board


def _margins(res):
    """Each player's score less the best score of the others in one game."""
    scores = {name: p["score"] for name, p in res["players"].items()}
    return {name: sc - max((o for other, o in scores.items() if other != name), default=0)
            for name, sc in scores.items()}


def check_record(doc, expected):
    """Replay a written record and compare the totals with the game's."""
    game, names, error = replay(doc)
    if error is not None:
        raise ArenaError(f"record does not replay: action {error[0]}: {error[1].key}")
    if not game.over:
        raise ArenaError("record replays to an unfinished game")
    players, _ = game.scores()
    got = {names[s]: players[s]["total"] for s in range(len(names))}
    if got != expected:
        raise ArenaError(f"record replays to other scores: {got} != {expected}")


def _worker(job):
    map_id, variant, levels, names, seed, index, records, verify, options = job
    board = load_board(map_id, variant)
    res = play_game(board, levels, names, seed, index, options)
    doc = res.pop("record")
    if verify:
        check_record(doc, {name: p["score"] for name, p in res["players"].items()})
    if records:
        path = os.path.join(records, f"game-{index + 1:04d}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
    return res


def wilson(wins, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(xs, q):
    """Nearest-rank style percentile with linear interpolation; 0 for no data."""
    if not xs:
        return 0.0
    s = sorted(xs)
    pos = (len(s) - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def run(map_id, levels, games, seed, variant="base", records=None, workers=1, verify=None,
        progress=None, agent_options=None):
    """Play the games and return the summary document (the --json output).
    `agent_options` ({level: {knob: value}}) tunes a level, e.g. a smaller search for tests."""
    names = player_names(levels)
    board = load_board(map_id, variant)
    if not board.rules.min_players <= len(levels) <= board.rules.max_players:
        raise ArenaError(f"{board.name} takes {board.rules.min_players}–{board.rules.max_players} "
                         f"players, not {len(levels)}")
    if records:
        os.makedirs(records, exist_ok=True)
    if verify is None:
        verify = bool(records)
    jobs = [(map_id, variant, levels, names, seed, i, records, verify, agent_options)
            for i in range(games)]
    stats = {name: {"scores": [], "wins": 0, "times": [], "fallbacks": 0, "margins": []}
             for name in names}
    turns = []
    started = time.perf_counter()

    def collect(res):
        turns.append(res["turns"])
        margins = _margins(res)
        for name, p in res["players"].items():
            st = stats[name]
            st["scores"].append(p["score"])
            st["margins"].append(margins[name])
            st["wins"] += 1 if p["win"] else 0
            st["times"].extend(p["times"])
            st["fallbacks"] += p["fallbacks"]
        if progress:
            progress(len(turns), games)

    if workers > 1 and games > 1:
        import multiprocessing
        ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        with ctx.Pool(workers) as pool:
            for res in pool.imap(_worker, jobs, chunksize=1):
                collect(res)
    else:
        for job in jobs:
            collect(_worker(job))

    out = {"games": games, "map": map_id, "variant": variant, "seed": seed,
           "players": list(levels), "mean_turns": sum(turns) / len(turns) if turns else 0,
           "wall_s": time.perf_counter() - started, "agents": []}
    for name, lv in zip(names, levels):
        st = stats[name]
        n = len(st["scores"])
        lo, hi = wilson(st["wins"], n)
        out["agents"].append({
            "name": name, "level": lv, "games": n, "wins": st["wins"],
            "win_rate": st["wins"] / n if n else 0.0, "win_rate_ci95": [lo, hi],
            "mean_score": sum(st["scores"]) / n if n else 0.0,
            "mean_margin": sum(st["margins"]) / n if n else 0.0,
            "score_p10": percentile(st["scores"], 0.10),
            "score_p90": percentile(st["scores"], 0.90),
            "decisions": len(st["times"]),
            "decision_ms_p50": 1000 * percentile(st["times"], 0.50),
            "decision_ms_p95": 1000 * percentile(st["times"], 0.95),
            "decision_ms_max": 1000 * max(st["times"]) if st["times"] else 0.0,
            "fallbacks": st["fallbacks"],
        })
    return out


def seat_levels(levels, n):
    """The levels of an n-seat table: the list's, its last level filling any extra seats."""
    return (list(levels) + [levels[-1]] * n)[:n]


def table_counts(board, counts):
    """The player counts to play on a board: each of `counts` (numbers or "max") within the
    board's range, without repeats, in order."""
    lo, hi = board.rules.min_players, board.rules.max_players
    out = []
    for c in counts:
        n = hi if c == "max" else min(hi, max(lo, int(c)))
        if n not in out:
            out.append(n)
    return out


def sweep(maps, counts, levels, games, seed, variant="base", records=None, workers=1,
          progress=None, agent_options=None):
    """One `run` per map and player count (see the module's docstring); the summaries in order
    under "tables"."""
    tables = []
    for map_id in maps:
        for n in table_counts(load_board(map_id, variant), counts):
            rec = os.path.join(records, f"{map_id}-{n}p") if records else None
            tables.append(run(map_id, seat_levels(levels, n), games, seed, variant, rec, workers,
                              progress=progress, agent_options=agent_options))
    return {"games": games, "seed": seed, "variant": variant, "players": list(levels),
            "tables": tables}


def format_sweep(doc):
    subject = doc["players"][0]
    lines = [f"{subject} against {','.join(doc['players'][1:])}: {doc['games']} games per table, "
             f"seed {doc['seed']} ({doc['variant']})",
             f"{'map':<12}{'seats':>5}{'wins':>6}{'win rate':>10}  {'95% CI':<15}{'margin':>8}"
             f"{'dec p50':>10}{'dec p95':>10}{'wall':>9}"]
    for t in doc["tables"]:
        a = t["agents"][0]
        lo, hi = a["win_rate_ci95"]
        lines.append(f"{t['map']:<12}{len(t['players']):>5}{a['wins']:>6}{a['win_rate']:>9.1%}  "
                     f"[{lo:5.1%}, {hi:5.1%}] {a['mean_margin']:>+7.1f}"
                     f"{a['decision_ms_p50']:>8.1f}ms{a['decision_ms_p95']:>8.1f}ms"
                     f"{t['wall_s']:>8.0f}s")
    fb = sum(a["fallbacks"] for t in doc["tables"] for a in t["agents"])
    if fb:
        lines.append(f"warning: {fb} decisions needed the legal-action fallback")
    return "\n".join(lines)


def parse_settings(ap, items):
    """--set LEVEL.KNOB=VALUE items as {level: {knob: value}} (numbers where they parse)."""
    from ttr_bot.ai import AGENTS
    out = {}
    for item in items or ():
        key, sep, raw = item.partition("=")
        level, dot, knob = key.partition(".")
        if not sep or not dot or level not in AGENTS or knob.startswith("_") \
                or not hasattr(AGENTS[level], knob):
            ap.error(f"--set {item}: expected LEVEL.KNOB=VALUE with a knob of that level")
        try:
            value = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = raw
        out.setdefault(level, {})[knob] = value
    return out


def format_table(summary):
    lines = [f"{summary['games']} games on {summary['map']} ({summary['variant']}), "
             f"players {','.join(summary['players'])}, seed {summary['seed']}, "
             f"{summary['mean_turns']:.1f} turns per game"]
    head = (f"{'agent':<12}{'games':>6}{'wins':>6}{'win rate':>10}  {'95% CI':<15}"
            f"{'mean':>7}{'p10':>6}{'p90':>6}{'margin':>8}{'dec p50':>10}{'dec p95':>10}")
    lines.append(head)
    for a in summary["agents"]:
        lo, hi = a["win_rate_ci95"]
        lines.append(f"{a['name']:<12}{a['games']:>6}{a['wins']:>6}{a['win_rate']:>9.1%}  "
                     f"[{lo:5.1%}, {hi:5.1%}] {a['mean_score']:>7.1f}{a['score_p10']:>6.0f}"
                     f"{a['score_p90']:>6.0f}{a['mean_margin']:>+8.1f}"
                     f"{a['decision_ms_p50']:>8.2f}ms{a['decision_ms_p95']:>8.2f}ms")
    fb = sum(a["fallbacks"] for a in summary["agents"])
    if fb:
        lines.append(f"warning: {fb} decisions needed the legal-action fallback")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.arena", description=__doc__.splitlines()[0])
    add_table_args(ap, players="hard,medium", maps=engine_maps())
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--records", metavar="DIR", help="write each game as a ttr-record/1 here")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--workers", type=int, default=1, help="processes to play games in")
    ap.add_argument("--progress", action="store_true", help="games done, on standard error")
    ap.add_argument("--maps", help="comma-separated maps, or all: one table per map and --seats")
    ap.add_argument("--seats", default="2", help="player counts for --maps (numbers, max)")
    ap.add_argument("--set", action="append", metavar="LEVEL.KNOB=VALUE",
                    help="tune a level, e.g. expert.budget=4000 (repeatable)")
    args = ap.parse_args(argv)
    levels = table_levels(ap, args)
    if args.games < 1:
        ap.error("--games must be at least 1")
    options = parse_settings(ap, args.set)
    progress = None
    if args.progress:
        def progress(done, total):
            print(f"\r{done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)
    maps = None
    if args.maps:
        maps = engine_maps() if args.maps == "all" else [m.strip() for m in args.maps.split(",")]
        bad = [m for m in maps if m not in engine_maps()]
        if bad:
            ap.error(f"unknown map(s) {', '.join(bad)}")
        counts = [c.strip() for c in args.seats.split(",") if c.strip()]
        if not counts or not all(c == "max" or c.isdigit() for c in counts):
            ap.error("--seats takes player counts (numbers or max), comma-separated")
    try:
        if maps:
            summary = sweep(maps, counts, levels, args.games, args.seed, args.variant,
                            args.records, max(1, args.workers), progress, options)
        else:
            summary = run(args.map, levels, args.games, args.seed, args.variant, args.records,
                          max(1, args.workers), progress=progress, agent_options=options)
    except ArenaError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(format_sweep(summary) if maps else format_table(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
