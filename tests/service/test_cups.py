"""A whole cup through the service (service/cups.py) on a ManualClock: 12 players (11 computer
entrants and one member who never moves, so that their table stalls to the round's deadline and
is scored as it stood), 4 rounds of 3-seat tables on a small map, the member's withdrawal after
round 2 (an 11-player round: a computer fills a seat), a restart between rounds and one inside a
round; the final standings are checked against a hand computation from the tables' results.
The adapter's part, opening each owed table in a thread, is played here by `open_tables`, as
the adapter does it: through `service.cups.open_table`."""
import time

import pytest

from tests.service.svckit import open_store, owed, run_timers, timed_service
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.cup_pairing import met_pairs
from ttr_bot.service.messages import parse

pytestmark = pytest.mark.asyncio
GUILD, CHANNEL, ADMIN, MEMBER = 1, 500, 77, 88
HOUR = 3600.0


async def open_tables(svc, store, threads):
    """Deliver the owed table openings: a thread each (a new channel id), the game opened."""
    rows = [r for r in await owed(store, "cup_table")]
    for row in rows:
        m = parse(row.kind, row.payload)
        threads.setdefault((m.cup, m.round, m.table), 9000 + len(threads))
        await svc.cups.open_table(m.cup, m.round, m.table, threads[(m.cup, m.round, m.table)])
    await store.mark_outbox_sent([r.id for r in rows], now=svc.core.clock())
    return len(rows)


