"""Discord adapter figures: how fast the bot acknowledges interactions when many games are played
at once.

The real bot (TTRBot, unmodified discord.py, a real SQLite file, the production delays) runs
against the fake Discord of the tests (testkit/fakediscord: aiohttp REST and gateway websocket on
127.0.0.1). GAMES games are played at once, one per channel, by 2 or 3 human players each, and with
`--bots hard` (levels, comma-separated: one seat of each per game) computer players beside them,
which move by themselves on their timers after the production pause. Every human move is an interaction: a random legal action (ttr_bot.ai's random
player, from the player's own view), done by slash command or by the button or menu the bot
showed, at random (`--buttons`: the share of moves made with a component where one exists; such
a player waits for the turn's panel to be posted). Claims by command first type the route into
the autocomplete. A player waits for each answer before the next step, so about GAMES
interactions are in flight at any time (three per game while the starting tickets are chosen);
`--think` adds a pause before each move, as people take.

Acknowledgement latency: the fake's clock from dispatching INTERACTION_CREATE to the bot's first
callback for it (the deferral, a direct response, or the autocomplete result). Printed: p50,
p95, p99 and max over all interactions and per kind, the number of interactions and how many
awaited their answer at once, turns played, games finished, wall time, the time until the
player sees the answer (the response itself when it was quick, else the follow-up after the
deferral), and how long the shared event loop
stalled (the overshoot of a 10 ms ticker: the fake and the players run in the bot's process
and event loop, so their work is counted against the bot), and the computer players' moves.
Target: acknowledgement p99 <= 250 ms (with computer players, issue 13: p99 <= 100 ms and the
answer seen p99 <= 1.5 s).

    python -m tools.bench discord [--games 50] [--turns 20] [--maps usa,europe] [--seed 1]
                                    [--buttons 0.5] [--players 2,3] [--bots hard] [--think 0]
                                    [--profile FILE]

Exit status 1 if the target is missed or the fake saw a request Discord would refuse.
"""
import argparse
import asyncio
import cProfile
import io
import logging
import pstats
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from itertools import islice
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTKIT = REPO / "testkit"
TARGET_P99 = 0.250
REPLY_TIMEOUT = 60.0
PANEL_WAIT = 10.0
BOT_POLL = 0.05             # how often a player looks whether a computer player has moved
BOT_TIMEOUT = 600.0         # a computer player's move that takes longer counts as lost
BAD_WORDS = ("Traceback", "Sorry, something went wrong")
KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}


def import_fake():
    """The fake Discord (`testkit.fakediscord`), or None outside a checkout of the repository.

    It is a test double, not part of the product (the Docker image has no testkit/), so this
    benchmark runs from the repository root, where `python -m` finds the `testkit` package.
    """
    try:
        from testkit import fakediscord
    except ImportError:
        return None
    return fakediscord


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def find_cid(message, prefix):
    return next((c for c in message.custom_ids() if c.startswith(prefix)), None)


class Waiter:
    """One poller for every awaited answer (the fake's own helpers poll every 5 ms each, which
    with a hundred waiting players would load the very loop being measured)."""

    def __init__(self, period=0.005):
        self.period = period
        self._waiting = []          # (predicate, future, deadline)
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._poll())

    async def stop(self):
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass

    async def until(self, predicate, timeout=REPLY_TIMEOUT):
        if predicate():
            return
        fut = asyncio.get_running_loop().create_future()
        self._waiting.append((predicate, fut, time.monotonic() + timeout))
        await fut

    async def _poll(self):
        while True:
            await asyncio.sleep(self.period)
            now, keep = time.monotonic(), []
            for predicate, fut, deadline in self._waiting:
                if fut.done():
                    continue
                if predicate():
                    fut.set_result(None)
                elif now > deadline:
                    fut.set_exception(TimeoutError("no answer from the bot"))
                else:
                    keep.append((predicate, fut, deadline))
            self._waiting = keep


