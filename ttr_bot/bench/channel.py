"""What a game puts into its channel: one whole game over the fake Discord, before and after.

The real bot (TTRBot, unmodified discord.py, a real SQLite file) plays one game against the fake
Discord of the tests (tests/fakediscord): HUMANS players driven through interactions like
people (tests/discord/e2e_driver: a computer player's judgement, by buttons and commands) and
BOTS computer seats (easy), on MAP. Printed, for the game:
  - posts with a picture in the game's channel or thread beside the board changes (claims,
    stations, the final round, the end), the pictures in them (a card may carry the close-up
    and the map) and their bytes;
  - REST requests per human turn (from a human's move until the next human is to move: the
    computers' turns after it are counted in), at the median and p90, all of them and those
    the bot sends to the game's channel itself (posts, edits; not the interaction answers);
  - the time from a move's commit to its post being sent (the outbox row's created_at to its
    sent_at, for the rows that made a post), p50 and p99.

"before" is the same game played by an older version of the bot (`--before REF`, a git commit:
by default the last commit before turn cards), unpacked with `git archive` into a temporary
directory and run there as a subprocess with this very file; "after" is this checkout. Both play
the same seeds, but the games differ once a version's answers differ (the figures are per game).

    python -m ttr_bot.bench channel [--map europe] [--humans 2] [--bots 2] [--seed 1]
                                    [--before 4307033] [--no-before]

Targets (issue 20): posts with a picture <= board changes + 3, picture bytes <= 10 MiB, channel requests per
human turn at the median <= 3. Exit status 1 if one is missed or the fake saw a request
Discord would refuse.
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


async def play(map_id, humans, bots, seed, db_path):
    """One game; a dict of plain figures. Only uses what every version of the bot and the
    fake has (Table, Player, the store's outbox table), so that an older checkout runs it."""
    from tests.discord.e2e_driver import Player, Table, find_cid
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fake:
        # the wall clock: commit-to-post times are real (newer tables default to a ManualClock)
        real = "real_time" in inspect.signature(Table).parameters
        table = Table(fake, db_path, **({"real_time": True} if real else {}))
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
        per_turn, channel_per_turn = [], []
        prefix = f"/api/v10/channels/{table.channel.id}/"
        loaded = None
        for _ in range(MAX_ACTIONS):
            loaded = await table.wait_for_humans()
            if loaded is None or loaded.game.over:
                break
            game = loaded.game
            user = next(loaded.seats[s].user_id for s in game.to_move()
                        if loaded.seats[s].user_id)
            in_play = game.phase == "play"
            before = len(fake.requests)
            await players[user].move()
            after = await table.wait_for_humans()
            if in_play and after is not None and (after.game.over or
                                                  after.game.current != game.current):
                reqs = fake.requests[before:]
                per_turn.append(len(reqs))
                channel_per_turn.append(sum(1 for r in reqs if r.path.startswith(prefix)))
        await table.settle()
        start, actions, final = await table.bot.service.replayed(game_id)
        changes, g = 0, start.copy()
        for a in actions:
            changes += any(e["type"] in BOARD_EVENTS for e in g.apply(a))
        public = [m for m in fake.messages_in(table.channel) if not m.ephemeral]
        pictures = [a for m in public for a in m.attachments if a.filename.endswith(".png")]
        posts = sum(1 for m in public if any(a.filename.endswith(".png") for a in m.attachments))
        violations = [str(v) for v in fake.violations]
        await fake.stop_bot(table.bot)
    with sqlite3.connect(db_path) as db:
        lat = [s - c for c, s in db.execute(
            "SELECT created_at, sent_at FROM outbox WHERE kind = 'turn' AND held = 0 "
            "AND sent_at IS NOT NULL AND game_id = ?", (game_id,))]
    return {"over": bool(final.over), "turns": final.turn, "actions": len(actions),
            "board_changes": changes, "pictures": len(pictures), "picture_posts": posts,
            "picture_bytes": sum(a.size for a in pictures),
            "requests_per_turn": per_turn, "channel_requests_per_turn": channel_per_turn,
            "latency": lat, "violations": violations}


def run_here(args):
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(play(args.map, args.humans, args.bots, args.seed,
                                os.path.join(tmp, "bench.sqlite")))


def run_before(args):
    """The same game on commit `args.before`, in a subprocess: its figures, or None."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.before],
                                 capture_output=True, check=False)
        if archive.returncode:
            print(f"bench channel: no commit {args.before}: {archive.stderr.decode()[:200]}",
                  file=sys.stderr)
            return None
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        script = Path(tmp) / "_bench_channel.py"
        script.write_text(Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
        out = subprocess.run(
            [sys.executable, str(script), "--json", "--map", args.map, "--humans",
             str(args.humans), "--bots", str(args.bots), "--seed", str(args.seed)],
            cwd=tmp, env={**os.environ, "PYTHONPATH": tmp}, capture_output=True, text=True)
        if out.returncode:
            print(f"bench channel: the run on {args.before} failed:\n{out.stderr[-2000:]}",
                  file=sys.stderr)
            return None
        return json.loads(out.stdout.strip().splitlines()[-1])


def report(name, r):
    lat = r["latency"]
    per, chan = r["requests_per_turn"], r["channel_requests_per_turn"]
    return [
        f"{name}: {r['turns']} turns ({r['actions']} actions), game over: {r['over']}",
        f"  posts with a picture: {r['picture_posts']} for {r['board_changes']} board changes; "
        f"{r['pictures']} pictures in them, {r['picture_bytes'] / MIB:.1f} MiB",
        f"  REST requests per human turn ({len(per)} turns): median {pct(per, 50)}, "
        f"p90 {pct(per, 90)}; to the game's channel: median {pct(chan, 50)}, p90 {pct(chan, 90)}",
        f"  commit -> post sent ({len(lat)} posts): p50 {pct(lat, 50) * 1000:.0f} ms, "
        f"p99 {pct(lat, 99) * 1000:.0f} ms",
        f"  requests Discord would refuse: {len(r['violations'])}",
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ttr_bot.bench channel")
    ap.add_argument("--map", default="europe")
    ap.add_argument("--humans", type=int, default=2)
    ap.add_argument("--bots", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", default=BEFORE, help="the git commit to compare with")
    ap.add_argument("--no-before", action="store_true", help="only this checkout")
    ap.add_argument("--json", action="store_true", help="print this checkout's figures as JSON")
    args = ap.parse_args(argv)
    if args.json:
        print(json.dumps(run_here(args)))
        return 0
    print(f"one {args.humans + args.bots}-player game of {args.map}: {args.humans} humans, "
          f"{args.bots} computer players (easy), seed {args.seed}")
    began = time.monotonic()
    before = None if args.no_before else run_before(args)
    after = run_here(args)
    if before is not None:
        print("\n".join(report(f"before ({args.before})", before)))
    print("\n".join(report("after (this checkout)", after)))
    for v in after["violations"][:5]:
        print("  refused:", v)
    print(f"wall time {time.monotonic() - began:.0f} s")
    ok = (after["picture_posts"] <= after["board_changes"] + 3
          and after["picture_bytes"] <= 10 * MIB
          and pct(after["channel_requests_per_turn"], 50) <= 3
          and not after["violations"])
    print("targets (posts with a picture <= changes + 3, <= 10 MiB, channel requests median <= 3): "
          + ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    sys.exit(main())
