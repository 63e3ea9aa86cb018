"""What a game puts into its channel: one whole game over the fake Discord, before and after.

The real bot (TTRBot, unmodified discord.py, a real SQLite file, WORKERS worker processes as in
production) plays one game against the fake Discord of the tests (testkit/fakediscord): HUMANS
players driven through interactions like people (testkit/e2e_driver.py: a computer player's
judgement, by buttons and commands) and BOTS computer seats (easy), on MAP. Printed, for the game:
  - posts with a picture in the game's channel or thread beside the board changes (claims,
    stations, the final round, the end), the pictures in them (a card may carry the close-up
    and the map; the final post a picture and the film) and their bytes, the film's included;
  - REST requests per human turn, counted from the turn's first action to the card of the next
    turn (a two-click turn counts both clicks; the computers' turns after it are counted in),
    median and p90 of three figures: all of them; those the bot initiates (all but the
    interaction answers, which Discord exempts from the global rate limit: "Interaction
    endpoints are not bound to the bot's Global Rate Limit", docs topics/rate-limits); those
    to the game's channel itself (posts, edits). And what they were, per turn on average;
  - the time from a move's commit to its post being sent (the outbox row's created_at to its
    sent_at, for the rows that made a post), p50, p99 and max, the slowest three, the final post's.

"before" is the same game played by an older version of the bot (`--before REF`, a git commit,
repeatable: by default the last commit before turn cards), unpacked with `git archive` into a
temporary directory and run there as a subprocess with this very file (tools/bench/older.py:
a commit from before testkit/ gets its own tests/ fake and driver under testkit's names);
"after" is this checkout. All play the same seeds, but the games differ once a version's answers differ (the
figures are per game), and the timings with the machine's load.

    python -m tools.bench channel [--map europe] [--humans 2] [--bots 2] [--seed 1]
                                    [--workers 2] [--before 4307033 ...] [--no-before]

Targets (issue 20): posts with a picture <= board changes + 3, pictures and film <= 10 MiB,
requests the bot initiates per human turn at the median <= 3. Exit status 1 if one is missed or
the fake saw a request Discord would refuse.
"""
import argparse
import asyncio
import inspect
import json
import logging
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BEFORE = "4307033"          # main before turn cards (issue 20)
MAX_ACTIONS = 4000
MIB = 1024 * 1024
BOARD_EVENTS = ("claim_route", "build_station", "final_round", "game_over")


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


