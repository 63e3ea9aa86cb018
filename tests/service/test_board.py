"""The live board through the service (service/board.py) on a ManualClock: an edit owed when
the board is set, none while nothing changes, one per interval while the games move, a tick
fired twice starting no second chain, a chain of an older setting stopping, and a registered
section (as cups will add theirs) shown in its place."""
import pytest

from tests.service.svckit import open_store, owed, run_timers, started, timed_service
from ttr_bot.service.board import BOARD_IDLE, BOARD_INTERVAL, BoardTick
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.messages import parse
from ttr_bot.store import NewTimer, Owed

pytestmark = pytest.mark.asyncio
GUILD = 1


async def edits(store):
    return [parse(r.kind, r.payload) for r in await owed(store, "board")]


async def sent(store):
    await store.mark_outbox_sent([r.id for r in await owed(store, "board")], now=0.0)


async def test_edits_follow_changes_at_most_once_an_interval(db_path):
    clock = ManualClock(1_800_000_000.0)
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        await svc.board.set_board(GUILD, 77, user_id=5)
        await run_timers(svc)
        (first,) = await edits(store)
        assert [s.name for s in first.sections] == ["games", "lobbies", "cups", "season"]
        assert all(not s.items for s in first.sections)
        await sent(store)
        clock.advance(BOARD_IDLE)                     # nothing open: looked at, nothing owed
        await run_timers(svc)
        assert await edits(store) == []

        game_id, users = await started(svc, 100)
        clock.advance(BOARD_IDLE)
        await run_timers(svc)
        (shown,) = await edits(store)
        games = next(s for s in shown.sections if s.name == "games").items
        assert [g["game"] for g in games] == [game_id] and games[0]["map"] == "usa"
        # an unsent edit is not followed by another: the next waits for it
        hosted = await svc.load(game_id)
        seat = hosted.game.to_move()[0]
        action = hosted.game.legal_actions(seat)[0]
        await svc.moves.act(game_id, hosted.seats[seat].user_id, action, hosted.seq)
        clock.advance(BOARD_INTERVAL)
        await run_timers(svc)
        assert len(await edits(store)) == 1
        await sent(store)
        clock.advance(BOARD_INTERVAL)
        await run_timers(svc)
        assert len(await edits(store)) == 1           # now the change goes out

        # a tick fired twice (a crash before its row was deleted) starts no second chain
        board = await svc.board.board(GUILD)
        tick = BoardTick(GUILD, board.set_at).to_payload()
        await store.write_owed(Owed(timers=(NewTimer(BoardTick.KIND, clock(), tick),)), None,
                               clock())
        svc.core.scheduler.notify(clock())
        await run_timers(svc)
        pending = [t for t in await store.due_timers(clock() + 10 ** 6)
                   if t.kind == BoardTick.KIND]
        assert len(pending) == 1
    finally:
        await svc.close()


async def test_a_registered_section_and_an_old_chain(db_path):
    clock = ManualClock(1_800_000_000.0)
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        async def cups(guild_id):
            return ({"line": f"cup of {guild_id}"},)
        svc.board.register("cups", cups)
        await svc.board.set_board(GUILD, 77, user_id=5)
        clock.advance(1)
        await svc.board.set_board(GUILD, 78, user_id=5)      # moved: the first chain stops
        await run_timers(svc)
        (post,) = await edits(store)
        assert [s.name for s in post.sections] == ["games", "lobbies", "cups", "season"]
        assert post.sections[2].items == ({"line": f"cup of {GUILD}"},)
        rows = await owed(store, "board")
        assert rows[0].lane == "c78"
        assert len([t for t in await store.due_timers(clock() + 10 ** 6)
                    if t.kind == BoardTick.KIND]) == 1
        await svc.board.stop(GUILD)
        assert await svc.board.board(GUILD) is None
    finally:
        await svc.close()
