"""FakeDiscord: a socket-level stand-in for Discord (REST + gateway) on 127.0.0.1.

    fake = FakeDiscord()
    await fake.start()                      # also points discord.py at it (Route.BASE, DEFAULT_GATEWAY)
    guild = fake.add_guild("Test")
    general = fake.add_text_channel(guild, "general")
    alice = fake.add_user("alice", guild=guild)
    await fake.start_bot(bot)               # bot.start(fake.token) in a task; returns once READY
    inter = await fake.slash(alice, general, "ttr", subcommand="draw", options={"n": 2})
    reply = await inter.response()          # Callback(type=4, data={...}, latency=...)
    fake.assert_clean()                     # no spec/limit/timing/protocol violations
    await fake.stop()
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any, Dict, List, Optional, Sequence

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from . import payloads
from .changes import WorldChangesMixin
from .gateway import INTENT_MESSAGE_CONTENT, Gateway
from .interactions import RESPONSE_DEADLINE, InteractionHandle, InteractionsMixin
from .ratelimits import RateLimitsMixin
from .rest import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, RecordedRequest, build_app
from .spec import SpecValidator
from .state import (
    BOT_PERMISSIONS,
    DM,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Clock,
    Guild,
    Member,
    Message,
    Role,
    State,
    User,
    Violation,
)

# discord.py's names for the tasks that run a bot's handlers (2.x: app_commands/tree.py,
# ui/view.py, ui/modal.py, client.py's `_schedule_event`)
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-", "discord.py: on_")
CALM_TURNS = 3  # loop turns in a row with nothing busy that make "idle"


class _ErrorLog(logging.Handler):
    """Collects ERROR records from the `discord` loggers (unhandled errors in commands/views)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        self.records.append(text)


