"""How a turn card reads on a phone, and which DMs notify: one whole game over the fake Discord,
before and after.

The real bot (TTRBot, unmodified discord.py, a real SQLite file) plays one game of HUMANS
players driven through interactions like people (testkit/e2e_driver.py: a computer
player's judgement, by buttons and commands) and BOTS computer seats on MAP, its deal fixed by
SEED (the service's seed source is replaced by `random.Random(SEED)`, so every version deals
the same cards; the games part where a version's answers differ). Printed, for every turn
card as Discord received it (each POST of a Components V2 message with action rows to the
game's channel):
  - its text lines and characters (all its text displays; a mention counted as "@player0",
    a timestamp as "in 2 days", as a phone shows them), median and max;
  - its lines on a phone 360 points wide: each text line wraps every CPL (40) characters,
    an emoji or a wide (CJK) character counting two. 360 pt less Discord's avatar gutter and
    the card's padding leaves about 270 pt of text, about 40 characters of Discord's 16 px
    font: the measure of "one screen" here (testkit/phone.py, which
    tests/discord/test_e2e_cards.py holds the cards to), with the card's lines, is median and
    max;
  - its button rows (action rows; a row of five wraps on a phone, so this is a floor);
  - the DMs that notify, per player: every DM POST without Discord's SUPPRESS_NOTIFICATIONS
    flag (a new hand message, a turn DM), and how many were a tunnel reveal's.

"before" runs the same game on an older commit (`--before REF`, default c0c5f17: the card
before it was made to fit one screen), unpacked with `git archive` into a temporary directory and run there as a
subprocess with this very file and today's testkit/phone.py (tools/bench/older.py: a commit
from before testkit/ gets its own tests/ fake and driver under testkit's names); "after" is
this checkout.

    python -m tools.bench cards [--map europe] [--humans 4] [--bots 0] [--seed 1]
                                [--before REF ...] [--no-before] [--show N]
"""
import argparse
import asyncio
import json
import logging
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from testkit.phone import CPL, phone_lines, readable

REPO = Path(__file__).resolve().parents[2]
MAX_ACTIONS = 4000
SUPPRESS = 1 << 12      # Discord's SUPPRESS_NOTIFICATIONS message flag
V2 = 1 << 15            # IS_COMPONENTS_V2
BASELINE = "c0c5f17"    # the last commit before the one-screen card (issue 33): "before" by default


def texts(components):
    out = []
    for c in components or []:
        if c.get("type") == 10:
            out.append(c.get("content", ""))
        out += texts(c.get("components"))
        if isinstance(c.get("accessory"), dict):
            out += texts([c["accessory"]])
    return out


async def play(map_id, humans, bots, seed, db_path):
    """One game; plain figures. Uses only what every version of the bot and the fake has."""
    import ttr_bot.service.core as core
    from testkit.e2e_driver import Player, Table, find_cid
    from testkit.fakediscord import FakeDiscord

    deal = random.Random(seed)
    core.random.SystemRandom = lambda: deal         # the same deal in every version
    async with FakeDiscord() as fake:
        table = Table(fake, db_path)
        await table.start_bot(sync=True)
        users = [fake.add_user(f"player{i}", guild=table.guild) for i in range(humans)]
        players = {u.id: Player(table, u, seed=seed + i) for i, u in enumerate(users)}
        await table.slash(users[0], "new", map=map_id, thread=False)
        lobby = next(m for m in reversed(list(fake.state.messages.values()))
                     if find_cid(m, "ttr:lobby:"))
        game_id = int(find_cid(lobby, "ttr:lobby:").split(":")[2])
        for u in users[1:]:
            await table.click(u, lobby, f"ttr:lobby:{game_id}:join")
        for _ in range(bots):
            await table.select(users[0], lobby, find_cid(lobby, "ttr:addbot:"), ["easy"])
        await table.slash(users[0], "start")
        await table.settle()
        for _ in range(MAX_ACTIONS):
            loaded = await table.wait_for_humans()
            if loaded is None or loaded.game.over:
                break
            user = next(loaded.seats[s].user_id for s in loaded.game.to_move()
                        if loaded.seats[s].user_id)
            await players[user].move()
        await table.settle()
        over = bool((await table.game()).game.over)
        channel = f"/api/v10/channels/{table.channel.id}/messages"
        dms = {fake.state.dm_channel_for(u.id).id: u.username for u in users
               if fake.state.dm_channel_for(u.id) is not None}
        cards, notified = [], {u.username: 0 for u in users}
        for r in fake.requests:
            body = r.json if isinstance(r.json, dict) else {}
            if r.method == "POST" and r.path == channel and int(body.get("flags") or 0) & V2 \
                    and any(c.get("type") == 1 for c in body.get("components") or []):
                lines = [readable(x) for t in texts(body["components"]) for x in t.split("\n")]
                cards.append({"lines": len(lines), "chars": sum(len(x) for x in lines),
                              "phone": phone_lines(lines), "text": lines,
                              "rows": sum(1 for c in body["components"] if c.get("type") == 1)})
            m = re.fullmatch(r"/api/v10/channels/(\d+)/messages", r.path)
            if r.method == "POST" and m and int(m.group(1)) in dms and \
                    not int(body.get("flags") or 0) & SUPPRESS:
                notified[dms[int(m.group(1))]] += 1
        violations = [str(v) for v in fake.violations]
        await fake.stop_bot(table.bot)
    return {"over": over, "cards": cards, "notified": notified, "violations": violations}


