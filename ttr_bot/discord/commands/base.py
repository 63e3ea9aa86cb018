"""The one /ttr command group, and the cog base class that puts a cog's commands under it.

discord.py gives each cog its own top-level commands; `GroupedCog` moves a cog's commands
under the bot's single `/ttr` group when the cog loads, so /ttr stays one group while its
commands live in small files. Discord allows 25 subcommands in a group, so the playing commands
stay at the top (/ttr draw) and a cog with a `GROUP` puts its commands one level down: `me` for
a player's own settings (/ttr me language), `server` for this server's games (/ttr server stats).
"""
from discord import app_commands
from discord.ext import commands

from ..translator import text


def ttr_group():
    """/ttr: a server's channels and threads only, installed to servers (Discord's `contexts`
    and `integration_types`; `guild_only` keeps the deprecated `dm_permission` that discord.py
    still sends saying the same)."""
    return app_commands.Group(
        name="ttr", description=text("bot.cmd.ttr"), guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                        private_channel=False),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False))


class GroupedCog(commands.Cog):
    GROUP: str | None = None    # a subgroup of /ttr for this cog's commands, or None: /ttr itself

    def __init__(self, bot):
        self.bot = bot

    def _group(self):
        if self.GROUP is None:
            return self.bot.ttr
        group = self.bot.ttr.get_command(self.GROUP)
        if group is None:
            group = app_commands.Group(name=self.GROUP, parent=self.bot.ttr,
                                       description=text(f"bot.cmd.group.{self.GROUP}"))
        return group

    async def cog_load(self):
        group = self._group()
        for command in self.get_app_commands():
            group.add_command(command)
        self.__cog_app_commands__ = []   # they live in the group, not at the top level

    async def cog_unload(self):
        group = self._group()
        for cmd in list(group.commands):
            if getattr(cmd, "binding", None) is self:
                group.remove_command(cmd.name)


def is_admin(interaction):
    """A member with Manage Server: may cancel, replace and set up any table, like its host."""
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)