async def play(map_id, humans, bots, seed, db_path, workers=0):
    """One game; a dict of plain figures. Only uses what every version of the bot and the
    fake has (Table, Player, the store's outbox table), so that an older checkout runs it."""
    from testkit.e2e_driver import Player, Table, find_cid
    from testkit.fakediscord import FakeDiscord

    async with FakeDiscord() as fake:
        # the wall clock: commit-to-post times are real (newer tables default to a ManualClock)
        real = "real_time" in inspect.signature(Table).parameters
        table = Table(fake, db_path, workers=workers, **({"real_time": True} if real else {}))
        await table.start_bot(sync=True)
        users = [fake.add_user(f"player{i}", guild=table.guild) for i in range(humans)]
        players = {u.id: Player(table, u, seed=seed + i) for i, u in enumerate(users)}
        await table.slash(users[0], "new", map=map_id)
        lobby = next(m for m in reversed(list(fake.state.messages.values()))
                     if find_cid(m, "ttr:lobby:"))
        table.channel = fake.state.channels[lobby.channel_id]   # its thread, if it opened one
        game_id = int(find_cid(lobby, "ttr:lobby:").split(":")[2])
        for u in users[1:]:
            await table.click(u, lobby, f"ttr:lobby:{game_id}:join")
        for _ in range(bots):
            await table.select(users[0], lobby, find_cid(lobby, "ttr:addbot:"), ["easy"])
        await table.slash(users[0], "start")
        await table.settle()
        turns = []              # per human turn: [(method, path)] of every request in it
        prefix = f"/api/v10/channels/{table.channel.id}/"
        loaded, began, turn = None, None, None
        for _ in range(MAX_ACTIONS):
            loaded = await table.wait_for_humans()
            if loaded is None or loaded.game.over:
                break
            game = loaded.game
            user = next(loaded.seats[s].user_id for s in game.to_move()
                        if loaded.seats[s].user_id)
            in_play = game.phase == "play"
            if in_play and turn != (game.turn, game.current):   # a turn's first action
                turn, began = (game.turn, game.current), len(fake.requests)
            await players[user].move()
            after = await table.wait_for_humans()
            if in_play and after is not None and (after.game.over or
                                                  after.game.turn != game.turn):
                # from the turn's first action to the card of the next turn (the computers'
                # turns in between included): every request Discord saw meanwhile
                turns.append([(r.method, r.path) for r in fake.requests[began:]])
                turn = None
        await table.settle()
        start, actions, final = await table.bot.service.core.replayed(game_id)
        changes, g = 0, start.copy()
        for a in actions:
            changes += any(e["type"] in BOARD_EVENTS for e in g.apply(a))
        public = [m for m in fake.messages_in(table.channel) if not m.ephemeral]
        pictures = [a for m in public for a in m.attachments
                    if a.filename.endswith((".png", ".gif"))]
        posts = sum(1 for m in public if any(a.filename.endswith(".png") for a in m.attachments))
        violations = [str(v) for v in fake.violations]
        await fake.stop_bot(table.bot)
    with sqlite3.connect(db_path) as db:
        rows = [(s - c, json.loads(p).get("over", False)) for c, s, p in db.execute(
            "SELECT created_at, sent_at, payload FROM outbox WHERE kind = 'turn' AND held = 0 "
            "AND sent_at IS NOT NULL AND game_id = ?", (game_id,))]
    lat = [x for x, _ in rows]
    end = [x for x, over in rows if over]
    return {"over": bool(final.over), "turns": final.turn, "actions": len(actions),
            "board_changes": changes, "picture_posts": posts,
            "pictures": sum(1 for a in pictures if a.filename.endswith(".png")),
            "films": sum(1 for a in pictures if a.filename.endswith(".gif")),
            "picture_bytes": sum(a.size for a in pictures),
            "turn_requests": turns, "channel_prefix": prefix,
            "latency": lat, "end_latency": end, "violations": violations}


def run_here(args):
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(play(args.map, args.humans, args.bots, args.seed,
                                os.path.join(tmp, "bench.sqlite"), args.workers))


def run_before(args, ref):
    """The same game on commit `ref`, in a subprocess: its figures, or None."""
    from tools.bench.older import unpack  # here, not in the copy run on `ref`
    with tempfile.TemporaryDirectory() as tmp:
        why = unpack(ref, tmp)
        if why:
            print(f"bench channel: {why}", file=sys.stderr)
            return None
        script = Path(tmp) / "_bench_channel.py"
        script.write_text(Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
        out = subprocess.run(
            [sys.executable, str(script), "--json", "--map", args.map, "--humans",
             str(args.humans), "--bots", str(args.bots), "--seed", str(args.seed),
             "--workers", str(args.workers)],
            cwd=tmp, env={**os.environ, "PYTHONPATH": tmp}, capture_output=True, text=True)
        if out.returncode:
            print(f"bench channel: the run on {ref} failed:\n{out.stderr[-2000:]}",
                  file=sys.stderr)
            return None
        return json.loads(out.stdout.strip().splitlines()[-1])


INTERACTION = ("/api/v10/interactions/", "/api/v10/webhooks/")


def request_kind(method, path, channel):
    """What a request was, for the per-turn breakdown."""
    if path.startswith(INTERACTION):
        return "interaction answers"
    if path.startswith(channel):
        return {"POST": "channel posts", "PATCH": "channel edits"}.get(method, f"channel {method}")
    if path.startswith("/api/v10/channels/"):
        return {"POST": "DM posts", "PATCH": "DM edits", "DELETE": "DM deletes"}.get(
            method, f"DM {method}")
    return f"other {method}"


def turn_figures(r):
    """Per human turn: (all requests, those the bot initiates, the game channel's own), and
    the mean per turn of each kind of request."""
    turns, channel = r["turn_requests"], r["channel_prefix"]
    every = [len(reqs) for reqs in turns]
    bot = [sum(1 for _, path in reqs if not path.startswith(INTERACTION)) for reqs in turns]
    own = [sum(1 for _, path in reqs if path.startswith(channel)) for reqs in turns]
    kinds = {}
    for reqs in turns:
        for method, path in reqs:
            k = request_kind(method, path, channel)
            kinds[k] = kinds.get(k, 0) + 1
    mean = {k: v / max(1, len(turns)) for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])}
    return every, bot, own, mean


