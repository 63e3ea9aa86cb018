"""The Bot subclass: async setup in `setup_hook`, locales, shutdown.

`setup_hook` (run once by discord.py before connecting) loads the cogs under the one /ttr group,
registers the persistent dynamic items, starts the worker processes (TTR_WORKERS: computer
players think and pictures are drawn there, `self.workers`), and opens the game service on the
configured database (running migrations, starting its scheduler and resuming every game:
computer players move by themselves, their moves reach the channel through `Delivery`). With
`sync_only` both are skipped: `python bot.py sync` only needs the command tree.
"""
import logging
import time

import discord
from discord.ext import commands

from ..i18n import normalize
from ..service import open_service
from ..workers import WorkerPool
from . import components, errors, moves  # noqa: F401  (moves registers the turn panel's clicks)
from .cogs import all_cogs, ttr_group
from .cooldown import PictureCooldown
from .delivery import Delivery
from .pictures import Pictures
from .translator import CatalogTranslator

log = logging.getLogger(__name__)
# what each worker imports before its first task: the computer players, the pictures, the maps
PRELOAD = ("ttr_bot.ai", "ttr_bot.render", "ttr_bot.maps")


def intents():
    """No privileged intents: slash commands and components need only the guilds intent."""
    value = discord.Intents.none()
    value.guilds = True
    return value


class TTRBot(commands.Bot):
    def __init__(self, config, *, sync_only=False, clock=time.time, bot_delay=2.0,
                 dm_delay=1.0, agents=None, workers=None, **kwargs):
        kwargs.setdefault("intents", intents())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         tree_cls=errors.Tree, allowed_mentions=discord.AllowedMentions.none(),
                         **kwargs)
        self.config = config
        self.sync_only = sync_only
        self.clock = clock
        self.service = None
        self.delivery = Delivery(self, dm_delay=dm_delay)
        # a started WorkerPool to share (tests start one for many bots), else the bot's own
        self.workers = workers
        self._own_workers = workers is None
        self.pictures = Pictures(workers)
        self.picture_cooldown = PictureCooldown(clock=clock)
        self.ttr = ttr_group()
        self._bot_delay = bot_delay
        self._agents = agents
        self._locale_override = {}      # user id -> stored /ttr language choice (None: none)
        self._seen_locale = {}          # user id -> locale of their latest interaction

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
            self.workers = WorkerPool(self.config.workers, preload=PRELOAD)
            await self.workers.start()
        self.pictures.workers = self.workers
        self.service = await open_service(
            self.config.db_path, clock=self.clock, agents=self._agents, bot_delay=self._bot_delay,
            on_effects=self._computer_moved, workers=self.workers)
        log.info("set up: database %s, %d worker processes", self.config.db_path,
                 self.workers.size)

    async def _computer_moved(self, eff):
        await self.wait_until_ready()
        await self.delivery.deliver(eff)

    async def close(self):
        if self.service is not None:
            await self.service.stop()
        await self.delivery.drain(timeout=10)
        await super().close()
        if self.service is not None:
            await self.service.close()
        if self.workers is not None and self._own_workers:
            await self.workers.close()

    # ----- locales -----------------------------------------------------------------------------
    def locale_hint(self, interaction):
        """The user's locale without waiting for the store (autocomplete, errors)."""
        uid = interaction.user.id
        override = self._locale_override.get(uid)
        return normalize(override or str(interaction.locale))

    async def user_locale(self, interaction):
        """The /ttr language choice, else the Discord client's language."""
        uid = interaction.user.id
        if uid not in self._locale_override and self.service is not None:
            self._locale_override[uid] = await self.service.user_locale(uid)
        self._seen_locale[uid] = normalize(str(interaction.locale))
        return self.locale_hint(interaction)

    async def locale_for_user(self, user_id):
        """For messages outside an interaction (DMs)."""
        if user_id not in self._locale_override:
            self._locale_override[user_id] = await self.service.user_locale(user_id)
        return normalize(self._locale_override[user_id] or self._seen_locale.get(user_id))

    async def set_user_locale(self, user_id, locale):
        await self.service.set_user_locale(user_id, locale)
        self._locale_override[user_id] = locale
