"""The timers and the outbox fuzzed end to end (issue 23): a stateful property test on a
ManualClock, the real bot (its scheduler, its OutboxWorker, its Delivery) against the fake
Discord, over random interleavings of moves, silence, away periods, /ttr return, votes,
players leaving, the bot losing and regaining its permission to post (a channel's overwrite,
View Channel, its role), its removal from a server, the game's thread archived, locked and
unlocked, restarts of the bot and a worker pool that crashes (WorkerLost) or hangs
(WorkerTimeout). Three games: a channel of one server (24 h a turn), a thread there (12 h, a
computer player), a channel of another server (no deadline; one player's DMs are closed).
The fake Discord's clock is the bot's, so Discord's nonce memory (a few minutes) runs out
between steps as it would over days: a row sent twice shows as two messages.

After every step:
- the timer invariant holds (`check_timers` finds nothing to re-arm);
- nothing was logged at ERROR, and the fake saw nothing real Discord would refuse;
- no owed message was sent twice (at most one message per nonce, i.e. per outbox row);
- the tables stay bounded, counted whole after the worker's hourly purge: no row sent or
  given up more than a week (and an hour) ago, no vote closed more than 30 days ago, no row
  left unsent past the 3 days after which a refusing destination is given up, a bounded
  number of rows, timers and refused destinations.
At the end, everyone silent (and the permissions as the run left them): every game finishes or
is closed within 40 simulated days, and each of its players was told (the end or the closing
in the channel, or by DM; a player whose DMs are closed only through the channel).

Short and seeded by default (CI); a longer run:

    TTR_E2E_FUZZ_EXAMPLES=100 python -m pytest -q tests/discord/test_e2e_timer_fuzz.py
"""
import asyncio
import logging
import os
import random
import sqlite3
import tempfile
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import BOT_PERMISSIONS, P
from tests.discord.fuzzkit import ErrorLog
from tests.service.svckit import pick_action
from ttr_bot.discord.bot import TTRBot
from ttr_bot.discord.config import Config
from ttr_bot.discord.posting.outbox_worker import KEEP_SENT, KEEP_VOTES, PURGE_EVERY
from ttr_bot.discord.posting.refusals import GIVE_UP_AFTER, MAX_RETRY
from ttr_bot.engine.actions import KeepTickets
from ttr_bot.i18n import t
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR
from ttr_bot.workers import WorkerLost, WorkerPool, WorkerTimeout

EXAMPLES = int(os.environ.get("TTR_E2E_FUZZ_EXAMPLES", "3"))
STEPS = int(os.environ.get("TTR_E2E_FUZZ_STEPS", "20"))
PHASES = [p for p in Phase if p not in (Phase.shrink, Phase.explain) or os.environ.get("TTR_E2E_FUZZ_SHRINK")]
FINISH_WITHIN = 40 * DAY
SLACK = PURGE_EVERY + 600.0         # the purge runs hourly; the worker looks every 5 minutes
MAX_ROWS, MAX_TIMERS, MAX_BLOCKS = 3000, 60, 12
WHAT = ("move", "silence", "move", "silence", "channel_permission", "restart", "workers",
        "thread", "vote", "away", "come_back", "leave", "role_permission", "silence",
        "removed_from_server", "channel_permission", "thread", "move", "workers")


class SharedClock:
    """The fake Discord's clock read from the bot's ManualClock (nonces, interaction times)."""

    def __init__(self, manual):
        self.manual = manual

    def now(self):
        return self.manual()

    def advance(self, seconds):
        self.manual.advance(seconds)


class CrashingPool:
    """The bot's worker pool (tasks in threads) that, while `mode` says so, cannot start a
    worker (WorkerLost) or runs over its time (WorkerTimeout): decisions and pictures alike."""

    size = 0

    def __init__(self):
        self.inner = WorkerPool(0)
        self.mode = None

    async def run(self, function, *args, timeout=None, first=False):
        if self.mode == "lost":
            raise WorkerLost("no worker could start (34 tries in a row)")
        if self.mode == "timeout":
            raise WorkerTimeout("the task ran over its time")
        return await self.inner.run(function, *args, timeout=timeout, first=first)

    async def run_each(self, function, *args, timeout=None):
        if self.mode == "lost":
            raise WorkerLost("no worker could start (34 tries in a row)")
        return await self.inner.run_each(function, *args, timeout=timeout)

    async def close(self):
        await self.inner.close()


class Game:
    def __init__(self, game_id, channel, guild, users):
        self.id, self.channel, self.guild, self.users = game_id, channel, guild, users
        self.mark = 0           # the newest message id when it was last seen open


