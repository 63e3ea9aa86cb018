"""The bot an interaction came to, typed: discord.py types `Interaction.client` as a plain
`Client`; every interaction this adapter handles came to a `TTRBot` (bot.py), whose service,
outbox, workers and delivery the commands and controls use; and the server and channel of a
command, which every /ttr command has (its contexts are a server's)."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from .errors import UserFacing

if TYPE_CHECKING:
    from ..service import GameService
    from .bot import TTRBot


def bot_of(interaction: discord.Interaction) -> TTRBot:
    return cast("TTRBot", interaction.client)


def guild_of(interaction: discord.Interaction) -> int:
    """The server an interaction came from (every /ttr command is a server's: its contexts say
    so); outside one, the player is told where the game is played."""
    if interaction.guild_id is None:
        raise UserFacing("bot.error.guild_only")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from (a server command always has one)."""
    if interaction.channel_id is None:
        raise UserFacing("bot.error.guild_only")
    return interaction.channel_id


def service_of(interaction: discord.Interaction) -> GameService:
    """The bot's service (opened in `setup_hook`, before the bot connects: every interaction
    finds it; before that, bot.py's `service` raises errors.ServiceNotOpen)."""
    return bot_of(interaction).service