class Board:
    """What the players can see in their channels, kept up to date from the fake's messages
    (scanning only what is new since the last look)."""

    def __init__(self, fake):
        self.fake = fake
        self.seen = 0
        self.panel = {}             # channel id -> latest public message with turn buttons
        self.lobby = {}             # channel id -> the lobby message
        self.start = {}             # channel id -> latest public message with "My hand"

    def update(self):
        messages = self.fake.state.messages
        if len(messages) == self.seen:
            return
        for m in islice(messages.values(), self.seen, None):
            if m.ephemeral or m.author_id != self.fake.state.bot.id:
                continue
            cids = m.custom_ids()
            if any(c.startswith("ttr:draw:") for c in cids):
                self.panel[m.channel_id] = m
            elif any(c.startswith("ttr:lobby:") for c in cids):
                self.lobby[m.channel_id] = m
            elif any(c.startswith("ttr:hand:") for c in cids):
                self.start[m.channel_id] = m
        self.seen = len(messages)


class Bench:
    def __init__(self, fake, bot, args):
        self.fake, self.bot, self.args = fake, bot, args
        self.waiter = Waiter()
        self.board = Board(fake)
        self.how = Counter()        # (action kind, "command" | "component") -> count
        self.problems = Counter()   # answers with an error text, driver retries
        self.answer_times = []      # seconds from dispatch to the answer seen by the player
        self.awaiting = 0           # interactions dispatched and not answered yet
        self.in_flight = []         # `awaiting`, sampled every 10 ms
        self.bot_waits = []         # seconds a game waited for each computer player's move
        self.bot_levels = [lv for lv in args.bots.split(",") if lv] if args.bots else []

    # ----- interactions ---------------------------------------------------------------------------
    async def answer(self, handle, kind):
        """The ephemeral answer of an interaction (its response, or after a deferral the
        first follow-up)."""
        self.awaiting += 1
        try:
            await self.waiter.until(handle.answers)
        finally:
            self.awaiting -= 1
        self.answer_times.append((kind, self.fake.clock.now() - handle.created_at))
        msg = handle.answers()[0]
        if any(b in (msg.content or "") for b in BAD_WORDS):
            self.problems["error answer"] += 1
        return msg

    async def slash(self, game, user, sub, kind=None, **options):
        self.how[kind or sub, "command"] += 1
        handle = await self.fake.slash(user, game.channel, "ttr", sub, options)
        return await self.answer(handle, kind or sub)

    async def click(self, user, message, cid, kind):
        self.how[kind, "component"] += 1
        return await self.answer(await self.fake.click(user, message, cid), kind)

    async def select(self, user, message, cid, values, kind):
        self.how[kind, "component"] += 1
        handle = await self.fake.select(user, message, cid, [str(v) for v in values])
        return await self.answer(handle, kind)

    async def autocomplete(self, game, user, sub, option, typed):
        handle = await self.fake.autocomplete(user, game.channel, "ttr", sub, {option: typed},
                                              focused=option)
        self.awaiting += 1
        try:
            await self.waiter.until(lambda: handle.callbacks)
        finally:
            self.awaiting -= 1
        return handle.callbacks[0].choices


