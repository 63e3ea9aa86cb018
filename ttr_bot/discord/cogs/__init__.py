"""The /ttr slash commands, one cog per feature, all under one command group.

discord.py gives each cog its own top-level commands; `GroupedCog` moves a cog's commands
under the bot's single `/ttr` group when the cog loads, so /ttr stays one group while its
commands live in small files.
"""
from discord import app_commands
from discord.ext import commands

from ..translator import text


def ttr_group():
    return app_commands.Group(name="ttr", description=text("bot.cmd.ttr"), guild_only=True)


class GroupedCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    async def cog_load(self):
        for command in self.get_app_commands():
            self.bot.ttr.add_command(command)
        self.__cog_app_commands__ = []   # they live in the group, not at the top level

    async def cog_unload(self):
        for cmd in list(self.bot.ttr.commands):
            if getattr(cmd, "binding", None) is self:
                self.bot.ttr.remove_command(cmd.name)


def all_cogs():
    from .info import Info
    from .lobby import Lobby
    from .play import Play
    from .seats import Seats
    return (Lobby, Play, Seats, Info)
