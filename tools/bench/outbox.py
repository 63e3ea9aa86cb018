"""Outbox figures on the fake Discord: how long an owed message waits between the commit of the
change that owes it and Discord receiving it.

The real bot (TTRBot, its outbox worker, a real SQLite file, board pictures drawn) runs against
the fake Discord of the tests. GAMES two-player games are started through the service, then
moves are made at RATE per second (random legal moves of the players to move, through the
service, as the interactions would), for SECONDS. Latency: the fake's receipt of the message
(its creation time) minus the outbox row's creation time (the commit), for every channel post
and every DM (new or edited hand messages are counted when the edit arrives).

With --blocked N, N more games are started in channels where the bot then loses Send Messages,
each owing --stuck posts (165): the healthy games' figures show whether those stop them (issue
23: with 4 blocked channels and 660 stuck rows, the healthy games got nothing before).

    python -m tools.bench outbox [--games 20] [--rate 5] [--seconds 30] [--blocked 4]
"""
import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from .discord import import_fake, percentile


async def run(args, fakediscord):
    from ttr_bot.discord.bot import TTRBot
    from ttr_bot.discord.config import Config
    from ttr_bot.engine.actions import type_name
    from ttr_bot.service.owed import notice_row
    rng = random.Random(args.seed)
    received = {}                   # nonce -> wall time the fake stored the post
    with tempfile.TemporaryDirectory(prefix="ttr-bench-outbox-") as tmp:
        async with fakediscord.FakeDiscord() as fake:
            guild = fake.add_guild("Bench")
            channels = [fake.add_text_channel(guild, f"t{i}") for i in range(args.games)]
            users = [(fake.add_user(f"a{i}", guild=guild), fake.add_user(f"b{i}", guild=guild))
                     for i in range(args.games)]
            bot = TTRBot(Config(token=fake.token, db_path=str(Path(tmp) / "b.sqlite3")),
                         bot_delay=0.5)
            await fake.start_bot(bot)
            svc = bot.service
            games, blocked = [], set()
            for ch, (a, b) in zip(channels, users):
                lobby = await svc.lobby.open_lobby(guild_id=guild.id, channel_id=ch.id, user_id=a.id,
                                                   name=a.username, map_id="usa")
                await svc.lobby.join(ch.id, b.id, b.username)
                await svc.lobby.start(ch.id, a.id)
                games.append(lobby.id)
            for i in range(args.blocked):       # channels where the bot lost Send Messages
                ch = fake.add_text_channel(guild, f"blocked{i}")
                a, b = (fake.add_user(f"{n}{i}x", guild=guild) for n in "ab")
                lobby = await svc.lobby.open_lobby(guild_id=guild.id, channel_id=ch.id, user_id=a.id,
                                                   name=a.username, map_id="usa")
                await svc.lobby.join(ch.id, b.id, b.username)
                await svc.lobby.start(ch.id, a.id)
                await bot.outbox.drain(timeout=60)
                await fake.set_bot_can_send(ch, False)
                hosted = await svc.load(lobby.id)
                await svc.queue.owe([notice_row(hosted, "bot.return.done", name=f"n{k}")
                                     for k in range(args.stuck)], lobby.id)
                blocked.add(f"c{ch.id}")
            end = time.perf_counter() + args.seconds
            moves = 0
            while time.perf_counter() < end:
                game_id = rng.choice(games)
                hosted = await svc.load(game_id)
                if hosted.game.over:
                    continue
                seat = rng.choice(hosted.game.to_move())
                kinds = {}
                for action in hosted.game.legal_actions(seat):
                    kinds.setdefault(type_name(action), []).append(action)
                action = rng.choice(kinds[rng.choice(sorted(kinds))])
                await svc.moves.act(game_id, hosted.seats[seat].user_id, action, hosted.seq)
                moves += 1
                await asyncio.sleep(1 / args.rate)
            await bot.outbox.drain(timeout=60)
            for m in fake.state.messages.values():
                if m.nonce:
                    received[m.nonce] = datetime.fromisoformat(m.timestamp).timestamp()
            edits = {}
            for m in fake.state.messages.values():
                if m.edited_timestamp:
                    edits[m.id] = datetime.fromisoformat(m.edited_timestamp).timestamp()
            rows = [r for r in await svc.core.store.pending_outbox(10 ** 6) if r.lane not in blocked]
            db = svc.core.store
            sent = await db._fetchall("SELECT id, kind, lane, created_at, sent_at FROM outbox "
                                      "WHERE sent_at IS NOT NULL")
            await fake.stop_bot(bot)
    latency = {"channel": [], "dm": []}
    for row_id, _kind, lane, created, sent_at in sent:
        at = received.get(f"ttr{row_id}") or received.get(f"ttr{row_id}.0")
        if at is None:          # an edit (a hand message changed in place): when it was marked
            at = sent_at
        if lane not in blocked:
            latency["channel" if lane.startswith("c") else "dm"].append(at - created)
    return moves, latency, len(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench outbox",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rate", type=float, default=5.0, help="moves per second (5)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blocked", type=int, default=0,
                        help="more games in channels the bot may not post in (0)")
    parser.add_argument("--stuck", type=int, default=165, help="posts each of those owes (165)")
    args = parser.parse_args(argv)
    fakediscord = import_fake()
    if fakediscord is None:
        print("bench outbox: the fake Discord is missing (run from the repository)",
              file=sys.stderr)
        return 2
    moves, latency, left = asyncio.run(run(args, fakediscord))
    print(f"outbox on the fake Discord: {args.games} games, {moves} moves at {args.rate:g}/s, "
          f"board pictures drawn; {left} rows of theirs still owed at the end")
    if args.blocked:
        print(f"  and {args.blocked} games in channels the bot may not post in, "
              f"{args.stuck} posts owed each")
    for lane, values in latency.items():
        ms = [v * 1000 for v in values]
        print(f"  {lane:<7} {len(ms):>5} rows: commit -> Discord p50 {percentile(sorted(ms), 50):.0f}"
              f"  p99 {percentile(sorted(ms), 99):.0f}  max {max(ms, default=float('nan')):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
