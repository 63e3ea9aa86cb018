"""A computer player takes over a human's seat in a game in play: a player leaves, the host or
an admin replaces someone, or (the core, for turn timeouts) the service is told to. The seat
then moves by itself through the durable bot_move timer, whatever it was in the middle of;
the former player can no longer act; refusals change nothing; a restart resumes; the record
still replays; results do not credit the leaver with the computer's result."""
import asyncio
import dataclasses
import json
import random
import time

import pytest
import pytest_asyncio

from tests.service.svckit import Clock, open_store, pick_action, raw_counts, started, state_of, walk_keys
from tests.store.dbkit import DRIVERS
from ttr_bot.engine.actions import DrawCard, DrawTickets, KeepTickets
from ttr_bot.game_record import replay
from ttr_bot.service import GameService, ServiceError

pytestmark = pytest.mark.asyncio
PRIVATE_KEYS = {"private", "tickets", "offer", "returned", "hand", "hands", "cards"}


class RandomLegal:
    """A computer player that picks any legal action (the real ones are tested in tests/ai)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, view):
        return self.rng.choice(view.legal_actions())


class Host:
    """A GameService with its scheduler running, as the bot runs it: bot_move timers make the
    computer players move. `run=False` leaves the timers in the table unfired."""

    def __init__(self, store, *, seed=7, run=True, now=1_700_000_000.0):
        self.clock = Clock(now)
        self.store = store
        self.levels = []
        self.svc = GameService(store, clock=self.clock, seeds=random.Random(seed), bot_delay=0.0,
                               agents=self.agent)
        self.run = run

    def agent(self, level, seed):
        self.levels.append(level)
        return RandomLegal(seed)

    async def __aenter__(self):
        if self.run:
            await self.svc.resume()
        return self

    async def __aexit__(self, *exc):
        await self.svc.stop()


@pytest_asyncio.fixture
async def host(store):
    async with Host(store) as h:
        yield h


@pytest_asyncio.fixture
async def idle_host(store):
    """Timers are written but never fire: the state right after a handover can be looked at."""
    async with Host(store, run=False) as h:
        yield h


async def until(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


async def refused(key, coro):
    with pytest.raises(ServiceError) as caught:
        await coro
    assert caught.value.key == key, caught.value.key
    return caught.value


async def keep_all(svc, game_id, users):
    for seat, user in enumerate(users):
        loaded = await svc.load(game_id)
        if loaded.game.offers[seat] is not None:
            await svc.moves.act(game_id, user, KeepTickets(seat, tuple(loaded.game.offers[seat])))


async def seats(store, game_id):
    return [(s.user_id, s.bot_level, s.former_user_id) for s in await store.list_seats(game_id)]


async def bot_timers(store, game_id):
    return [t.payload for t in await store.due_timers(float("inf"))
            if t.game_id == game_id and t.kind == "bot_move"]


def plain(eff):
    return json.loads(json.dumps(dataclasses.asdict(eff), default=sorted))


# ----- the seat moves by itself ----------------------------------------------------------------
async def test_leaving_on_ones_turn_hands_the_seat_to_a_computer_that_moves(host, store, db_path):
    svc = host.svc
    game_id, users = await started(svc, 10, players=3)
    await keep_all(svc, game_id, users)
    loaded = await svc.load(game_id)
    seat = loaded.game.current
    seq = loaded.seq
    leaver = users[seat]

    eff = await svc.handover.leave_game(game_id, leaver)
    h = eff.handover
    assert (h.seat, h.user_id, h.level, h.reason, h.by) == (seat, leaver, "medium", "left", None)
    assert h.name == f"P{leaver}" and eff.seq == seq
    # on disk before the effects came back: the seat is a computer's, the player remembered
    assert (await seats(store, game_id))[seat] == (None, 2, leaver)

    async def moved():
        cur = await svc.load(game_id)
        return cur.seq > seq and cur.game.current != seat and cur
    await until(moved)
    log = await store.load_actions(game_id)
    assert log[seq].actor == seat                  # the computer made the seat's move
    assert "medium" in host.levels
    assert raw_counts(db_path, game_id)[1] == len(log)


@pytest.mark.parametrize("state", ["second_card", "choosing", "setup", "tunnel"])
async def test_a_turn_left_halfway_is_finished_by_the_computer(idle_host, store, state):
    svc = idle_host.svc
    map_id = "europe" if state == "tunnel" else "usa"
    game_id, users = await started(svc, 20, players=2, map_id=map_id)
    if state != "setup":
        await keep_all(svc, game_id, users)
    loaded = await svc.load(game_id)
    if state == "second_card":
        seat = loaded.game.current
        await svc.moves.act(game_id, users[seat], DrawCard(seat, -1))
    elif state == "choosing":
        seat = loaded.game.current
        await svc.moves.act(game_id, users[seat], DrawTickets(seat))
    elif state == "setup":
        seat = 1
        await svc.moves.act(game_id, users[0], KeepTickets(0, tuple(loaded.game.offers[0])))
    else:
        seat = await reach_a_tunnel(svc, game_id, users)
    loaded = await svc.load(game_id)
    expected = {"second_card": "second_card", "choosing": "choosing", "setup": "idle",
                "tunnel": "tunnel"}[state]
    assert loaded.game.to_move() == [seat] and loaded.game.step == expected
    if state in ("choosing", "setup"):
        assert loaded.game.offers[seat] is not None
    seq = loaded.seq

    eff = await svc.handover.leave_game(game_id, users[seat])
    assert eff.to_move == [seat]
    assert await bot_timers(store, game_id) == [{"seq": seq}]

    # the timer fires: the computer finishes what the player left halfway
    for timer in await store.due_timers(float("inf")):
        await idle_host.svc.moves.play_bot(timer.game_id, timer.payload.get("seq"))
    after = (await svc.load(game_id)).game
    assert seat not in after.to_move() and after.phase == "play"
    assert after.offers[seat] is None and after.tunnel is None
    assert (await store.load_actions(game_id))[seq].actor == seat


async def reach_a_tunnel(svc, game_id, users):
    """Random play until a human seat is deciding about a tunnel's extra cards."""
    rng = random.Random(3)
    for _ in range(3000):
        loaded = await svc.load(game_id)
        game = loaded.game
        if game.step == "tunnel":
            return game.current
        assert not game.over, "no tunnel came up"
        action = pick_action(game, rng)
        await svc.moves.act(game_id, users[action.seat], action, loaded.seq)
    raise AssertionError("no tunnel came up")


