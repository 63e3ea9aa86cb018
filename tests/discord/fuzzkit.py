"""The fuzz test's world: the real bot over the fake Discord, in an event loop of its own thread
(hypothesis drives it from the test's thread), with one game in each phase and every value a
hostile or careless user could send.

Three channels hold a lobby, a game in play and a finished game (their channels' next game
is opened again whenever a fuzzed command starts, finishes or cancels one). Four users act:
the host, a second player, a third player and a member who plays in none of them.
"""
import asyncio
import logging
import random
import re
import threading

from testkit.e2e_driver import Table, find_cid
from testkit.fakediscord import FakeDiscord
from ttr_bot.ai import make_agent
from ttr_bot.discord.controls import ids
from ttr_bot.i18n import LOCALES, catalog, forms

ANSWER_TIMEOUT = 15.0       # seconds for the follow-up of a deferred interaction
ACK_LIMIT = 3.0             # Discord's limit for the first response
# what players type that is not what a form expects
TRICKY = ["", " ", "0", "-1", "²", "①,③", "٣", "۳", "1,1,1", "all", "*", "9" * 5000,
          str(2 ** 70), "Denver", "Denver El Paso", "denver – el paso · red 4", "ÅLBORG",
          "\u200f\u202e", "<@123>", "@everyone", "`code`", "x" * 6000, "None", "null",
          "'; DROP TABLE games; --", "\x00", "🚂🚂", "山田", "Göteborg", "1e9", "3.5", "NaN"]
# the families of catalog sentences that refuse something: after one of these, nothing changed
REFUSALS = ("illegal.", "service.", "bot.error.", "bot.claim.unknown_route", "bot.claim.ambiguous",
            "bot.claim.cannot_pay", "bot.claim.no_such_payment", "bot.claim.none",
            "bot.station.unknown_city", "bot.station.cannot_pay", "bot.station.none",
            "bot.keep.", "bot.tunnel.none", "bot.tunnel.cannot_pay", "bot.not_your_turn",
            "bot.not_started", "bot.lobby.closed", "bot.export.none", "bot.export.not_finished")


def _sentence_pattern(text):
    parts = re.split(r"\{[^}]*\}", text)
    return re.compile(".*".join(re.escape(p) for p in parts), re.S)


REFUSAL_PATTERNS = [_sentence_pattern(text) for key, value in catalog("en").items()
                    if key.startswith(REFUSALS) for text in forms(value)]


def is_refusal(content):
    return any(p.search(content or "") for p in REFUSAL_PATTERNS)