def report(name, r):
    lat = r["latency"]
    every, bot, own, mean = turn_figures(r)
    return [
        f"{name}: {r['turns']} turns ({r['actions']} actions), game over: {r['over']}",
        f"  posts with a picture: {r['picture_posts']} for {r['board_changes']} board changes; "
        f"{r['pictures']} pictures in them ({r.get('films', 0)} film), "
        f"{r['picture_bytes'] / MIB:.1f} MiB",
        f"  REST requests per human turn, from its first action to the next turn's card "
        f"({len(every)} turns), median / p90:",
        f"    all {pct(every, 50)} / {pct(every, 90)};  the bot's own (no interaction answers) "
        f"{pct(bot, 50)} / {pct(bot, 90)};  to the game's channel {pct(own, 50)} / "
        f"{pct(own, 90)}",
        "    per turn: " + ", ".join(f"{k} {v:.2f}" for k, v in mean.items()),
        f"  commit -> post sent ({len(lat)} posts): p50 {pct(lat, 50) * 1000:.0f} ms, "
        f"p99 {pct(lat, 99) * 1000:.0f} ms, max {max(lat, default=float('nan')) * 1000:.0f} ms; "
        "slowest: " + ", ".join(f"{x * 1000:.0f}" for x in sorted(lat)[-3:][::-1]) + " ms; "
        "the final post " + ", ".join(f"{x * 1000:.0f} ms" for x in r.get("end_latency", [])),
        f"  requests Discord would refuse: {len(r['violations'])}",
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench channel")
    ap.add_argument("--map", default="europe")
    ap.add_argument("--humans", type=int, default=2)
    ap.add_argument("--bots", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2,
                    help="the bot's worker processes (TTR_WORKERS; 2: one per core here)")
    ap.add_argument("--before", action="append",
                    help=f"a git commit to compare with (repeatable; default {BEFORE})")
    ap.add_argument("--no-before", action="store_true", help="only this checkout")
    ap.add_argument("--json", action="store_true", help="print this checkout's figures as JSON")
    args = ap.parse_args(argv)
    if args.json:
        print(json.dumps(run_here(args)))
        return 0
    print(f"one {args.humans + args.bots}-player game of {args.map}: {args.humans} humans, "
          f"{args.bots} computer players (easy), seed {args.seed}, {args.workers} workers")
    began = time.monotonic()
    befores = [] if args.no_before else (args.before or [BEFORE])
    results = [(f"before ({ref})", run_before(args, ref)) for ref in befores]
    after = run_here(args)
    for name, r in results + [("after (this checkout)", after)]:
        if r is not None:
            print("\n".join(report(name, r)))
    for v in after["violations"][:5]:
        print("  refused:", v)
    print(f"wall time {time.monotonic() - began:.0f} s")
    _, bot, _, _ = turn_figures(after)
    ok = (after["picture_posts"] <= after["board_changes"] + 3
          and after["picture_bytes"] <= 10 * MIB
          and pct(bot, 50) <= 3
          and not after["violations"])
    print("targets (posts with a picture <= changes + 3, pictures and film <= 10 MiB, the bot's "
          "own requests per human turn median <= 3): " + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    sys.exit(main())