# ----- the former player -------------------------------------------------------------------------
async def test_the_former_player_can_no_longer_act(idle_host, store, db_path):
    svc = idle_host.svc
    game_id, users = await started(svc, 30, players=3)
    await keep_all(svc, game_id, users)
    leaver = users[(await svc.load(game_id)).game.current]
    seat = users.index(leaver)
    await svc.handover.leave_game(game_id, leaver)
    before = raw_counts(db_path, game_id)
    await refused("service.not_a_player", svc.moves.act(game_id, leaver, DrawCard(seat, -1)))
    await refused("service.not_a_player", svc.moves.player_view(game_id, leaver))
    await refused("service.not_a_player", svc.handover.leave_game(game_id, leaver))
    await refused("service.replace_not_player",
                  svc.handover.replace_player(game_id, users[0] if seat else users[1], leaver, "hard"))
    await refused("service.seat_is_bot", svc.handover.hand_to_bot(game_id, seat, "hard"))
    assert raw_counts(db_path, game_id) == before


async def test_the_announcement_reveals_nothing_private(idle_host):
    svc = idle_host.svc
    game_id, users = await started(svc, 35, players=3)
    await keep_all(svc, game_id, users)
    eff = await svc.handover.replace_player(game_id, users[0], users[2], "hard")
    data = plain(eff)
    assert data["public"] == [] and data["private"] == {}
    assert not PRIVATE_KEYS & set(walk_keys(data["handover"])), data
    assert data["handover"] == {"seat": 2, "name": f"P{users[2]}", "user_id": users[2],
                                "level": "hard", "reason": "replaced", "by": users[0],
                                "host_id": None}
    # the channel's announcement says the same, and nothing more
    [post] = [m.message for m in await svc.queue.owed_messages(10 ** 6) if m.kind == "handover"]
    assert post.to_payload() == data["handover"]


