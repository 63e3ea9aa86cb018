"""The one /ttr command group, and the cog base class that puts a cog's commands under it.

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


def is_admin(interaction):
    """A member with Manage Server: may cancel, replace and set up any table, like its host."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)