def run_here(args):
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(play(args.map, args.humans, args.bots, args.seed,
                                os.path.join(tmp, "cards.sqlite")))


def run_before(args, ref):
    from tools.bench.older import unpack  # here, not in the copy run on `ref`
    with tempfile.TemporaryDirectory() as tmp:
        why = unpack(ref, tmp, carry=["phone.py"])
        if why:
            print(f"bench cards: {why}", file=sys.stderr)
            return None
        script = Path(tmp) / "_bench_cards.py"
        script.write_text(Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
        out = subprocess.run(
            [sys.executable, str(script), "--json", "--map", args.map, "--humans",
             str(args.humans), "--bots", str(args.bots), "--seed", str(args.seed)],
            cwd=tmp, env={**os.environ, "PYTHONPATH": tmp}, capture_output=True, text=True)
        if out.returncode:
            print(f"bench cards: the run on {ref} failed:\n{out.stderr[-2000:]}",
                  file=sys.stderr)
            return None
        return json.loads(out.stdout.strip().splitlines()[-1])


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else float("nan")


def report(name, r):
    cards = r["cards"]
    out = [f"{name}: {len(cards)} turn cards, game over: {r['over']}"]
    for key, what in (("lines", "text lines"), ("chars", "characters"),
                      ("phone", f"lines at 360 pt ({CPL} characters a line)"),
                      ("rows", "button rows")):
        values = [c[key] for c in cards]
        out.append(f"  {what}: median {median(values)}, max {max(values, default=0)}")
    out.append("  DMs that notify: " + ", ".join(f"{k} {v}" for k, v in r["notified"].items())
               + f" (total {sum(r['notified'].values())})")
    out.append(f"  requests Discord would refuse: {len(r['violations'])}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench cards")
    ap.add_argument("--map", default="europe")
    ap.add_argument("--humans", type=int, default=4)
    ap.add_argument("--bots", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", action="append", help="a git commit to compare with")
    ap.add_argument("--no-before", action="store_true")
    ap.add_argument("--show", type=int, default=0, metavar="N",
                    help="print the N longest cards (lines at 360 pt) of this checkout")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.json:
        print(json.dumps(run_here(args)))
        return 0
    befores = [] if args.no_before else (args.before or [BASELINE])
    print(f"one game of {args.map}: {args.humans} humans, {args.bots} computer players, "
          f"seed {args.seed}")
    results = [(f"before ({ref})", run_before(args, ref)) for ref in befores]
    results.append(("after (this checkout)", run_here(args)))
    for name, r in results:
        if r is not None:
            print("\n".join(report(name, r)))
    longest = sorted(results[-1][1]["cards"], key=lambda c: -c["phone"])[:args.show]
    for card in longest:
        print(f"\n--- {card['phone']} lines at 360 pt ---\n" + "\n".join(card["text"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