# ----- who may ----------------------------------------------------------------------------------
async def test_refusals_change_nothing(idle_host, store, db_path):
    svc = idle_host.svc
    game_id, users = await started(svc, 40, players=3)
    await keep_all(svc, game_id, users)
    host, guest, other = users
    before = (raw_counts(db_path, game_id), await seats(store, game_id),
              await bot_timers(store, game_id), (await store.get_game(game_id)).host_id)
    await refused("service.replace_denied", svc.handover.replace_player(game_id, guest, other, "easy"))
    await refused("service.replace_denied", svc.handover.replace_player(game_id, 4242, other, "easy"))
    await refused("service.replace_not_player", svc.handover.replace_player(game_id, host, 4242, "easy"))
    await refused("service.unknown_level", svc.handover.replace_player(game_id, host, other, "godlike"))
    await refused("service.unknown_level", svc.handover.hand_to_bot(game_id, 1, "godlike"))
    await refused("service.no_such_seat", svc.handover.hand_to_bot(game_id, 3, "easy"))
    await refused("service.not_a_player", svc.handover.leave_game(game_id, 4242))
    await refused("service.no_game", svc.handover.leave_game(game_id + 99, host))
    assert (raw_counts(db_path, game_id), await seats(store, game_id),
            await bot_timers(store, game_id), (await store.get_game(game_id)).host_id) == before
    # an admin may replace anyone, the host included; the host's powers pass on
    eff = await svc.handover.replace_player(game_id, 999, host, "easy", is_admin=True)
    assert eff.handover.host_id == guest and eff.handover.by == 999
    assert (await store.get_game(game_id)).host_id == guest
    await refused("service.cancel_denied", svc.lobby.cancel(40, host))
    await refused("service.replace_denied", svc.handover.replace_player(game_id, host, other, "easy"))
    eff = await svc.handover.replace_player(game_id, guest, guest, "hard")  # the new host's own seat
    assert eff.handover.host_id == other


async def test_not_in_a_lobby_or_a_cancelled_game(idle_host, store):
    svc = idle_host.svc
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=45, user_id=450, name="a",
                                        map_id="usa")
    await svc.lobby.join(45, 451, "b")
    await refused("service.not_active", svc.handover.replace_player(loaded.id, 450, 451, "easy"))
    await refused("service.not_active", svc.handover.leave_game(loaded.id, 451))
    await svc.lobby.cancel(45, 450)
    await refused("service.not_active", svc.handover.hand_to_bot(loaded.id, 1, "easy"))
    assert [s.user_id for s in await store.list_seats(loaded.id)] == [450, 451]


async def test_a_game_keeps_one_human_and_the_last_one_leaving_cancels_it(idle_host, store):
    """A table of computers only would play on for nobody: the last human seat is never handed
    over; the last human *leaving* cancels the game, as they were told before confirming."""
    svc = idle_host.svc
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=50, user_id=500, name="Ann",
                                        map_id="usa")
    await svc.lobby.join(50, 501, "Bob")
    await svc.lobby.add_bot(50, 500, "easy")
    await svc.lobby.start(50, 500)
    game_id = loaded.id
    await svc.handover.leave_game(game_id, 501, ends=False)
    await refused("service.last_human", svc.handover.hand_to_bot(game_id, 0, "hard"))
    await refused("service.last_human", svc.handover.replace_player(game_id, 999, 500, "hard",
                                                                    is_admin=True))
    # told "a computer takes your seat" but now the last human: nothing happens
    await refused("service.leave_changed", svc.handover.leave_game(game_id, 500, ends=False))
    assert (await store.get_game(game_id)).status == "active"
    eff = await svc.handover.leave_game(game_id, 500, ends=True)
    assert eff.cancelled and eff.handover.level is None and eff.handover.name == "Ann"
    assert (await store.get_game(game_id)).status == "cancelled"
    assert await bot_timers(store, game_id) == []
    assert await svc.game_in_channel(50) is None


# ----- durability ---------------------------------------------------------------------------------
async def test_a_restart_after_the_handover_resumes_and_the_computer_plays(db_path):
    store = await open_store(db_path)
    async with Host(store, run=False) as first:
        game_id, users = await started(first.svc, 60, players=2)
        await keep_all(first.svc, game_id, users)
        loaded = await first.svc.load(game_id)
        seat, seq = loaded.game.current, loaded.seq
        await first.svc.handover.leave_game(game_id, users[seat])
    await store.close()                       # the bot stops before the computer moved

    store = await open_store(db_path)
    try:
        # a new process, a minute later: its timers pick the move up
        async with Host(store, now=1_700_000_060.0) as second:
            async def moved():
                cur = await second.svc.load(game_id)
                return cur.seq > seq and cur
            cur = await until(moved)
            assert cur.seats[seat].level == "medium" and cur.seats[seat].former_user_id == \
                users[seat]
            assert (await store.load_actions(game_id))[seq].actor == seat
            await refused("service.not_a_player",
                          second.svc.moves.act(game_id, users[seat], DrawCard(seat, -1)))
    finally:
        await store.close()