class ErrorLog(logging.Handler):
    """Every ERROR the bot's process logs (ttr_bot and discord.py alike)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.name}: {record.getMessage()}\n{record.exc_text or ''}")


class World:
    """The bot, the fake Discord and the games, on a loop in a thread of their own."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.errors = ErrorLog()
        logging.getLogger().addHandler(self.errors)

    def run(self, coro, timeout=120):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self):
        try:
            self.run(self._stop())
        finally:
            logging.getLogger().removeHandler(self.errors)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    # ----- setting up -----------------------------------------------------------------------------
    async def start(self):
        self.fake = FakeDiscord()
        await self.fake.start()
        self.table = Table(self.fake, self.tmp_path / "fuzz.sqlite3")
        guild = self.table.guild
        self.channels = {"lobby": self.table.channel,
                         "play": self.fake.add_text_channel(guild, "play"),
                         "done": self.fake.add_text_channel(guild, "done")}
        self.host = self.fake.add_user("host", guild=guild)
        self.second = self.fake.add_user("second", guild=guild)
        self.third = self.fake.add_user("third", guild=guild, locale="ja")
        self.outsider = self.fake.add_user("outsider", guild=guild, locale="fa")
        self.users = [self.host, self.second, self.third, self.outsider]
        await self.table.start_bot(sync=True)
        self.bot = self.table.bot
        await self.refresh()

    async def _stop(self):
        await self.table.settle()
        await self.fake.stop_bot(self.bot)
        await self.fake.stop()

    async def refresh(self):
        """Give each channel its game again if a fuzzed command moved it on."""
        svc = self.bot.service
        lobby = await svc.game_in_channel(self.channels["lobby"].id)
        if lobby is None or not lobby.is_lobby:
            if lobby is not None:
                await svc.lobby.cancel(self.channels["lobby"].id, self.host.id, is_admin=True)
            await self._open(self.channels["lobby"], (self.second,))
        play = await svc.game_in_channel(self.channels["play"].id)
        if play is None or not play.is_active:
            if play is not None:
                await svc.lobby.cancel(self.channels["play"].id, self.host.id, is_admin=True)
            await self._open(self.channels["play"], (self.second, self.third), start=True)
        if not getattr(self, "done_game", None):
            self.done_game = await self._finished_game(self.channels["done"])
        await self.table.settle()

    async def _open(self, channel, others, start=False):
        svc = self.bot.service
        # a lobby a fuzzed /ttr new (or Rematch) opened elsewhere is closed first: the host
        # may hold only MEMBER_LOBBIES, and the world's own come before the fuzz's
        own = {self.channels["lobby"].id, self.channels["play"].id}
        for stray in await svc.core.store.lobbies_in_guild(self.table.guild.id):
            if stray.host_id == self.host.id and stray.channel_id not in own:
                await svc.lobby.cancel(stray.channel_id, self.host.id, is_admin=True)
        hosted = await svc.lobby.open_lobby(guild_id=self.table.guild.id, channel_id=channel.id,
                                            user_id=self.host.id, name="host", map_id="europe")
        for user in others:
            await svc.lobby.join(channel.id, user.id, user.username)
        if start:
            await svc.lobby.start(channel.id, self.host.id)     # the outbox posts what is owed
            for user in (self.host, *others):      # everyone keeps their tickets
                _, v = await svc.moves.player_view(hosted.id, user.id)
                await svc.moves.act(hosted.id, user.id, v.legal_actions()[-1])
        return hosted.id

    async def _finished_game(self, channel):
        """A short game played to its end through the service (host against a computer),
        without posting its turns: only its end matters here."""
        svc = self.bot.service
        hosted = await svc.lobby.open_lobby(guild_id=self.table.guild.id, channel_id=channel.id,
                                            user_id=self.host.id, name="host", map_id="usa")
        await svc.lobby.add_bot(channel.id, self.host.id, "easy")
        await svc.lobby.start(channel.id, self.host.id)
        agent = make_agent("easy", seed=3)
        for _ in range(3000):
            hosted = await svc.load(hosted.id)
            if hosted.game.over:
                return hosted.id
            if 0 in hosted.game.to_move():
                await svc.moves.act(hosted.id, self.host.id, agent.act(hosted.view(0)))
            else:
                await svc.moves.play_bot(hosted.id)
            await asyncio.sleep(0)          # the gateway's heartbeats go on meanwhile
        raise AssertionError("the finished game did not finish")

    # ----- what can be observed -------------------------------------------------------------------
    async def games(self):
        """{game id: (status, seq, seat names)} of every game the channels have seen."""
        store = self.bot.service.core.store
        out = {}
        for channel in self.channels.values():
            for row in await _games_in(store, channel.id):
                seats = tuple(s.display_name for s in await store.list_seats(row.id))
                out[row.id] = (row.status, row.seq, seats)
        return out

    async def stored_locales(self):
        store = self.bot.service.core.store
        return {u.id: await store.get_locale(u.id) for u in self.users}

    async def latest_message(self, channel):
        msgs = [m for m in self.fake.messages_in(channel) if not m.ephemeral and m.custom_ids()]
        return msgs[-1] if msgs else (self.fake.messages_in(channel) or [None])[-1]

    async def known_ids(self):
        return sorted(await self.games())

    async def interact(self, send):
        """Send one interaction (`send(fake)` -> handle); (handle, answer text or None)."""
        handle = await send(self.fake)
        first = await handle.response(timeout=ANSWER_TIMEOUT)
        if first.type in (5, 6):            # deferred: the answer is the first follow-up
            text = (await handle.followup(0, timeout=ANSWER_TIMEOUT)).content
        elif first.type == 8:               # autocomplete choices
            text = None
        else:
            text = first.content
        return handle, text


async def _games_in(store, channel_id):
    """The channel's games, open or not (the store has no such query: read them by id)."""
    found, game_id = [], 1
    while True:
        row = await store.get_game(game_id)
        if row is None:
            return found
        if row.channel_id == channel_id:
            found.append(row)
        game_id += 1


def with_real_fields(custom_id, kind, game_ids, seqs, rng):
    """`custom_id` (made to match the template of `kind`) with its game and seq fields, half of
    the time, replaced by real ones: clicks on real games with made-up other fields."""
    match = re.fullmatch(ids.TEMPLATES[kind], custom_id)
    if match is None or rng.random() < 0.5:
        return custom_id
    out = custom_id
    for name, pool in (("seq", seqs), ("game", game_ids)):      # right to left: spans hold
        if name in match.groupdict() and match.group(name) is not None and pool:
            a, b = match.span(name)
            out = out[:a] + str(rng.choice(pool)) + out[b:]
    return out


FOREIGN_IDS = ["ttr:draw:1:2", "ttr:nothing:1", "not-ours", "ttr:" + "9" * 96]


def locales_ok(locales):
    return all(v is None or v in LOCALES for v in locales.values())


def first_cid(message, prefix):
    return find_cid(message, prefix) if message is not None else None


def seeded(seed):
    return random.Random(seed)
