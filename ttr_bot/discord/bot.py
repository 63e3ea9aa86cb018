"""The Bot subclass: async setup in `setup_hook`, durable timers, locales, shutdown.

`setup_hook` (run once by discord.py before connecting) opens the store (running migrations),
registers the persistent dynamic items, loads the cogs under the one /ttr group, and starts
the timer service, whose "bot_move" timers let computer players move after a short pause.
With `sync_only` the store and timers are skipped: `python bot.py sync` only needs the
command tree.
"""
import logging
import time

import discord
from discord.ext import commands

from ..i18n import normalize
from ..maps import load_board
from ..service import GameService
from ..store import SqliteStore, TimerService
from . import components, errors
from .cogs import all_cogs, ttr_group
from .delivery import Delivery
from .translator import CatalogTranslator

log = logging.getLogger(__name__)


def intents():
    """No privileged intents: slash commands and components need only the guilds intent."""
    value = discord.Intents.none()
    value.guilds = True
    return value


def agent_factory():
    """The computer players (ttr_bot.ai.make_agent), or random play while it is missing."""
    try:
        from ..ai import make_agent
        return make_agent
    except ImportError:
        from ..ai.random_agent import RandomAgent
        log.warning("ttr_bot.ai.make_agent is not available; computer players play at random")
        return lambda level, seed=0: RandomAgent(seed)


class TTRBot(commands.Bot):
    def __init__(self, config, *, sync_only=False, store=None, clock=time.time, bot_delay=2.0,
                 dm_delay=1.0, agents=None, **kwargs):
        kwargs.setdefault("intents", intents())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         tree_cls=errors.Tree, allowed_mentions=discord.AllowedMentions.none(),
                         **kwargs)
        self.config = config
        self.sync_only = sync_only
        self.clock = clock
        self.store = store
        self.service = None
        self.timers = None
        self.delivery = Delivery(self, dm_delay=dm_delay)
        self.ttr = ttr_group()
        self._bot_delay = bot_delay
        self._agents = agents
        self._locale_override = {}      # user id -> stored /ttr language choice (None: none)
        self._seen_locale = {}          # user id -> locale of their latest interaction
        self._channel_games = {}        # channel id -> id of the open game last found there

    # ----- setup -------------------------------------------------------------------------------
    async def setup_hook(self):
        await self.tree.set_translator(CatalogTranslator())
        for cog in all_cogs():
            await self.add_cog(cog(self))
        self.tree.add_command(self.ttr)
        if self.sync_only:
            return
        if self.store is None:
            self.store = SqliteStore(self.config.db_path)
        await self.store.open()
        self.timers = TimerService(self.store, self.on_timer, clock=self.clock)
        self.service = GameService(self.store, clock=self.clock, timers=self.timers,
                                   agents=self._agents or agent_factory(),
                                   bot_delay=self._bot_delay)
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        await self.timers.start()
        await self._resume_computer_players()
        log.info("set up: database %s", self.config.db_path)

    async def _resume_computer_players(self):
        """A computer player's move can be lost if the bot stopped between the move and its
        timer's removal; give every game where one is to move a fresh timer (a duplicate is
        harmless: a timer for an older sequence number does nothing)."""
        for game_id in await self.store.list_active_game_ids():
            try:
                loaded = await self.service.load(game_id)
                if loaded is None or loaded.game is None:
                    continue
                if any(loaded.seats[s].bot_level is not None for s in loaded.game.to_move()):
                    await self.timers.schedule("bot_move", self.clock() + self._bot_delay,
                                               {"seq": loaded.row.seq}, game_id)
            except Exception:
                log.exception("could not resume game %s", game_id)

    async def close(self):
        if self.timers is not None:
            await self.timers.stop()
        await self.delivery.drain(timeout=10)
        await super().close()
        if self.store is not None and not self.sync_only:
            await self.store.close()

    # ----- timers ------------------------------------------------------------------------------
    async def on_timer(self, timer):
        if timer.kind != "bot_move":
            log.info("ignoring timer %s of kind %s", timer.id, timer.kind)
            return
        await self.wait_until_ready()
        eff = await self.service.play_bot(timer.game_id, timer.payload.get("seq"))
        if eff is not None:
            await self.delivery.deliver(eff)

    # ----- locales -----------------------------------------------------------------------------
    def locale_hint(self, interaction):
        """The user's locale without waiting for the store (autocomplete, errors)."""
        uid = interaction.user.id
        override = self._locale_override.get(uid)
        return normalize(override or str(interaction.locale))

    async def user_locale(self, interaction):
        """The /ttr language choice, else the Discord client's language."""
        uid = interaction.user.id
        if uid not in self._locale_override and self.store is not None:
            self._locale_override[uid] = await self.store.get_locale(uid)
        self._seen_locale[uid] = normalize(str(interaction.locale))
        return self.locale_hint(interaction)

    async def locale_for_user(self, user_id):
        """For messages outside an interaction (DMs)."""
        if user_id not in self._locale_override:
            self._locale_override[user_id] = await self.store.get_locale(user_id)
        return normalize(self._locale_override[user_id] or self._seen_locale.get(user_id))

    async def set_user_locale(self, user_id, locale):
        await self.store.set_locale(user_id, locale, now=self.clock())
        self._locale_override[user_id] = locale

    # ----- helpers -----------------------------------------------------------------------------
    async def channel_game(self, channel_id):
        """The channel's open game (lobby or active), or None. While the service's cached copy
        of the game last found there is still open in that channel it is the answer (a channel
        has one open game at most, and the service updates its copy's status on start, finish
        and cancel), so no store query: on the store's one connection a query waits behind
        every other game's writes, which with 50 busy games took a second, too long for
        autocomplete (it cannot defer) and for every command's answer."""
        game_id = self._channel_games.get(channel_id)
        if game_id is not None:
            loaded = await self.service.load(game_id)
            if loaded is not None and loaded.row.channel_id == channel_id and \
                    loaded.row.status in ("lobby", "active"):
                return loaded
        loaded = await self.service.for_channel(channel_id)
        if loaded is None:
            self._channel_games.pop(channel_id, None)
        else:
            self.note_channel_game(loaded)
        return loaded

    def note_channel_game(self, loaded):
        """Remember a game just opened, so that the channel's first lookup needs no query."""
        self._channel_games[loaded.row.channel_id] = loaded.id

    @staticmethod
    def board_of(loaded):
        if loaded.game is not None:
            return loaded.game.board
        return load_board(loaded.row.map, loaded.row.variant)
