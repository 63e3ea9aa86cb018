"""The live board's requests: how many edits of its message a busy server costs in an hour.

    python -m tools.bench board [--games 20] [--minutes 60] [--db DIR]

GAMES two-player USA games in progress in one server with a live board, and a move in every
game every minute (a card drawn, a route claimed: whatever the quick policy picks), for
MINUTES minutes of simulated time on a ManualClock; the service's scheduler fires the board's
timer as it would. Counted: the board edits owed (outbox rows of kind `board`: each is one
PATCH request to Discord, as tests/discord/test_e2e_seasons_board.py checks over the fake
Discord), against the moves made (what an edit per change would cost), and the shortest time
between two edits. On the real store (SQLite, synchronous commits).
"""
import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from ttr_bot.engine.actions import ClaimRoute, DrawCard, KeepTickets
from ttr_bot.service import GameService
from ttr_bot.service.board import BOARD_INTERVAL
from ttr_bot.service.clock import ManualClock
from ttr_bot.store import open_store

GUILD, BOARD_CHANNEL = 1 << 40, 9


def quick_action(game, seat, rng):
    legal = game.legal_actions(seat)
    for kind in (KeepTickets, ClaimRoute, DrawCard):
        mine = [a for a in legal if isinstance(a, kind)]
        if mine:
            return rng.choice(mine)
    return legal[0]


async def run(games, minutes, db_dir):
    clock = ManualClock(1_800_000_000.0)
    store = open_store(str(Path(db_dir) / "board.db"))
    await store.open()
    service = GameService(store, clock=clock, seeds=random.Random(1), bot_delay=2.0)
    await service.resume()
    rng = random.Random(2)
    ids = []
    for g in range(games):
        channel, users = 1000 + g, (10_000 + 2 * g, 10_001 + 2 * g)
        hosted = await service.lobby.open_lobby(guild_id=GUILD, channel_id=channel, user_id=users[0],
                                                name=f"P{users[0]}", map_id="usa", variant="base")
        await service.lobby.join(channel, users[1], f"P{users[1]}")
        await service.lobby.start(channel, users[0])
        ids.append(hosted.id)
    await service.board.set_board(GUILD, BOARD_CHANNEL, 1)
    start, moves, times = clock(), 0, []
    wall = time.perf_counter()
    for _minute in range(minutes):
        for game_id in ids:
            hosted = await service.load(game_id)
            if hosted.game.over:
                continue
            seat = hosted.game.to_move()[0]
            await service.moves.act(game_id, hosted.seats[seat].user_id,
                                    quick_action(hosted.game, seat, rng), hosted.seq)
            moves += 1
        clock.advance(60)
        await settle(service)
        rows = [r for r in await store.pending_outbox(100_000) if r.kind == "board"]
        times += [r.created_at for r in rows]
        await store.mark_outbox_sent([r.id for r in rows], now=clock())    # as the worker would
    wall = time.perf_counter() - wall
    await service.close()
    gaps = [b - a for a, b in zip(times, times[1:])]
    hours = (clock() - start) / 3600
    print(f"{games} games in progress, a move in each every minute, {minutes} simulated minutes "
          f"({wall:.1f} s wall)")
    print(f"  moves made: {moves} ({moves / hours:.0f} per hour: an edit per change would be "
          f"that many requests)")
    print(f"  board edits owed (one PATCH each): {len(times)} ({len(times) / hours:.0f} per hour,"
          f" limit {3600 / BOARD_INTERVAL:.0f})")
    print(f"  shortest time between two edits: {min(gaps):.0f} s" if gaps else "")


async def settle(service):
    calm = 0
    while calm < 3:
        calm = 0 if service.busy else calm + 1
        await asyncio.sleep(0 if calm else 0.001)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench board", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--db", default=None, help="where the database file goes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.db) as tmp:
        asyncio.run(run(args.games, args.minutes, tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