async def play(svc, store, clock, threads, seconds, step=HOUR, *, until_round=None):
    """Let `seconds` of cup time pass in `step`s, tables opened as they are owed; with
    `until_round`, stop as soon as the cup is in that round (its tables not opened)."""
    for _ in range(int(seconds // step)):
        await open_tables(svc, store, threads)
        await run_timers(svc, timeout=120)
        clock.advance(step)
        await run_timers(svc, timeout=120)
        if until_round is not None:
            cups = await svc.cups.cups_of(GUILD, open_only=False)
            if cups[0].round == until_round:
                return
    await open_tables(svc, store, threads)


def hand_standings(cup):
    """Points, opponents' points and score of each player, from the tables' results alone."""
    pts = {p["id"]: 0 for p in cup.players}
    score, met = dict.fromkeys(pts, 0), {p: [] for p in pts}
    for rnd in cup.rounds:
        for t in rnd["tables"]:
            res = t["result"]
            for row in res:
                if row["id"] is None:
                    continue
                pts[row["id"]] += sum(1 for o in res if o["rank"] > row["rank"])
                score[row["id"]] += row["score"]
                met[row["id"]] += [o["id"] for o in res if o["id"] not in (None, row["id"])]
    return {p: (pts[p], sum(pts[o] for o in met[p]), score[p]) for p in pts}


async def test_a_whole_cup(tmp_path):
    started = time.perf_counter()
    clock = ManualClock()
    store = await open_store(tmp_path / "cup.sqlite")
    svc = timed_service(store, clock, bot_delay=0.0)
    await svc.resume()
    t0 = clock()
    cup = await svc.cups.create(guild_id=GUILD, channel_id=CHANNEL, user_id=ADMIN,
                                name="Winter cup", maps=["nordic"], variant="base", seats=3,
                                rounds=4, deadline=12, signup_hours=24, round_hours=24,
                                level="easy")
    for _ in range(11):
        cup = await svc.cups.add_computer(cup.id, ADMIN)
    cup = await svc.cups.join(cup.id, MEMBER, "Mo")
    assert len(cup.players) == 12 and cup.status == "signup"
    with pytest.raises(ServiceError) as err:
        await svc.cups.join(cup.id, MEMBER, "Mo")
    assert err.value.key == "service.cup_joined"
    threads = {}
    clock.advance(24 * HOUR)
    await play(svc, store, clock, threads, 23 * HOUR)
    cup = await svc.cups.get(cup.id)
    assert cup.status == "running" and cup.round == 1 and not cup.rounds[0]["done"]
    mine = next(t for t in cup.rounds[0]["tables"] if MEMBER in t["players"])
    others = [t for t in cup.rounds[0]["tables"] if t is not mine]
    assert [(await svc.load(t["game"])).is_finished for t in others] == [True] * 3
    assert (await svc.load(mine["game"])).is_active            # stalled: the member sleeps
    await play(svc, store, clock, threads, 2 * HOUR)
    cup = await svc.cups.get(cup.id)
    assert cup.rounds[0]["done"] and cup.round == 2
    stalled = await svc.load(mine["game"])
    assert stalled.status == "cancelled"                        # closed, scored as it stood
    assert sorted(r["id"] for r in cup.rounds[0]["tables"][0]["result"]) != []
    cup = await svc.cups.withdraw(cup.id, MEMBER)                # during round 2
    await play(svc, store, clock, threads, 25 * HOUR, until_round=3)   # round 2 stalls too
    cup = await svc.cups.get(cup.id)
    assert cup.round == 3 and cup.rounds[1]["done"]
    # a restart between rounds: round 3 is paired without the member, its tables not opened
    await svc.stop()
    svc = timed_service(store, clock, bot_delay=0.0)
    await svc.resume()
    cup = await svc.cups.get(cup.id)
    assert cup.round == 3 and [t["game"] for t in cup.rounds[2]["tables"]] == [None] * 4
    assert all(MEMBER not in t["players"] for t in cup.rounds[2]["tables"])
    await open_tables(svc, store, threads)
    # a restart inside the round: the games are going, some timers due
    await svc.stop()
    svc = timed_service(store, clock, bot_delay=0.0)
    await svc.resume()
    await play(svc, store, clock, threads, 2 * HOUR)
    cup = await svc.cups.get(cup.id)
    assert cup.round == 4
    await play(svc, store, clock, threads, 2 * HOUR)
    cup = await svc.cups.get(cup.id)
    assert cup.status == "finished" and all(r["done"] for r in cup.rounds)
    assert [len(t["players"]) + t["computers"] for r in cup.rounds for t in r["tables"]] == \
        [3] * 16
    # rounds 3 and 4 have 11 players: one table is two players and a computer
    assert sorted(t["computers"] for t in cup.rounds[3]["tables"]) == [0, 0, 0, 1]
    assert sorted(t["computers"] for t in cup.rounds[2]["tables"]) == [0, 0, 0, 1]
    assert all(MEMBER not in t["players"] for t in cup.rounds[3]["tables"])
    hand = hand_standings(cup)
    got = {s.id: (s.points, s.opponents, s.score) for s in cup.standings}
    assert got == hand
    keys = [hand[s.id] for s in cup.standings]
    assert keys == sorted(keys, reverse=True)
    assert [s.withdrawn for s in cup.standings if s.id == MEMBER] == [True]
    finals = await owed(store, "cup_final")
    assert [parse(r.kind, r.payload).cup for r in finals] == [cup.id]
    # nobody met an opponent twice: four rounds of 3-seat tables for 12 (then 11) players
    # leave room enough for no repeat, so the pairing found one
    seen: set = set()
    for rnd in cup.rounds:
        pairs = met_pairs(t["players"] for t in rnd["tables"])
        assert not pairs & seen, rnd["n"]
        seen |= pairs
    print(f"cup: {len(cup.rounds)} rounds, simulated {(clock() - t0) / HOUR:.1f} h, "
          f"wall {time.perf_counter() - started:.1f} s")
    await svc.close()


async def test_bad_settings_and_the_boards_section(tmp_path):
    clock = ManualClock()
    store = await open_store(tmp_path / "cup.sqlite")
    svc = timed_service(store, clock)
    base = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=ADMIN, name="Cup", maps=["nordic"],
                variant="base", seats=3, rounds=3, deadline=24, signup_hours=24,
                round_hours=72)
    for change, key in [({"seats": 4}, "service.cup_seats"),        # Nordic: 2-3 players
                        ({"seats": 6}, "service.cup_seats_range"),
                        ({"maps": ["atlantis"]}, "service.unknown_map"),
                        ({"rounds": 0}, "service.cup_rounds"),
                        ({"deadline": 5}, "service.bad_option"),
                        ({"round_hours": 12}, "service.cup_round_hours"),
                        ({"fill": "coin"}, "service.bad_option"),
                        ({"name": "   "}, "service.cup_name"),
                        ({"variant": "mega"}, "service.unknown_variant"),   # USA's only
                        ({"level": "grandmaster"}, "service.unknown_level")]:
        with pytest.raises(ServiceError) as err:
            await svc.cups.create(**{**base, **change})
        assert err.value.key == key, change
    assert await svc.cups.cups_of(GUILD) == []                       # nothing was made
    cup = await svc.cups.create(**{**base, "seats": 5, "maps": ["usa", "europe"]})
    with pytest.raises(ServiceError) as err:
        await svc.cups.add_computer(cup.id, MEMBER)                  # not the organiser
    assert err.value.key == "service.cup_organiser"
    with pytest.raises(ServiceError) as err:
        await svc.cups.withdraw(cup.id, MEMBER)
    assert err.value.key == "service.cup_not_in"
    with pytest.raises(ServiceError) as err:
        await svc.cups.join(cup.id, MEMBER, "Mo", guild_id=GUILD + 1)   # another server's cup
    assert err.value.key == "service.cup_none"
    await svc.cups.join(cup.id, MEMBER, "Mo")
    sections = {s.name: s.items for s in await svc.board.content(GUILD)}
    assert [(i["name"], i["status"], i["players"]) for i in sections["cups"]] == [
        ("Cup", "signup", 1)]
    cancelled = await svc.cups.cancel(cup.id, ADMIN)
    assert cancelled.status == "cancelled"
    assert {s.name: s.items for s in await svc.board.content(GUILD)}["cups"] == ()
    await svc.close()


async def test_two_cups_at_once_in_one_server(tmp_path):
    clock = ManualClock()
    store = await open_store(tmp_path / "two.sqlite")
    svc = timed_service(store, clock, bot_delay=0.0)
    await svc.resume()
    try:
        made = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=ADMIN, maps=["usa"],
                    variant="base", deadline=12, signup_hours=24, round_hours=24)
        a = await svc.cups.create(name="Duel cup", seats=2, rounds=2, **made)
        b = await svc.cups.create(name="Triple cup", seats=3, rounds=1,
                                  **{**made, "maps": ["europe"], "variant": "base"})
        for _ in range(3):
            await svc.cups.add_computer(a.id, ADMIN)
        await svc.cups.add_computer(b.id, ADMIN)
        await svc.cups.join(a.id, MEMBER, "Mo")
        await svc.cups.join(b.id, MEMBER, "Mo")            # one player in both
        clock.advance(24 * HOUR)
        await run_timers(svc, timeout=120)
        a, b = await svc.cups.get(a.id), await svc.cups.get(b.id)
        assert (a.status, a.round, b.status, b.round) == ("running", 1, "running", 1)
        assert [len(t["players"]) + t["computers"] for t in a.rounds[0]["tables"]] == [2, 2]
        assert [(len(t["players"]), t["computers"]) for t in b.rounds[0]["tables"]] == [(2, 1)]
        assert {p for t in a.rounds[0]["tables"] for p in t["players"]} == \
            {p["id"] for p in a.players}
        assert {p for t in b.rounds[0]["tables"] for p in t["players"]} == \
            {p["id"] for p in b.players}
        # each owes its own tables' openings; the board lists both, newest last
        opens = [parse(r.kind, r.payload) for r in await owed(store, "cup_table")]
        assert sorted((o.cup, o.table) for o in opens) == [(a.id, 1), (a.id, 2), (b.id, 1)]
        sections = {s.name: s.items for s in await svc.board.content(GUILD)}
        assert [(i["name"], i["round"], i["rounds"]) for i in sections["cups"]] == [
            ("Duel cup", 1, 2), ("Triple cup", 1, 1)]
        # no table of the duel cup ever opened (its threads could not be made): at the round's
        # deadline they score nothing, and round 2 is paired all the same
        clock.advance(24 * HOUR + 1)
        await run_timers(svc, timeout=120)
        a = await svc.cups.get(a.id)
        assert a.rounds[0]["done"] and a.round == 2 and a.status == "running"
        assert [t["result"] for t in a.rounds[0]["tables"]] == [None, None]
        assert {x.points for x in a.standings} == {0}
        cancelled = await svc.cups.cancel(a.id, ADMIN)
        assert cancelled.status == "cancelled"
        assert (await svc.cups.get(b.id)).status == "finished"     # its one round is over
    finally:
        await svc.close()
