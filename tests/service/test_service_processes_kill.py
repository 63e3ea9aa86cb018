"""Two bot processes on one PostgreSQL database play the same games at once (both serve every
shard: the misconfiguration the database's per-game lock and the timer leases are for), and
one or the other is killed with SIGKILL at random moments and started again. Counted at the
end: every human move a process reported done is in the log, once, at the seq it reported
(none lost, none doubled: no seq reported by two processes); the log grew by exactly the moves
reported, plus at most one per kill (committed, killed before it could say so), plus the
computer players' moves; each computer-move timer fired in one process, once (twice only if
it was the last one a killed process fired: killed before it deleted the row, so the other
fires it again when the lease runs out), and no computer move was dropped; every game's
snapshot is the replay of its log. The writers are crash_writer.py's, in its
"shared" mode; TTR_CRASH_SEED replays a run's kill moments."""
import asyncio
import random
import signal
import time

import pytest

from tests.service.svckit import open_store, started
from tests.service.test_service_crash import SEED, Writer, check
from ttr_bot.service import GameService

GAMES = 10          # the first COMPUTER_GAMES of them with a computer player
COMPUTER_GAMES = 2
KILLS = 4


async def stuck(db, games):
    """Games where a computer is to move and no timer will make it move (it was dropped)."""
    store = await open_store(db)
    try:
        svc = GameService(store, clock=time.time)
        out = []
        for game_id in games:
            hosted = await svc.load(game_id)
            if hosted.is_active and svc.core._bot_to_move(hosted) and \
                    not await store.list_timers(game_id, "bot_move"):
                out.append(game_id)
        return out
    finally:
        await store.close()


async def set_up(db):
    store = await open_store(db)
    try:
        # the writers' clock (the wall clock): the turns' deadlines are two days away, not due
        svc = GameService(store, clock=time.time, seeds=random.Random(SEED))
        games = []
        for n in range(GAMES):
            channel = 900 + n
            if n < COMPUTER_GAMES:
                host = channel * 10
                await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=host, name="Ann",
                                           map_id="usa")
                await svc.lobby.join(channel, host + 1, "Bob")
                await svc.lobby.add_bot(channel, host, "easy")
                await svc.lobby.start(channel, host)
                games.append((await svc.game_in_channel(channel)).id)
            else:
                games.append((await started(svc, channel, players=3))[0])
        return games
    finally:
        await store.close()


# several processes share a PostgreSQL database; one SQLite file serves one
@pytest.mark.drivers("postgresql")
def test_two_processes_on_one_game_apply_every_action_once_through_kills(db_path, driver):
    db = db_path
    rng = random.Random(SEED)
    started_at = time.monotonic()
    games = asyncio.run(set_up(db))
    before = dict(db.fetchall("SELECT id, seq FROM games"))
    writers = [Writer(db, 1, "-", "shared"), Writer(db, 2, "-", "shared")]
    assert all(w.ready.wait(20) for w in writers), [w.kill() for w in writers]
    finished, kills, last_fired = [], 0, set()
    for round_no in range(3, 3 + KILLS):
        time.sleep(rng.uniform(0.5, 2.5))
        victim = writers.pop(rng.randrange(2))
        alive = victim.alive()
        stderr = victim.kill()
        assert alive and victim.returncode == -signal.SIGKILL, (SEED, stderr)
        finished.append(victim)
        kills += 1
        fired_lines = [ln for ln in victim.lines if ln[0] == "fired"]
        if fired_lines:     # fired, perhaps killed before deleting it: the other fires it too
            last_fired.add(int(fired_lines[-1][1]))
        writers.append(Writer(db, round_no, "-", "shared"))
        assert writers[-1].ready.wait(20), writers[-1].kill()
    time.sleep(rng.uniform(0.5, 1.5))
    for w in writers:
        w.kill()
    finished += writers
    kills += len(writers)

    reported, refused, fired = {}, 0, {}
    for w in finished:
        for line in w.lines:
            if line[0] == "done":
                game_id, seq = int(line[1]), int(line[2])
                assert seq not in reported.setdefault(game_id, {}), (
                    f"seed {SEED}: seq {seq} of game {game_id} reported by two processes")
                reported[game_id][seq] = line[3]
            elif line[0] == "refused":
                refused += 1
                assert line[2] in ("service.stale", "service.not_active"), (SEED, line)
            elif line[0] == "fired":
                fired[int(line[1])] = fired.get(int(line[1]), 0) + 1
    asyncio.run(check(db, reported, {}))        # each reported move in the log at its seq
    after = dict(db.fetchall("SELECT id, seq FROM games"))
    humans_only = games[COMPUTER_GAMES:]
    grown = sum(after[g] - before[g] for g in humans_only)
    moves = sum(len(reported.get(g, {})) for g in humans_only)
    assert moves <= grown <= moves + kills, (SEED, moves, grown)
    computer_moves = sum(after[g] - before[g] - len(reported.get(g, {}))
                         for g in games[:COMPUTER_GAMES])
    assert computer_moves > 0 and fired, (SEED, "the computers never moved")
    assert asyncio.run(stuck(db, games[:COMPUTER_GAMES])) == [], (SEED, "a computer move dropped")
    twice = sum(n - 1 for n in fired.values())
    again = {t for t, n in fired.items() if n > 1}
    assert again <= last_fired and max(fired.values()) <= 2, (SEED, "fired twice", again)
    assert moves >= 50 and refused > 0, (SEED, moves, refused)    # the test did what it says
    print(f"two processes ({driver}): seed {SEED}, {kills} kills, {moves} human moves reported, "
          f"log grew {grown} (+{computer_moves} computer moves, {len(fired)} timers fired, "
          f"{twice} twice), {refused} moves refused as made first by the other, "
          f"{time.monotonic() - started_at:.1f} s")
