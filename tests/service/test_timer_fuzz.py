"""The timers fuzzed at the service (issue 23): a stateful property test on a ManualClock over
random interleavings of moves, silence (time passing with nobody moving), away periods,
/ttr return, votes, players leaving, restarts of the bot and a worker pool whose decisions
hang (WorkerTimeout) or find no worker (WorkerLost), on three games at once (a 24 h deadline,
a 12 h one with a computer player, none). After every step:

- the invariant holds: every open game has a pending timer for whatever it waits on
  (`check_timers` finds nothing to re-arm);
- the timers and the owed rows stay bounded (per open game, whatever happened);
- nothing was logged at ERROR;
- no turn is owed two posts (one turn row per seq and game).

At the end, with everyone silent, every game finishes or is closed within a bounded simulated
time (40 days: three timeouts hand a seat to a computer, a game without a deadline is closed
after 30 idle days).

Nothing is delivered here: the same and more, with the outbox worker, the fake Discord, refused
permissions, removal from a server, threads and whole tables after the purge, is
tests/discord/test_e2e_timer_fuzz.py.

Seeded and short by default (CI); a longer run:

    TTR_TIMER_FUZZ_EXAMPLES=300 python -m pytest -q tests/service/test_timer_fuzz.py
"""
import asyncio
import logging
import os
import random
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tests.service.svckit import game_in_play, open_store, pick_action, run_timers, timed_service
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR
from ttr_bot.workers import WorkerLost, WorkerTimeout

EXAMPLES = int(os.environ.get("TTR_TIMER_FUZZ_EXAMPLES", "8"))
GAMES = ({"deadline": 24}, {"deadline": 12}, {"deadline": 0, "remind": 24})
MAX_TIMERS, MAX_OWED = 30, 400      # per open game at any moment (a few per seat; no growth)
FINISH_WITHIN = 40 * DAY
PHASES = [p for p in Phase if p is not Phase.shrink or os.environ.get("TTR_TIMER_FUZZ_SHRINK")]


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


class FailingDecisions:
    """A worker pool whose decisions, while `failing` says so, run over their time (a hung
    worker: WorkerTimeout) or find no worker (one that crashed and cannot start: WorkerLost)."""

    def __init__(self):
        self.failing = None

    async def run(self, function, *args, timeout=None, first=False):
        if self.failing == "timeout":
            raise WorkerTimeout("the decision took too long")
        if self.failing == "lost":
            raise WorkerLost("no worker could start (34 tries in a row)")
        return function(*args)


