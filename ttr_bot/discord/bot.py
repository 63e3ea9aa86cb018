"""The Bot subclass: async setup in `setup_hook`, locales, shutdown.

`setup_hook` (run once by discord.py before connecting) loads the cogs under the one /ttr group,
registers the persistent dynamic items, starts the worker processes (TTR_WORKERS: computer
players think and pictures are drawn there, `self.workers`), opens the game service on the
configured database (running migrations, starting its scheduler and resuming every game:
computer players move by themselves) and starts the outbox worker, which sends whatever the
service recorded as owed (every post and DM, whoever's move caused it) through `Delivery`.
With `sync_only` the workers and the service are skipped: `python bot.py sync` only needs the
command tree. A deleted channel or thread (gateway CHANNEL_DELETE / THREAD_DELETE, which the
guilds intent brings) closes its game; so does removal from a server (GUILD_DELETE); a channel,
role, thread or own-member update retries the server's refused channels at once. A ban
(GUILD_BAN_ADD, which the moderation intent brings) hands the player's seats over at once, and
a click from a DM is checked against the game's server first (membership.py).

Several processes (TTR_SHARD_COUNT, TTR_SHARD_IDS; docs/scaling.md): `make_bot` builds a
`ShardedTTRBot`, discord.py's AutoShardedBot running only this process's shards; the service
then fires the timers and sends the posts of those shards' servers only, and an interaction
of another server is refused with a message (errors.refuse_other_shard). With TTR_SYNC=1 the
process that runs shard 0 pushes the commands at start.
"""
import logging
import time

import discord
from discord.ext import commands

from ..bounded import LRUDict
from ..i18n import normalize
from ..render import shaping_problem
from ..service import GameService, Shards, configured_agents, open_service
from ..workers import WorkerPool
from . import errors
from .commands import all_cogs, ttr_group
from .controls import components, ids, moves  # noqa: F401  (moves registers the panel's clicks)
from .membership import Membership
from .posting.cooldown import PictureCooldown
from .posting.delivery import Delivery
from .posting.outbox_worker import OutboxWorker
from .posting.pictures import Pictures
from .posting.renderers import RENDERERS
from .translator import CatalogTranslator

log = logging.getLogger(__name__)
USERS_REMEMBERED = 10_000
# what each worker imports before its first task: the computer players, the pictures, the maps
PRELOAD = ("ttr_bot.ai", "ttr_bot.render", "ttr_bot.maps")
PICTURE_LANE = 1    # workers besides TTR_WORKERS that take only pictures and films (pool.py)
RATE_LIMIT_WAIT = 30.0  # seconds discord.py may sleep on one 429 (its least allowed value)


def intents():
    """No privileged intents: slash commands and components need only the guilds intent; the
    moderation intent (not privileged) tells the bot at once when a player is banned."""
    value = discord.Intents.none()
    value.guilds = True
    value.moderation = True
    return value