async def test_the_game_finishes_replays_and_credits_the_results_correctly(host, store):
    svc = host.svc
    game_id, users = await started(svc, 70, players=3)
    rng = random.Random(70)
    left = None
    for _ in range(5000):
        loaded = await svc.load(game_id)
        game = loaded.game
        if game.over:
            break
        if left is None and game.phase == "play" and game.turn >= 6:
            left = users[game.current]
            await svc.handover.leave_game(game_id, left)
            continue
        humans = [s for s in game.to_move() if loaded.seats[s].user_id is not None]
        if not humans:                         # the computer's turn: its timer plays it
            await asyncio.sleep(0.002)
            continue
        action = pick_action(game, rng, seat=humans[0])
        try:
            await svc.moves.act(game_id, loaded.seats[humans[0]].user_id, action, loaded.seq)
        except ServiceError as exc:            # the computer moved first: look again
            assert exc.key == "service.stale"
    final = await svc.load(game_id)
    assert final.game.over and left is not None
    seat = users.index(left)

    doc = await svc.moves.export(game_id)
    game, names, error = replay(json.loads(json.dumps(doc)))
    assert error is None and game.scores() == final.game.scores()
    assert (game.hands, game.owner, game.tickets) == (
        final.game.hands, final.game.owner, final.game.tickets)
    assert state_of((await svc.load(game_id)).game) == state_of(await svc.moves.rebuild(game_id))
    assert names[seat] == f"P{left} (bot, medium)"

    results = {r.seat: r for r in await store.load_results(game_id)}
    assert (results[seat].user_id, results[seat].former_user_id) == (None, left)
    assert all(results[s].user_id == u and results[s].former_user_id is None
               for s, u in enumerate(users) if s != seat)
    assert await store.results_for_user(left) == []     # the computer's result is not theirs
    assert [r.game_id for r in await store.results_for_user(left, include_left=True)] == \
        [game_id]


# ----- opening a lobby ---------------------------------------------------------------------------
async def test_a_failed_lobby_opening_leaves_no_seatless_lobby(svc, store, db_path):
    """The game row and the host's seat are one transaction: a failure seating the host does
    not leave a lobby without a host blocking the channel."""
    db_path.failing_trigger("no_seats", "seats", "INSERT", "disk trouble")   # either driver
    with pytest.raises(Exception, match="disk trouble"):
        await svc.lobby.open_lobby(guild_id=1, channel_id=80, user_id=800, name="Ann", map_id="usa")
    assert await store.find_open_game(80) is None
    assert db_path.fetchone("SELECT COUNT(*) FROM games") == (0,)
    db_path.drop_trigger("no_seats", "seats")
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=80, user_id=800, name="Ann",
                                        map_id="usa")
    assert [(s.number, s.user_id, s.name) for s in loaded.seats] == [(0, 800, "Ann")]


@pytest.mark.drivers(*DRIVERS)
async def test_a_lobby_host_who_left_the_server_hands_it_on_with_the_notice_or_not_at_all(
        svc, store, db_path):
    """The host leaves the server while the game is still a lobby: their seat is freed, the next
    human hosts and the channel is told, in one transaction. A failure writing the notice
    leaves the lobby as it was (the old host still seated and hosting), never a new host
    nobody was told of."""
    await svc.lobby.open_lobby(guild_id=1, channel_id=81, user_id=810, name="Ann", map_id="usa")
    loaded = await svc.lobby.join(81, 811, "Bob")
    notices = len(await store.pending_outbox(1000))
    db_path.failing_trigger("no_notice", "outbox", "INSERT", "disk trouble")
    with pytest.raises(Exception, match="disk trouble"):
        await svc.absence.member_left(1, 810)
    kept = await svc.load(loaded.id)
    assert kept.host_id == 810 and [s.user_id for s in kept.seats] == [810, 811]
    assert len(await store.pending_outbox(1000)) == notices
    db_path.drop_trigger("no_notice", "outbox")

    assert await svc.absence.member_left(1, 810) == 1
    moved = await svc.load(loaded.id)
    assert moved.host_id == 811 and [s.user_id for s in moved.seats] == [811]
    (notice,) = (await store.pending_outbox(1000))[notices:]
    assert "<@811>" in json.dumps(notice.payload)