class Timers(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.dir = tempfile.TemporaryDirectory()
        self.db = Path(self.dir.name) / "fuzz.sqlite"
        self.clock = ManualClock(datetime(2024, 10, 20, 9, tzinfo=timezone.utc).timestamp())
        self.pool = FailingDecisions()
        self.errors = Errors()
        logging.getLogger("ttr_bot").addHandler(self.errors)
        self.svc = None
        self.games = []             # (game id, users)

    def run(self, coro):
        return self.loop.run_until_complete(asyncio.wait_for(coro, 60))

    async def _open(self):
        store = await open_store(self.db)
        svc = timed_service(store, self.clock, workers=self.pool)
        await svc.resume()
        return svc

    @initialize(seed=st.integers(0, 2 ** 16))
    def start(self, seed):
        self.rng = random.Random(seed)

        async def go():
            self.svc = await self._open()
            for i, options in enumerate(GAMES):
                self.games.append(await game_in_play(self.svc, 900 + i, players=2,
                                                     options=options, bots=i == 1))
        self.run(go())

    def teardown(self):
        try:
            if self.svc is not None:
                self.run(self._finish())
        finally:
            logging.getLogger("ttr_bot").removeHandler(self.errors)
            if self.svc is not None:
                self.run(self.svc.close())
            self.loop.close()
            self.dir.cleanup()

    async def _finish(self):
        """Everyone silent from now on: every game finishes or is closed in bounded time."""
        self.pool.failing = None
        end = self.clock() + FINISH_WITHIN
        while self.clock() < end and (games := await self._open_games()):
            due = [t.due_at for g in games for t in await self.svc.core.store.list_timers(g)]
            assert due, "an open game with no timer"
            self.clock.set(max(self.clock(), min(due)))     # time passes to the next timer
            await run_timers(self.svc)
            problems = await self.svc.invariants.check_timers()
            assert problems == [], [p.line() for p in problems]
        assert await self._open_games() == [], "a game neither finished nor closed in 40 days"
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]

    async def _open_games(self):
        """The ids of the games still open, as stored (not as the service's cache has them)."""
        stored = set(await self.svc.core.store.list_active_game_ids(include_lobbies=True))
        return [game_id for game_id, _ in self.games if game_id in stored]

    def _game(self, i):
        return self.games[i % len(self.games)]

    # ----- what players and the world do --------------------------------------------------------
    @rule(i=st.integers(0, 2), actions=st.integers(1, 6))
    def move(self, i, actions):
        game_id, _ = self._game(i)

        async def go():
            for _ in range(actions):
                self.svc.core.forget(game_id)
                hosted = await self.svc.load(game_id)
                if hosted is None or not hosted.is_active:
                    return
                humans = [s for s in hosted.game.to_move() if not hosted.seats[s].is_bot]
                if not humans:
                    await run_timers(self.svc)
                    return
                action = pick_action(hosted.game, self.rng, humans[0])
                await self.svc.moves.act(game_id, hosted.seats[humans[0]].user_id, action, hosted.seq)
        self.run(go())

    @rule(hours=st.sampled_from([1, 3, 6, 11, 13, 25, 49, 24 * 8]))
    def silence(self, hours):
        async def go():
            for _ in range(max(1, hours // 6)):
                self.clock.advance(hours * HOUR / max(1, hours // 6))
                await run_timers(self.svc)
        self.run(go())

    @rule(i=st.integers(0, 2), who=st.integers(0, 1), days=st.integers(0, 14))
    def away(self, i, who, days):
        _, users = self._game(i)
        self.run(self._refusable(self.svc.away.set_away(users[who], 1, days)))

    @rule(i=st.integers(0, 2), who=st.integers(0, 1))
    def come_back(self, i, who):
        game_id, users = self._game(i)
        self.run(self._refusable(self.svc.absence.return_seat(game_id, users[who], f"P{users[who]}")))

    @rule(i=st.integers(0, 2), who=st.integers(0, 1), kind=st.sampled_from(["replace", "cancel"]),
          yes=st.booleans())
    def vote(self, i, who, kind, yes):
        game_id, users = self._game(i)

        async def go():
            target = users[1 - who] if kind == "replace" else None
            vote = await self.svc.votes.start_vote(game_id, users[who], kind, target)
            await self.svc.votes.cast_vote(vote.id, users[1 - who], yes)
        self.run(self._refusable(go()))

    @rule(i=st.integers(0, 2), who=st.integers(0, 1))
    def leave(self, i, who):
        game_id, users = self._game(i)
        self.run(self._refusable(self.svc.handover.leave_game(game_id, users[who])))

    @rule()
    def restart(self):
        async def go():
            await self.svc.close()
            self.svc = await self._open()
        self.run(go())

    @rule(failing=st.sampled_from([None, "timeout", "lost"]))
    def workers(self, failing):
        self.pool.failing = failing

    async def _refusable(self, coro):
        """A player's request: refused (a clear ServiceError) or done."""
        try:
            await coro
        except ServiceError:
            pass

    # ----- what must hold after every step -------------------------------------------------------
    @invariant()
    def holds(self):
        if self.svc is None:
            return

        async def check():
            problems = await self.svc.invariants.check_timers()
            assert problems == [], [p.line() for p in problems]
            store = self.svc.core.store
            turns = {}
            owed = {}
            for row in await store.pending_outbox(100_000):
                owed[row.game_id] = owed.get(row.game_id, 0) + 1
                if row.kind == "turn":
                    key = (row.game_id, row.seq)
                    assert key not in turns, f"two turn posts owed for {key}"
                    turns[key] = row.id
            for game_id in await self._open_games():
                timers = await store.list_timers(game_id)
                assert len(timers) <= MAX_TIMERS, [(t.kind, t.payload) for t in timers]
                assert owed.get(game_id, 0) <= MAX_OWED
            assert not self.errors.records, [r.getMessage() for r in self.errors.records]
        self.run(check())


TestTimers = Timers.TestCase
TestTimers.settings = settings(max_examples=EXAMPLES, stateful_step_count=25, deadline=None,
                               derandomize=EXAMPLES <= 8, phases=PHASES,
                               suppress_health_check=[HealthCheck.too_slow])