class TTRBot(commands.Bot):
    def __init__(self, config, *, sync_only=False, clock=time.time, bot_delay=2.0,
                 agents=None, workers=None, **kwargs):
        kwargs.setdefault("intents", intents())
        # discord.py waits out a 429 itself, sleeping its retry_after inside the request (five
        # tries at most); a longer wait raises RateLimited instead, which the outbox schedules
        # after retry_after without holding a send (retries.py)
        kwargs.setdefault("max_ratelimit_timeout", RATE_LIMIT_WAIT)
        if config.sharded:
            kwargs.setdefault("shard_count", config.shard_count)
            if config.shard_ids is not None:
                kwargs.setdefault("shard_ids", list(config.shard_ids))
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         tree_cls=errors.Tree, allowed_mentions=discord.AllowedMentions.none(),
                         **kwargs)
        self.config = config
        self.sync_only = sync_only
        self.clock = clock
        # the game service, None until setup_hook opens it (never with sync_only): the lifecycle
        # checks read this; everything else reads `service`, which is never None
        self.service_or_none: GameService | None = None
        self.served = Shards(*config.my_shards)     # the servers this process serves (shards)
        self.delivery = Delivery(self, clock=clock, renderers=RENDERERS)
        self.membership = Membership(self, clock)
        self.outbox = OutboxWorker(self, self.delivery, clock)
        # a started WorkerPool to share (tests start one for many bots), else the bot's own
        self.workers = workers
        self._own_workers = workers is None
        self.pictures = Pictures(workers)
        self.picture_cooldown = PictureCooldown(clock=clock)
        self.ttr = ttr_group()
        self._bot_delay = bot_delay
        self._agents = agents
        # user id -> stored /ttr me language choice (None: none); -> locale of their latest
        # interaction. Bounded: a forgotten user's choice is read from the store again
        self._locale_override = LRUDict(USERS_REMEMBERED)
        self._seen_locale = LRUDict(USERS_REMEMBERED)

    # ----- setup -------------------------------------------------------------------------------
    async def setup_hook(self):
        await self.tree.set_translator(CatalogTranslator())
        for cog in all_cogs():
            await self.add_cog(cog(self))
        self.tree.add_command(self.ttr)
        if self.sync_only:
            return
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        if self.workers is None:
            # they boot while the bot connects; a task asked for meanwhile waits for the first
            # one more worker than configured, for pictures and films alone: a burst of
            # computer players' decisions never makes players wait for what they see
            self.workers = WorkerPool(self.config.workers, preload=PRELOAD, reserve=PICTURE_LANE)
            await self.workers.start()
        self.pictures.workers = self.workers
        self.service_or_none = await open_service(
            self.config.db_path, clock=self.clock, bot_delay=self._bot_delay,
            agents=self._agents or configured_agents(self.config.expert_seconds),
            on_outbox=self.outbox.wake, workers=self.workers,
            shards=self.served if self.config.sharded else None)
        self.loop.create_task(self._start_outbox(), name="ttr-outbox-start")
        log.info("set up: database %s, %s, %d worker processes", self.config.db_path,
                 self.served, self.workers.size)
        problem = shaping_problem()          # the workers draw on this system too
        if problem:
            log.warning(problem)
        if self.config.syncs_commands:
            await sync_tree(self, self.config.dev_guild)

    @property
    def service(self) -> GameService:
        """The game service (the parts are its API: service.moves.act); opened in `setup_hook`,
        before the bot connects, so every interaction and owed post finds it. Before that (or
        with `sync_only`), errors.ServiceNotOpen."""
        if self.service_or_none is None:
            raise errors.ServiceNotOpen("the game service is not open yet: TTRBot.setup_hook "
                                        "opens it (a bot made with sync_only never does)")
        return self.service_or_none

    @property
    def busy(self):
        """Whether the bot has work in hand that no one is waiting on: a timer firing or due,
        a post or DM owed and due, or the outbox worker not yet started after READY (what a
        health check would read; the end-to-end tests wait until it is False and the fake
        Discord has nothing in flight). Interactions are discord.py's tasks, not counted here."""
        service = self.service_or_none
        if service is None or self.is_closed():
            return False
        return not self.outbox.running or self.outbox.busy or service.busy

    def serves(self, guild_id):
        """Whether this process serves that server (None: a DM, shard 0's)."""
        return self.served.owns(guild_id)

    async def on_interaction(self, interaction):
        """A click discord.py will not hand to any control — its id matches none of today's (a
        message from an older version of the bot), or the message does not carry it (a forged
        request) — would stay unanswered, and the player would see "This interaction failed".
        Say instead that the control is out of date."""
        if interaction.type is not discord.InteractionType.component:
            return
        if not self.serves(interaction.guild_id):
            return              # answered by the item's check, or by the command tree's
        data = interaction.data or {}
        custom_id = data.get("custom_id", "")
        if ids.parse(custom_id) is None or not _carries(interaction.message,
                                                        data.get("component_type"), custom_id):
            await errors.handle(interaction, errors.UserFacing("bot.error.old_control"))

    async def _start_outbox(self):
        # after READY: posts need the guild cache (languages, permissions)
        await self.wait_until_ready()
        self.outbox.start()

    async def on_guild_channel_delete(self, channel):
        if self.service_or_none is not None:
            await self.service_or_none.absence.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload):
        if self.service_or_none is not None:
            await self.service_or_none.absence.channel_gone(payload.thread_id)

    # a permission may be back: the server's refused channels are tried at once (refusals.py)
    async def on_guild_channel_update(self, before, after):
        await self.outbox.permissions_changed(after.guild.id)

    async def on_guild_role_update(self, before, after):
        await self.outbox.permissions_changed(after.guild.id)

    async def on_member_update(self, before, after):
        if self.user is not None and after.id == self.user.id:     # sent without the intent
            await self.outbox.permissions_changed(after.guild.id)

    async def on_guild_available(self, guild):     # after an outage of the server
        await self.outbox.permissions_changed(guild.id)

    async def on_raw_thread_update(self, payload):
        # raw: discord.py drops archived threads from its cache (and their update events)
        await self.outbox.permissions_changed(payload.guild_id)

    async def on_member_ban(self, guild, user):
        """A player banned from the server leaves its games at once (membership.py)."""
        await self.membership.left(guild.id, user.id)

    async def on_guild_remove(self, guild):
        """Removed from the server (not an outage: discord.py reports that as unavailable):
        its games are closed, their players told by DM where Discord lets the bot."""
        if self.service_or_none is not None:
            closed = await self.service_or_none.queue.guild_gone(guild.id)
            log.info("removed from server %s: closed games %s", guild.id, closed)

    async def close(self):
        if self.service_or_none is not None:
            await self.service_or_none.stop()
            if self.outbox.running:
                await self.outbox.drain(timeout=10)
        await self.outbox.stop()
        await super().close()
        if self.service_or_none is not None:
            await self.service_or_none.close()
        if self.workers is not None and self._own_workers:
            await self.workers.close()

    # ----- locales -----------------------------------------------------------------------------
    def locale_hint(self, interaction):
        """The user's locale without waiting for the store (autocomplete, errors)."""
        uid = interaction.user.id
        override = self._locale_override.get(uid)
        return normalize(override or str(interaction.locale))

    async def user_locale(self, interaction):
        """The /ttr me language choice, else the Discord client's language."""
        uid = interaction.user.id
        if uid not in self._locale_override and self.service_or_none is not None:
            self._locale_override[uid] = await self.service_or_none.adapter_state.user_locale(uid)
        self._seen_locale[uid] = normalize(str(interaction.locale))
        return self.locale_hint(interaction)

    async def locale_for_user(self, user_id):
        """For messages outside an interaction (DMs)."""
        if user_id not in self._locale_override:
            self._locale_override[user_id] = await self.service.adapter_state.user_locale(user_id)
        return normalize(self._locale_override[user_id] or self._seen_locale.get(user_id))

    async def set_user_locale(self, user_id, locale):
        await self.service.adapter_state.set_user_locale(user_id, locale)
        self._locale_override[user_id] = locale