class BenchGame:
    """One channel, its players, and their random play."""

    def __init__(self, bench, index, channel, users, map_id, rng):
        from ttr_bot.ai import make_agent
        self.bench, self.index, self.channel, self.users = bench, index, channel, users
        self.map_id, self.rng = map_id, rng
        self.agent = make_agent("random", seed=rng.randrange(1 << 30))
        self.by_id = {u.id: u for u in users}
        self.game_id = None
        self.pending = {}           # user id -> their latest answer with components
        self.finished = False
        self.turns = 0
        self.failures = 0

    @property
    def service(self):
        return self.bench.bot.service

    def buttons(self):
        return self.rng.random() < self.bench.args.buttons

    async def think(self):
        if self.bench.args.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.bench.args.think))

    async def open(self):
        b = self.bench
        host, others = self.users[0], self.users[1:]
        # each game has a channel of its own here already: no thread (the default) on top
        await b.slash(self, host, "new", map=self.map_id, thread=False)
        b.board.update()
        lobby = b.board.lobby[self.channel.id]       # posted before the answer
        self.game_id = int(find_cid(lobby, "ttr:lobby:").split(":")[2])
        for user in others:
            if self.buttons():
                await b.click(user, lobby, f"ttr:lobby:{self.game_id}:join", "join")
            else:
                await b.slash(self, user, "join")
        for level in b.bot_levels:
            await b.slash(self, host, "addbot", level=level)
        if self.buttons():
            await b.click(host, lobby, f"ttr:lobby:{self.game_id}:start", "start")
        else:
            await b.slash(self, host, "start")

    async def play(self):
        await self.open()
        limit = self.bench.args.turns
        while True:
            loaded = await self.service.load(self.game_id)
            game = loaded.game
            self.turns = game.turn
            if game.over:
                self.finished = True
                return
            if limit and game.turn >= limit:
                return
            seats = game.to_move() if game.phase == "setup" else game.to_move()[:1]
            seats = [s for s in seats if loaded.seats[s].user_id is not None]
            if not seats:       # only computer players are to move: they do it on their timers
                await self.computer_moves(loaded.seq)
                continue
            results = await asyncio.gather(*(self.move(loaded.seats[s].user_id) for s in seats),
                                           return_exceptions=True)
            for r in results:
                if isinstance(r, BaseException):
                    if not isinstance(r, (ValueError, LookupError, TimeoutError)):
                        raise r
                    # a component gone by the time it was clicked: look again and go on
                    self.bench.problems[f"driver: {type(r).__name__}"] += 1
                    self.failures += 1
                    if self.failures > 50:
                        raise RuntimeError(f"game {self.index}: too many failed steps") from r

    async def computer_moves(self, seq):
        """Until the game moves on from `seq` (a computer player moved)."""
        start = time.monotonic()
        while (await self.service.load(self.game_id)).seq == seq:
            if time.monotonic() > start + BOT_TIMEOUT:
                raise RuntimeError(f"game {self.index}: the computer player did not move")
            await asyncio.sleep(BOT_POLL)
        self.bench.bot_waits.append(time.monotonic() - start)

    # ----- one move -------------------------------------------------------------------------------
    async def move(self, user_id):
        from ttr_bot.engine.actions import (
            BuildStation,
            ClaimRoute,
            DrawCard,
            DrawTickets,
            KeepTickets,
            Pass,
            TunnelDecline,
            TunnelPay,
        )
        from ttr_bot.engine.cards import CARD_NAMES, N_COLORS
        b, user = self.bench, self.by_id[user_id]
        await self.think()
        loaded = await self.service.load(self.game_id)
        _, v = await self.service.moves.player_view(self.game_id, user_id)
        action = self.agent.act(v)
        gid, seq = loaded.id, loaded.seq
        buttons = self.buttons()
        pending = self.pending.get(user_id)

        def current_panel():
            b.board.update()
            panel = b.board.panel.get(self.channel.id)
            return panel if panel is not None and \
                f"ttr:draw:{gid}:{seq}:deck" in panel.custom_ids() else None
        panel = current_panel()
        if buttons and panel is None and v.phase == "play" and v.step == "idle":
            # the turn's panel is posted after its board is drawn: a player who clicks waits
            try:
                await b.waiter.until(lambda: current_panel() is not None, timeout=PANEL_WAIT)
            except TimeoutError:
                b.problems["panel not posted within %g s" % PANEL_WAIT] += 1
            panel = current_panel()
        msg = None
        if isinstance(action, KeepTickets):
            if buttons:
                source = pending if pending is not None and find_cid(pending, "ttr:keep:") else None
                start = b.board.start.get(self.channel.id)
                if source is None and v.phase == "setup" and start is not None:
                    source = await b.click(user, start, f"ttr:hand:{gid}", "hand")
                cid = find_cid(source, "ttr:keep:") if source is not None else None
                if cid:
                    msg = await b.select(user, source, cid, action.tickets, "keep")
            if msg is None:
                positions = ",".join(str(v.offer.index(x) + 1) for x in action.tickets)
                msg = await b.slash(self, user, "keep", tickets=positions)
        elif isinstance(action, DrawCard):
            src = "deck" if action.card < 0 else CARD_NAMES[action.card]
            cid = f"ttr:draw:{gid}:{seq}:{src}"
            source = pending if v.step == "second_card" else panel
            if buttons and source is not None and cid in source.custom_ids():
                msg = await b.click(user, source, cid, "draw")
            else:
                msg = await b.slash(self, user, "draw", source=src)
        elif isinstance(action, ClaimRoute):
            msg = await self.claim(user, v, action, gid, seq, panel, buttons)
        elif isinstance(action, DrawTickets):
            cid = f"ttr:tickets:{gid}:{seq}"
            if buttons and panel is not None and cid in panel.custom_ids():
                msg = await b.click(user, panel, cid, "tickets")
                if f"{cid}:go" in msg.custom_ids():     # asked first (/ttr me confirm)
                    msg = await b.click(user, msg, f"{cid}:go", "tickets")
            else:
                msg = await b.slash(self, user, "tickets")
        elif isinstance(action, (TunnelPay, TunnelDecline)):
            from ttr_bot.discord.controls import ids
            op = "decline" if isinstance(action, TunnelDecline) else \
                "pay:" + ids.encode_cards(action.cards)
            cid = f"ttr:tunnel:{gid}:{seq}:{op}"
            if buttons and pending is not None and cid in pending.custom_ids():
                msg = await b.click(user, pending, cid, "tunnel")
            else:
                msg = await b.slash(self, user, "tunnel",
                                    choice="decline" if op == "decline" else "pay")
                if find_cid(msg, "ttr:tunnel:"):     # which way to pay: only buttons say it
                    pick = cid if cid in msg.custom_ids() else find_cid(msg, "ttr:tunnel:")
                    msg = await b.click(user, msg, pick, "tunnel")
        elif isinstance(action, BuildStation):
            color = next((CARD_NAMES[c] for c in range(N_COLORS) if action.cards[c]), "locomotive")
            msg = await b.slash(self, user, "station", city=str(action.city), color=color)
            msg = await self.pay(user, msg, gid, seq, "s", action.city, action.cards, "station")
        elif isinstance(action, Pass):
            msg = await b.slash(self, user, "pass")
        self.pending[user_id] = msg if msg is not None and msg.custom_ids() else None

    async def pay(self, user, msg, gid, seq, what, target, cards, kind):
        from ttr_bot.discord.controls import ids
        if not find_cid(msg, "ttr:pay:"):
            return msg
        cid = f"ttr:pay:{gid}:{seq}:{what}{target}:{ids.encode_cards(cards)}"
        if cid not in msg.custom_ids():
            cid = find_cid(msg, "ttr:pay:")
        return await self.bench.click(user, msg, cid, kind)

    async def claim(self, user, v, action, gid, seq, panel, buttons):
        from ttr_bot.engine import payment
        from ttr_bot.engine.cards import CARD_NAMES, LOCO
        b = self.bench
        board = v.board
        route = board.routes[action.route]
        cid = f"ttr:claim:{gid}:{seq}"
        if buttons and panel is not None and cid in panel.custom_ids():
            menu = await b.click(user, panel, cid, "claim")
            sel = find_cid(menu, "ttr:route:")
            options = [o["value"] for o in menu.component(sel)["options"]] if sel else []
            if str(action.route) in options:
                msg = await b.select(user, menu, sel, [action.route], "claim")
                return await self.pay(user, msg, gid, seq, "r", action.route, action.cards, "claim")
        typed = f"{board.nodes[route.a].name} {board.nodes[route.b].name}"
        choices = await b.autocomplete(self, user, "claim", "route", typed)
        value = next((c["value"] for c in choices if c["value"] == str(action.route)),
                     str(action.route))
        used = payment.route_payment(board.rules, route, action.cards)
        color = "locomotive" if used < 0 else CARD_NAMES[used]
        return await b.slash(self, user, "claim", route=value, color=color,
                             locomotives=action.cards[LOCO])