class Table(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        # in memory where there is a tmpfs: a fuzz run writes thousands of transactions
        self.dir = tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm")
                                               else None)
        self.db = str(Path(self.dir.name) / "fuzz.sqlite3")
        self.clock = ManualClock(datetime(2024, 10, 20, 9, tzinfo=timezone.utc).timestamp())
        self.pool = CrashingPool()
        self.errors = ErrorLog()
        logging.getLogger("ttr_bot").addHandler(self.errors)
        self.fake = self.bot = None
        self.games = []
        self.removed = False

    def run(self, coro, timeout=120):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    # ----- the world ---------------------------------------------------------------------------
    @initialize()
    def start(self):
        self.run(self._start())

    async def _start(self):
        fake = self.fake = FakeDiscord(clock=SharedClock(self.clock))
        await fake.start()
        # without Manage Threads: a locked thread refuses the bot, as on Discord
        self.home = fake.add_guild("Rails", bot_permissions=BOT_PERMISSIONS & ~P["manage_threads"])
        self.away = fake.add_guild("Elsewhere")
        home_channel = fake.add_text_channel(self.home, "ttr")
        self.thread = fake.add_thread(fake.add_text_channel(self.home, "games"), "usa")
        away_channel = fake.add_text_channel(self.away, "ttr")
        home = [fake.add_user(n, guild=self.home) for n in ("alice", "bob", "carol", "dave")]
        away = [fake.add_user("erin", guild=self.away),
                fake.add_user("frank", guild=self.away, dms_closed=True)]
        self.closed_dms = {away[1].id}
        await self._start_bot()
        for channel, guild, users, options, bots in (
                (home_channel, self.home, home[:2], {"deadline": 24}, 0),
                (self.thread, self.home, home[2:], {"deadline": 12}, 1),
                (away_channel, self.away, away, {"deadline": 0, "remind": 24}, 0)):
            self.games.append(await self._open(channel, guild, users, options, bots))
        await self._settle()

    async def _start_bot(self):
        self.bot = TTRBot(Config(token=self.fake.token, db_path=self.db, workers=0),
                          bot_delay=0.0, clock=self.clock, workers=self.pool)
        await self.fake.start_bot(self.bot)

    async def _open(self, channel, guild, users, options, bots):
        svc = self.bot.service
        loaded = await svc.lobby.open_lobby(guild_id=guild.id, channel_id=channel.id,
                                            user_id=users[0].id, name=users[0].username,
                                            map_id="usa", options=options)
        for u in users[1:]:
            await svc.lobby.join(channel.id, u.id, u.username)
        for _ in range(bots):
            await svc.lobby.add_bot(channel.id, users[0].id, "easy")
        await svc.lobby.start(channel.id, users[0].id)
        hosted = await svc.load(loaded.id)
        for seat in hosted.game.to_move():
            if hosted.seats[seat].user_id is not None:
                hosted = await svc.load(loaded.id)
                await svc.moves.act(loaded.id, hosted.seats[seat].user_id,
                                    KeepTickets(seat, tuple(hosted.game.offers[seat])))
        return Game(loaded.id, channel, guild, users)

    async def _settle(self):
        await self.bot.wait_until_ready()
        await self.fake.idle(timeout=60)

    def teardown(self):
        try:
            if self.bot is not None:
                self.run(self._finish(), timeout=600)
        finally:
            logging.getLogger("ttr_bot").removeHandler(self.errors)
            if self.fake is not None:
                self.run(self.fake.stop())
            self.run(self.pool.close())
            self.loop.close()
            self.dir.cleanup()

    # ----- what players and the world do ---------------------------------------------------------
    def _game(self, i):
        return self.games[i % len(self.games)]

    async def _refusable(self, coro):
        """A player's request: refused (a clear ServiceError) or done."""
        try:
            await coro
        except ServiceError:
            pass

    def _do(self, coro):
        self.run(self._then_settle(coro))

    async def _then_settle(self, coro):
        await coro
        await self._settle()

    # one rule drawing what happens, weighted, so that a short run sees every kind of event
    # (Hypothesis's own choice of rules leaves whole kinds out of an example: swarm testing)
    @rule(what=st.sampled_from(WHAT), data=st.data())
    def step(self, what, data):
        getattr(self, f"_{what}")(data)

    def _move(self, data):
        game = self._game(data.draw(st.integers(0, 2), label="game"))
        actions = data.draw(st.integers(1, 6), label="actions")
        rng = random.Random(data.draw(st.integers(0, 2 ** 16), label="seed"))

        async def go():
            svc = self.bot.service
            for _ in range(actions):
                svc.core.forget(game.id)
                hosted = await svc.load(game.id)
                if hosted is None or not hosted.is_active:
                    return
                humans = [s for s in hosted.game.to_move() if not hosted.seats[s].is_bot]
                if not humans:
                    return
                action = pick_action(hosted.game, rng, humans[0])
                await self._refusable(svc.moves.act(game.id, hosted.seats[humans[0]].user_id, action,
                                                    hosted.seq))
                await self._settle()
        self._do(go())

    def _silence(self, data):
        hours = data.draw(st.sampled_from([1, 3, 7, 13, 25, 49, 24 * 4]), label="hours")

        async def go():
            chunks = max(1, hours // 12)
            for _ in range(chunks):
                self.clock.advance(hours * HOUR / chunks)
                await self._settle()
        self._do(go())

    def _player(self, data):
        game = self._game(data.draw(st.integers(0, 2), label="game"))
        return game, data.draw(st.integers(0, 1), label="player")

    def _away(self, data):
        game, who = self._player(data)
        days = data.draw(st.integers(0, 14), label="days")
        self._do(self._refusable(self.bot.service.away.set_away(game.users[who].id, game.guild.id,
                                                                days)))

    def _come_back(self, data):
        game, who = self._player(data)
        user = game.users[who]
        self._do(self._refusable(self.bot.service.absence.return_seat(game.id, user.id, user.username)))

    def _vote(self, data):
        game, who = self._player(data)
        kind = data.draw(st.sampled_from(["replace", "cancel"]), label="kind")
        yes = data.draw(st.booleans(), label="yes")
        users, svc = game.users, self.bot.service

        async def go():
            target = users[1 - who].id if kind == "replace" else None
            vote = await svc.votes.start_vote(game.id, users[who].id, kind, target)
            await svc.votes.cast_vote(vote.id, users[1 - who].id, yes)
        self._do(self._refusable(go()))

    def _leave(self, data):
        game, who = self._player(data)
        self._do(self._refusable(self.bot.service.handover.leave_game(game.id, game.users[who].id)))

    def _channel_permission(self, data):
        """The bot's overwrite in a channel denies (or lifts) Send Messages or View Channel."""
        channel = self._game(data.draw(st.sampled_from([0, 2]), label="game")).channel
        what = data.draw(st.sampled_from(["send", "view"]), label="permission")
        allowed = data.draw(st.booleans(), label="allowed")
        change = self.fake.set_bot_can_send if what == "send" else self.fake.set_bot_can_view
        self._do(change(channel, allowed))

    def _role_permission(self, data):
        """The server's @everyone and the bot's own role lose (or get back) Send Messages."""
        allowed = data.draw(st.booleans(), label="allowed")
        guild = self.home
        everyone, mine = guild.roles[guild.id], self.fake.bot_role(guild)

        async def go():
            for role, base in ((everyone, everyone.permissions), (mine, BOT_PERMISSIONS)):
                perms = base | P["send_messages"] if allowed else base & ~P["send_messages"]
                if role is mine:
                    perms &= ~P["manage_threads"]
                await self.fake.set_role_permissions(guild, role, perms)
        self._do(go())

    def _removed_from_server(self, data):
        if not self.removed:
            self.removed = True
            self._do(self.fake.remove_bot(self.away))

    def _thread(self, data):
        what = data.draw(st.sampled_from(["archive", "lock", "unarchive", "unlock"]),
                         label="thread")
        th, fake = self.thread, self.fake
        change = {"archive": lambda: fake.archive_thread(th),
                  "lock": lambda: fake.archive_thread(th, locked=True),
                  "unarchive": lambda: fake.unarchive_thread(th),
                  "unlock": lambda: fake.unlock_thread(th)}[what]
        self._do(change())

    def _restart(self, data):
        async def go():
            await self.fake.stop_bot(self.bot)
            await self._start_bot()
        self._do(go())

    def _workers(self, data):
        self.pool.mode = data.draw(st.sampled_from([None, "lost", "timeout"]), label="workers")

    # ----- what must hold after every step -------------------------------------------------------
    @invariant()
    def holds(self):
        if self.bot is not None:
            self.run(self._check())

    async def _check(self):
        problems = await self.bot.service.invariants.check_timers()
        assert problems == [], [p.line() for p in problems]
        assert not self.errors.records, self.errors.records
        self.fake.assert_clean()
        sent = Counter(m.nonce for m in self.fake.state.messages.values() if m.nonce)
        assert all(n == 1 for n in sent.values()), [k for k, n in sent.items() if n > 1]
        self._bounded()
        newest = max(self.fake.state.messages, default=0)
        for game in self.games:     # what was said before it ended does not tell its end
            self.bot.service.core.forget(game.id)
            if (await self.bot.service.load(game.id)).is_open:
                game.mark = newest

    def _bounded(self):
        now = self.clock()
        with sqlite3.connect(self.db) as db:
            def one(sql, *args):
                return db.execute(sql, args).fetchone()[0]
            assert one("SELECT COUNT(*) FROM outbox") <= MAX_ROWS
            assert one("SELECT COUNT(*) FROM timers") <= MAX_TIMERS
            assert one("SELECT COUNT(*) FROM outbox_lanes") <= MAX_BLOCKS
            assert one("SELECT COUNT(*) FROM outbox WHERE sent_at < ?",
                       now - KEEP_SENT - SLACK) == 0, "sent rows outlived their week"
            assert one("SELECT COUNT(*) FROM votes WHERE status != 'open' AND closed_at < ?",
                       now - KEEP_VOTES - SLACK) == 0, "closed votes outlived their month"
            stale = db.execute(
                "SELECT id, kind, lane, created_at FROM outbox WHERE sent_at IS NULL AND "
                "held = 0 AND created_at < ?", (now - GIVE_UP_AFTER - MAX_RETRY - SLACK,)
            ).fetchall()
            assert stale == [], str(("rows owed for more than 3 days", now, stale, db.execute(
                "SELECT * FROM outbox_lanes").fetchall(), db.execute(
                "SELECT id, kind, lane, held, due_at, attempts, created_at FROM outbox WHERE "
                "sent_at IS NULL").fetchall()))

    # ----- the end ---------------------------------------------------------------------------------
    async def _finish(self):
        """Everyone silent from now on: every game finishes or is closed in bounded time, and
        its players are told."""
        self.pool.mode = None
        end = self.clock() + FINISH_WITHIN
        while self.clock() < end and (await self._open_games() or await self._owed()):
            self.clock.set(await self._next_due())
            await self._settle()
            await self._check()
        assert await self._open_games() == [], "a game neither finished nor closed in 40 days"
        assert not await self._owed(), "owed messages neither sent nor given up"
        for game in self.games:
            await self._told(game)
        await self.fake.stop_bot(self.bot)
        assert not self.errors.records, self.errors.records
        self.bot = None

    async def _open_games(self):
        svc = self.bot.service
        out = []
        for game in self.games:
            svc.core.forget(game.id)
            if (await svc.load(game.id)).is_open:
                out.append(game.id)
        return out

    async def _owed(self):
        return [r for r in await self.bot.service.core.store.pending_outbox(10_000) if not r.held]

    async def _next_due(self):
        """When something is next due: a timer, an owed row, a refused destination's retry
        (what is due by now has been done: settled); an hour on if nothing is."""
        now = self.clock()
        with sqlite3.connect(self.db) as db:
            times = [db.execute(sql, (now,)).fetchone()[0] for sql in (
                "SELECT MIN(due_at) FROM timers WHERE due_at > ?",
                "SELECT MIN(due_at) FROM outbox WHERE sent_at IS NULL AND due_at > ?",
                "SELECT MIN(retry_at) FROM outbox_lanes WHERE retry_at > ?")]
        return min([x for x in times if x is not None], default=now + HOUR)

    async def _told(self, game):
        """Each player still seated was told the game ended: in its channel (the final post,
        the closing post) or privately (the end of their hand message, the closing DM)."""
        hosted = await self.bot.service.load(game.id)
        channel = f"<#{game.channel.id}>"
        public = (t("bot.end.title", names="\0").split("\0")[0],
                  *(t(f"bot.cancelled.{r}") for r in ("abandoned", "vote")),
                  t("bot.cancelled"),
                  *(t("bot.seat.left_cancelled", name=s.name) for s in hosted.seats))
        private = (t("bot.hand.end", channel=channel, place="\0", count=0).split("\0")[0],
                   t("bot.closed.abandoned", channel=channel).split(":")[0],
                   t("bot.closed.unseen", channel=channel))
        mark = game.mark
        said = [m.content for m in self.fake.messages_in(game.channel)
                if m.id > mark and not m.ephemeral]
        for seat in hosted.seats:
            if seat.user_id is None:
                continue
            user = self.fake.state.users[seat.user_id]
            dms = [m.content for m in self.fake.dms_to(user) if m.id > mark]
            told = any(s.startswith(public) for s in said) or \
                any(s.startswith(private) for s in dms)
            assert told or seat.user_id in self.closed_dms, \
                (game.id, hosted.status, hosted.end_reason, seat.name, said[-3:], dms[-3:])


TestTable = Table.TestCase
TestTable.settings = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                              derandomize=EXAMPLES <= 3, phases=PHASES,
                              suppress_health_check=list(HealthCheck))