class FakeDiscord(InteractionsMixin, WorldChangesMixin, RateLimitsMixin):
    def __init__(self, *, token: str = "fake-bot-token", clock: Optional[Clock] = None,
                 strict_timing: bool = False, compression: bool = True, patch_discord: bool = True,
                 auto_world: bool = False) -> None:
        self.token = token
        self.clock = clock or Clock()
        self.strict_timing = strict_timing  # late initial responses get 404 10062, as on real Discord
        self.compression = compression  # False: ignore ?compress= and send text frames
        self.patch_discord = patch_discord
        # a post to a channel id, or a DM to a user id, the fake does not know creates it (for
        # tests whose bot makes its ids up, e.g. the crash test's writer process)
        self.auto_world = auto_world
        self._auto_guild: Optional[Guild] = None
        self.state = State()
        self.gateway = Gateway(self)
        self.spec = SpecValidator()
        self.requests: List[RecordedRequest] = []
        self.unhandled_requests: List[str] = []
        self.violations: List[Violation] = []
        self.interactions: Dict[int, InteractionHandle] = {}
        self.blocked_dms: List[tuple] = []  # (user_id, body) of sends refused with 50007
        self.nonce_hits: List[int] = []  # ids of messages returned again for a repeated nonce
        self.nonce_window = 300.0  # seconds (fake clock) a nonce is remembered, as Discord's "few minutes"
        self.sync_count = 0  # how many bulk command overwrites (tree.sync) were received
        self.in_flight = 0  # REST requests received and not yet answered
        self.silenced: Dict[int, asyncio.Event] = {}  # channel id -> set when it answers again
        self.held_quiet = 0  # of those in flight, how many a silent channel holds (not the bot's doing)
        self.bursts = []  # 429s a test asked for (ratelimits.py: fake.rate_limit)
        self.base_url = ""
        self.gateway_url = ""
        self._runner: Optional[web.AppRunner] = None
        self._saved_patch: Optional[tuple] = None
        self._errors = _ErrorLog()
        self._bot_tasks: Dict[Any, asyncio.Task] = {}

    # -- lifecycle ---------------------------------------------------------------
    async def start(self) -> "FakeDiscord":
        app = build_app(self)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        if self.patch_discord:
            self._saved_patch = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
            Route.BASE = self.base_url + "/api/v10"
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        logging.getLogger("discord").addHandler(self._errors)
        return self

    async def stop(self) -> None:
        for bot in list(self._bot_tasks):
            await self.stop_bot(bot)
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved_patch is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_patch
            self._saved_patch = None
        logging.getLogger("discord").removeHandler(self._errors)

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def start_bot(self, bot: discord.Client, *, timeout: float = 10.0, fast: bool = True) -> asyncio.Task:
        """Run `bot.start(token)` in a task and return once the bot is READY.

        `fast` removes two real-Discord waits from this bot instance (nothing else is changed):
        discord.py waits `guild_ready_timeout` (2 s) after the last GUILD_CREATE before READY
        (the fake sends them all at once, so 0.05 s is enough), and `before_identify_hook`
        sleeps 5 s before every re-IDENTIFY (identify rate limit) after a lost session.
        """
        if fast:
            bot._connection.guild_ready_timeout = 0.05

            async def no_identify_delay(shard_id, *, initial: bool = False) -> None:
                return None

            bot.before_identify_hook = no_identify_delay  # type: ignore[method-assign]
        task = asyncio.create_task(bot.start(self.token), name="fakediscord-bot")
        self._bot_tasks[bot] = task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the bot's startup error
            raise TimeoutError(f"bot not ready after {timeout}s; errors: {self.bot_errors()}")
        return task

    async def stop_bot(self, bot: discord.Client) -> None:
        await bot.close()
        task = self._bot_tasks.pop(bot, None)
        if task is not None:
            try:
                await asyncio.wait_for(task, 5)
            except Exception:
                pass

    # -- world building ------------------------------------------------------
    def add_guild(self, name: str = "Test Guild", *, owner: Optional[User] = None, locale: str = "en-US",
                  bot_permissions: int = BOT_PERMISSIONS, everyone_permissions: int = EVERYONE_PERMISSIONS) -> Guild:
        st = self.state
        if owner is None:
            owner = self.add_user(f"{name.lower().replace(' ', '_')}_owner")
        g = Guild(st.ids.next(), name, owner.id, locale=locale)
        g.roles[g.id] = Role(g.id, "@everyone", everyone_permissions)
        bot_role = Role(st.ids.next(), st.bot.username, bot_permissions, position=1, managed=True)
        g.roles[bot_role.id] = bot_role
        st.guilds[g.id] = g
        self.add_member(g, owner)
        self.add_member(g, st.bot, roles=[bot_role])
        return g

    def add_user(self, username: str, *, guild: Optional[Guild] = None, guilds: Sequence[Guild] = (),
                 dms_closed: bool = False, locale: str = "en-US", global_name: Optional[str] = None,
                 roles: Sequence[Role] = ()) -> User:
        u = User(self.state.ids.next(), username, global_name=global_name, dms_closed=dms_closed, locale=locale)
        self.state.users[u.id] = u
        for g in ([guild] if guild else []) + list(guilds):
            self.add_member(g, u, roles=roles)
        return u

    def add_member(self, guild: Guild, user: User, *, roles: Sequence[Role] = (), nick: Optional[str] = None) -> Member:
        m = Member(user, guild.id, [r.id for r in roles], nick=nick)
        guild.members[user.id] = m
        return m

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        r = Role(self.state.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[r.id] = r
        return r

    def add_text_channel(self, guild: Guild, name: str, *, topic: Optional[str] = None,
                         bot_can_send: bool = True) -> Channel:
        ch = Channel(self.state.ids.next(), GUILD_TEXT, name, guild_id=guild.id, topic=topic,
                     position=len(guild.channel_ids), bot_can_send=bot_can_send)
        self.state.channels[ch.id] = ch
        guild.channel_ids.append(ch.id)
        return ch

    def add_thread(self, parent: Channel, name: str, *, private: bool = False, owner: Optional[User] = None,
                   invitable: bool = True, thread_id: Optional[int] = None) -> Channel:
        th = Channel(thread_id or self.state.ids.next(), PRIVATE_THREAD if private else PUBLIC_THREAD, name,
                     guild_id=parent.guild_id, parent_id=parent.id, owner_id=(owner or self.state.bot).id,
                     invitable=invitable)
        self.state.channels[th.id] = th
        self.state.guilds[parent.guild_id].channel_ids.append(th.id)
        return th

    def auto_channel(self, channel_id: int) -> Channel:
        if self._auto_guild is None:
            self._auto_guild = self.add_guild("auto")
        ch = Channel(channel_id, GUILD_TEXT, f"auto-{channel_id}", guild_id=self._auto_guild.id)
        self.state.channels[ch.id] = ch
        self._auto_guild.channel_ids.append(ch.id)
        return ch

    def auto_user(self, user_id: int) -> User:
        u = User(user_id, f"user{user_id}")
        self.state.users[u.id] = u
        return u

    def dm_channel(self, user: User) -> Channel:
        return self.state.dm_channel_for(user.id)

    @property
    def bot_user(self) -> User:
        return self.state.bot

    # -- what happened -------------------------------------------------------
    def add_bot_message(self, channel: Channel, content: str = "", *, components: Sequence[dict] = (),
                        flags: int = 0) -> Message:
        """A message the bot posted before the test began (e.g. by an older version of it)."""
        m = Message(id=self.state.ids.next(), channel_id=channel.id, author_id=self.state.bot.id,
                    content=content, components=list(components), flags=flags)
        self.state.messages[m.id] = m
        return m

    def messages_in(self, channel: Channel, *, include_ephemeral: bool = False) -> List[Message]:
        """Messages visible in a channel (or thread), oldest first; deleted ones excluded."""
        return sorted(self.state.channel_messages(channel.id, include_ephemeral), key=lambda m: m.id)

    def dms_to(self, user: User) -> List[Message]:
        """Messages the bot delivered to the user's DM channel (refused ones are in `blocked_dms`)."""
        ch = self.state.dm_channel_for(user.id)
        return [m for m in self.messages_in(ch) if m.author_id == self.state.bot.id]

    def ephemeral_replies_to(self, user: User) -> List[Message]:
        """Ephemeral interaction messages only `user` can see, oldest first (includes 'thinking' ones)."""
        return sorted((m for m in self.state.messages.values()
                       if m.ephemeral_to == user.id and m.flags & EPHEMERAL and not m.deleted), key=lambda m: m.id)

    def last_message(self, channel: Channel) -> Optional[Message]:
        msgs = self.messages_in(channel)
        return msgs[-1] if msgs else None

    def commands(self, guild: Optional[Guild] = None) -> Dict[str, dict]:
        """Synced commands (name -> definition as PUT) for a guild, or the global ones."""
        return {c.name: c.data for c in self.state.commands_for(guild.id if guild else None)}

    def _violation(self, kind: str, method: str, path: str, message: str) -> None:
        self.violations.append(Violation(kind, method, path, message))

    def _of_kind(self, kind: str) -> List[Violation]:
        return [v for v in self.violations if v.kind == kind]

    @property
    def spec_violations(self) -> List[Violation]:
        return self._of_kind("spec")

    @property
    def limit_violations(self) -> List[Violation]:
        return self._of_kind("limit")

    @property
    def timing_violations(self) -> List[Violation]:
        return self._of_kind("timing")

    @property
    def protocol_violations(self) -> List[Violation]:
        return self._of_kind("protocol")

    def bot_errors(self) -> List[str]:
        """ERROR log records from discord.py (e.g. 'Ignoring exception in command ...')."""
        return list(self._errors.records)

    def assert_clean(self, *, errors: bool = True) -> None:
        """Fail if the bot did anything real Discord would refuse, or hit an unknown route,
        or (with `errors`) if discord.py logged an unhandled error."""
        problems = [str(v) for v in self.violations]
        problems += [f"[unhandled route] {r}" for r in self.unhandled_requests]
        if errors:
            problems += [f"[bot error] {e}" for e in self.bot_errors()]
        if problems:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(problems))

    # -- gateway controls ------------------------------------------------------
    async def wait_connected(self, timeout: float = 5.0) -> None:
        await self.gateway.wait_connected(timeout)

    async def disconnect(self, code: int = 4000) -> None:
        """Drop every gateway socket; sessions survive, so clients RESUME."""
        await self.gateway.disconnect(code)

    async def restart(self, code: int = 4000) -> None:
        """Drop every socket and forget sessions (a Discord-side restart): clients must IDENTIFY."""
        await self.gateway.disconnect(code, invalidate=True)

    @contextlib.asynccontextmanager
    async def outage(self, code: int = 4000, *, invalidate: bool = False):
        """Drop every gateway socket and keep the gateway silent until the block ends (reconnecting
        clients get no HELLO meanwhile); events dispatched inside the block are queued on the
        sessions and replayed on RESUME. `invalidate`: sessions are lost, clients must IDENTIFY."""
        self.gateway.pause()
        try:
            await self.gateway.disconnect(code, invalidate=invalidate)
            yield
        finally:
            self.gateway.resume_accepting()

    @contextlib.asynccontextmanager
    async def silent(self, channel: Channel):
        """Requests about this channel (its messages, its posts) are taken and left unanswered
        until the block ends, then handled in order as usual, whether or not the client still
        waits: a Discord or a network gone quiet mid-request. Other channels answer meanwhile."""
        quiet = self.silenced[channel.id] = asyncio.Event()
        try:
            yield
        finally:
            del self.silenced[channel.id]
            quiet.set()

    def busy(self) -> List[str]:
        """What the bot is still doing, at this moment (empty: it has finished reacting): REST
        requests in flight (but those a silent channel holds), interactions not yet answered (within their 3 s), discord.py's
        handler tasks still running (commands, components, modals, events), and each started
        bot that has a `busy` attribute saying it has work in hand (TTRBot: its timers and
        owed posts)."""
        out = []
        if self.in_flight > self.held_quiet:
            out.append(f"{self.in_flight - self.held_quiet} REST request(s) in flight")
        now = self.clock.now()
        unanswered = []
        for h in reversed(self.interactions.values()):     # newest first: only the recent count
            if now - h.created_at >= RESPONSE_DEADLINE:
                break
            if not h.callbacks:
                unanswered.append(h.describe())
        if unanswered:
            out.append(f"interactions not answered yet: {unanswered}")
        handlers = [t.get_name() for t in asyncio.all_tasks()
                    if t.get_name().startswith(HANDLER_TASKS) and not t.done()]
        if handlers:
            out.append(f"discord.py handlers running: {handlers}")
        out += [f"{bot!r} is busy" for bot in self._bot_tasks
                if not bot.is_closed() and getattr(bot, "busy", False)]
        return out

    async def idle(self, quiet: Optional[float] = None, timeout: float = 5.0) -> None:
        """Until the bot has finished reacting: every event sent has been read (`gateway.
        caught_up`), and then nothing is `busy()` for a few loop turns in a row (a task that
        ends may wake another in the next turn). Counted, not timed: `quiet` (the silence
        window this once waited for) is accepted and ignored."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        calm, poll = 0, 0.0005
        while calm < CALM_TURNS:
            if loop.time() > end:
                raise TimeoutError(f"the bot did not finish reacting in {timeout}s: "
                                   f"{'; '.join(self.busy())}; errors: {self.bot_errors()[-3:]}")
            await self.gateway.caught_up(max(0.1, end - loop.time()))
            calm = 0
            while calm < CALM_TURNS and not self.busy():
                calm += 1
                await asyncio.sleep(0)
            if calm < CALM_TURNS:       # looked at again soon, less often the longer it takes
                await asyncio.sleep(poll)
                poll = min(poll * 2, 0.01)

    async def post_message(self, user: User, channel: Channel, content: str) -> Message:
        """A user writes in a channel: stored and dispatched as MESSAGE_CREATE (content only to
        sessions with the MESSAGE_CONTENT intent, unless it is a DM or mentions the bot)."""
        m = Message(self.state.ids.next(), channel.id, user.id, content=content)
        m.mentions = [self.state.bot.id] if self.state.bot.mention in content else []
        self.state.messages[m.id] = m
        full = payloads.message(m, self.state, self.base_url)
        if channel.guild_id:
            full["member"] = payloads.member(self.state.guilds[channel.guild_id].members[user.id], with_user=False)
        stripped = {**full, "content": "", "embeds": [], "attachments": [], "components": []}
        intent = INTENT_DIRECT_MESSAGES if channel.type == DM else INTENT_GUILD_MESSAGES
        for sess in self.gateway.live_sessions():
            if sess.intents & intent:
                sees = sess.intents & INTENT_MESSAGE_CONTENT or channel.type == DM or m.mentions
                await self.gateway._send_dispatch(sess, "MESSAGE_CREATE", full if sees else stripped)
        return m