class LoopLag:
    """How late a 10 ms ticker wakes up: the event loop's stalls (and, while at it, how many
    interactions are awaiting their answer)."""

    def __init__(self, bench, period=0.010):
        self.bench, self.period = bench, period
        self.lags = []

    async def run(self):
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(self.period)
            self.lags.append(loop.time() - t0 - self.period)
            self.bench.in_flight.append(self.bench.awaiting)


class ErrorCount(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


async def run(args, fakediscord):
    from ttr_bot.discord.bot import TTRBot
    from ttr_bot.discord.config import Config
    from ttr_bot.service import SERVER_LOBBIES

    rng = random.Random(args.seed)
    maps = args.maps.split(",")
    counts = [int(n) for n in args.players.split(",")]
    errors = ErrorCount()
    logging.getLogger("ttr_bot").addHandler(errors)
    with tempfile.TemporaryDirectory(prefix="ttr-bench-discord-") as tmp:
        async with fakediscord.FakeDiscord() as fake:
            guild = fake.add_guild("Bench")
            bot = TTRBot(Config(token=fake.token, db_path=str(Path(tmp) / "bench.sqlite3")))
            await fake.start_bot(bot)
            await bot.tree.sync()
            bot.service.core.seeds = random.Random(args.seed)
            # every table of the bench is one server's, its lobbies open at once
            bot.service.lobby.server_lobbies = max(args.games, SERVER_LOBBIES)
            bench = Bench(fake, bot, args)
            games = []
            for i in range(args.games):
                channel = fake.add_text_channel(guild, f"table-{i + 1}")
                n = rng.choice(counts)
                users = [fake.add_user(f"p{i + 1}_{k + 1}", guild=guild) for k in range(n)]
                games.append(BenchGame(bench, i, channel, users, maps[i % len(maps)],
                                       random.Random(rng.randrange(1 << 30))))
            lag = LoopLag(bench)
            lag_task = asyncio.create_task(lag.run())
            bench.waiter.start()
            first = len(fake.interactions)
            t0 = time.perf_counter()
            results = await asyncio.gather(*(g.play() for g in games), return_exceptions=True)
            wall = time.perf_counter() - t0
            lag_task.cancel()
            await bench.waiter.stop()
            await fake.stop_bot(bot)
            crashed = [(g.index, r) for g, r in zip(games, results) if isinstance(r, BaseException)]
            handles = list(fake.interactions.values())[first:]
            report = dict(bot_delay=bot.service.core.bot_delay, pictures=dict(bot.pictures.stats),
                          workers=bot.workers.size, games=games, handles=handles, wall=wall, lag=lag.lags, bench=bench,
                          in_flight=bench.in_flight,
                          crashed=crashed, violations=list(fake.violations),
                          unhandled=list(fake.unhandled_requests),
                          bot_errors=fake.bot_errors() + errors.records)
    logging.getLogger("ttr_bot").removeHandler(errors)
    return report


def show(report, args):
    handles, games, bench = report["handles"], report["games"], report["bench"]
    by_kind = defaultdict(list)
    unanswered = 0
    for h in handles:
        if h.latency is None:
            unanswered += 1
            continue
        by_kind[KINDS.get(h.type, str(h.type))].append(h.latency)
    every = sorted(x for values in by_kind.values() for x in values)
    ms = 1000

    def line(name, values):
        values = sorted(values)
        return (f"  {name:<13} {len(values):>6}  p50 {percentile(values, 50) * ms:7.1f}  "
                f"p95 {percentile(values, 95) * ms:7.1f}  p99 {percentile(values, 99) * ms:7.1f}  "
                f"max {values[-1] * ms if values else float('nan'):7.1f} ms")

    finished = sum(g.finished for g in games)
    turns = sum(g.turns for g in games)
    bots = f" + computer players {args.bots}" if args.bots else ""
    print(f"Discord adapter: {len(games)} games at once ({args.maps}; {args.players} human "
          f"players{bots}; --turns {args.turns or 'unlimited'}; buttons {args.buttons:.0%}; "
          f"think {args.think:g} s)")
    print("acknowledgement latency (dispatch -> first callback), interactions:")
    print(line("all", every))
    for kind in ("command", "component", "autocomplete"):
        if by_kind.get(kind):
            print(line(kind, by_kind[kind]))
    p99 = percentile(every, 99)
    print(f"  target p99 <= {TARGET_P99 * ms:.0f} ms: {'met' if p99 <= TARGET_P99 else 'MISSED'}")
    flight = report["in_flight"]
    print(f"interactions: {len(handles)} ({unanswered} never acknowledged); "
          f"{len(handles) / report['wall']:.0f} per second; awaiting an answer at once: "
          f"mean {sum(flight) / max(1, len(flight)):.0f}, max {max(flight, default=0)}")
    print(f"turns played: {turns}; games finished: {finished} of {len(games)}")
    print(f"wall time: {report['wall']:.1f} s")
    answers = sorted(x for _, x in bench.answer_times)
    print(f"answer seen by the player (dispatch -> first follow-up, 5 ms polling): "
          f"p50 {percentile(answers, 50) * ms:.0f}  p95 {percentile(answers, 95) * ms:.0f}  "
          f"p99 {percentile(answers, 99) * ms:.0f}  max {answers[-1] * ms:.0f} ms")
    per = defaultdict(list)
    for kind, x in bench.answer_times:
        per[kind].append(x)
    print("  by action: " + "; ".join(
        f"{kind} {len(xs)}: p50 {percentile(sorted(xs), 50) * ms:.0f} p99 "
        f"{percentile(sorted(xs), 99) * ms:.0f}"
        for kind, xs in sorted(per.items(), key=lambda kv: -len(kv[1]))) + " ms")
    lags = sorted(report["lag"])
    if lags:
        print(f"event loop stalls (10 ms ticker overshoot): p50 {percentile(lags, 50) * ms:.1f}  "
              f"p99 {percentile(lags, 99) * ms:.1f}  max {lags[-1] * ms:.1f} ms")
    if bench.bot_waits:
        waits = sorted(bench.bot_waits)
        print(f"computer moves: {len(waits)}; from the move before to the game moving on "
              f"(the {report['bot_delay']:g} s pause included, {BOT_POLL * ms:.0f} ms polling): "
              f"p50 {percentile(waits, 50):.2f}  p99 {percentile(waits, 99):.2f}  "
              f"max {waits[-1]:.2f} s")
    pics = report["pictures"]
    print(f"pictures: {pics['drawn']} drawn, {pics['reused']} reused, {pics['failed']} failed "
          f"({report['workers']} worker processes)")
    how = Counter()
    for (_, path), n in bench.how.items():
        how[path] += n
    print(f"moves by: {how['command']} commands, {how['component']} components")
    problems = dict(bench.problems)
    bad = report["violations"] or report["unhandled"] or report["bot_errors"] or report["crashed"]
    if problems:
        print(f"driver notes: {problems}")
    if bad:
        print(f"PROBLEMS: {len(report['violations'])} violations, {len(report['unhandled'])} "
              f"unhandled requests, {len(report['bot_errors'])} bot errors, "
              f"{len(report['crashed'])} crashed games")
        for v in report["violations"][:5]:
            print(f"  {v}")
        for e in report["bot_errors"][:5]:
            print(f"  bot error: {e}")
        for i, e in report["crashed"][:5]:
            print(f"  game {i}: {e!r}")
    else:
        print("every request passed the fake's checks (OpenAPI, limits, timing, protocol)")
    return 0 if p99 <= TARGET_P99 and not bad else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.bench discord",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once (50)")
    parser.add_argument("--turns", type=int, default=20,
                        help="stop each game after this many turns (20; 0: play to the end)")
    parser.add_argument("--maps", default="usa,europe", help="maps, in turn (usa,europe)")
    parser.add_argument("--players", default="2,3", help="human players per game, at random (2,3)")
    parser.add_argument("--bots", default="",
                        help="computer players per game, by level (e.g. hard, or medium,hard): "
                             "one seat each beside the humans; none by default")
    parser.add_argument("--buttons", type=float, default=0.5,
                        help="share of moves done with a component when there is one (0.5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player thinks before each move (0: none, the most "
                             "pressure; a few seconds is closer to people)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE",
                        help="cProfile the run (the event loop's thread) into FILE; print the top")
    args = parser.parse_args(argv)
    fakediscord = import_fake()
    if fakediscord is None:
        print(f"bench discord: the fake Discord is missing ({TESTKIT / 'fakediscord'})",
              file=sys.stderr)
        return 2
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    report = asyncio.run(run(args, fakediscord))
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return show(report, args)


if __name__ == "__main__":
    sys.exit(main())