class ShardedTTRBot(TTRBot, commands.AutoShardedBot):
    """The bot on discord.py's AutoShardedBot: the gateway shards `config.shard_ids` of
    `config.shard_count` (all of them if no ids are given) in this one process."""


def make_bot(config, **kwargs):
    """The bot for this configuration: sharded when TTR_SHARD_COUNT is set."""
    return (ShardedTTRBot if config.sharded else TTRBot)(config, **kwargs)


async def sync_tree(bot, guild_id):
    """Push the command tree: to one server (its commands update at once), or globally."""
    if guild_id:
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        log.info("synced %d command(s) to server %s", len(synced), guild_id)
        return f"Synced {len(synced)} command(s) to server {guild_id} (available now)."
    synced = await bot.tree.sync()
    log.info("synced %d global command(s)", len(synced))
    return f"Synced {len(synced)} global command(s) (may take a while to appear)."


def _carries(message, component_type, custom_id):
    """Whether `message` has that control: the test discord.py makes before it dispatches a
    click to a persistent item (ui.view.ViewStore.schedule_dynamic_item_call)."""
    if message is None:
        return False
    kind = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = kind.from_message(message, timeout=None)     # turn cards are Components V2
    return any(i.type.value == component_type and getattr(i, "custom_id", None) == custom_id
               for i in view.walk_children())
