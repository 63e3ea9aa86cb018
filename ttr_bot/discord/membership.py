"""Leaving the server means leaving the game.

A click in a server's channel comes from one of its members (Discord delivers nothing else), but a
click in a DM — the hand's panel, a confirmation — names no server at all, and a member who was
kicked or banned still has those DMs. So before a click from a DM acts on a server's game, the
clicking player is looked up in that server (`GET /guilds/{g}/members/{u}`); when Discord answers
Unknown Member the click is refused and their seat goes through `member_left` at once: a computer
player takes it, the channel is told (and from then on nobody pings them), a lobby loses their
seat. A membership Discord confirmed is believed for MEMBER_FOR seconds of the bot's clock, so a
player tapping through a turn costs one lookup, not one per tap.

A ban is heard at once: the moderation intent (not privileged) brings GUILD_BAN_ADD, and the
seat goes the same way before the banned player clicks anything. A kick or a member who leaves
sends GUILD_MEMBER_REMOVE, which only the privileged Server Members intent receives; the bot does
not ask for it (docs/discord-setup.md says why), and finds out at the player's next click, when
a turn post is about to ping them (a membership confirmed within PING_FOR is believed), or when
a reminder or a host-only command looks them up (delivery.py, cogs/seats.py).
"""
import logging

import discord

from ..bounded import LRUDict
from . import ack
from .errors import UserFacing

log = logging.getLogger(__name__)
MEMBER_FOR = 60.0           # seconds a confirmed membership is believed without asking again
PING_FOR = 3600.0           # ...before a turn post pings them: one lookup a player an hour
REMEMBERED = 10_000         # (server, user) pairs remembered at most
UNKNOWN_MEMBER = 10007


class Membership:
    def __init__(self, bot, clock):
        self.bot = bot
        self.clock = clock
        self._confirmed = LRUDict(REMEMBERED)      # (guild id, user id) -> when Discord said so

    async def is_member(self, guild_id, user_id, fresh_for=MEMBER_FOR):
        """False only when Discord says the user is not in the server (10007 Unknown Member);
        any other failure (the server unknown to this process, a timeout) is not taken as
        proof that they left. A membership confirmed less than `fresh_for` seconds ago is
        believed without asking."""
        if not guild_id:
            return True
        key = (guild_id, user_id)
        seen = self._confirmed.get(key)
        if seen is not None and self.clock() - seen < fresh_for:
            return True
        try:
            await self.bot.http.get_member(guild_id, user_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_MEMBER:
                self._confirmed.pop(key, None)
                return False
            return True
        except discord.HTTPException as exc:
            log.info("could not look up member %s of server %s: %s", user_id, guild_id, exc)
            return True
        self._confirmed[key] = self.clock()
        return True

    async def left(self, guild_id, user_id):
        """The user is no longer in the server (looked up, or banned): their seats there go to
        computer players, their lobby seats are given up. How many games changed."""
        self._confirmed.pop((guild_id, user_id), None)
        service = self.bot.service_or_none      # None before setup_hook opened it
        if service is None:
            return 0
        lobbies = [g.game_id for g in await service.listing.games_of(user_id, guild_id)
                   if g.status == "lobby"]
        changed = await service.absence.member_left(guild_id, user_id)
        if changed:
            log.info("user %s left server %s: %d game(s) handed over", user_id, guild_id, changed)
        for game_id in lobbies:         # the lobby message lists the seats as they are now
            hosted = await service.load(game_id)
            if hosted is not None:
                await self.bot.delivery.update_lobby(game_id,
                                                     self.bot.delivery.public_locale(hosted))
        return changed

    async def check_click(self, interaction, item):
        """Refuse (UserFacing) a click from a DM on a server's game whose player is no longer a
        member of that server, after handing their seats over."""
        if interaction.guild_id is not None:
            return              # a server's channel: Discord delivers only its members' clicks
        game_id = getattr(item, "game_id", None)
        service = self.bot.service_or_none      # None before setup_hook opened it
        if game_id is None or service is None:
            return
        ack.expect_answer(interaction)      # the lookup may take a while: Discord allows 3 s
        hosted = await service.load(game_id)
        user_id = interaction.user.id
        if hosted is None or not hosted.guild_id or not hosted.is_open or not any(
                user_id in (s.user_id, s.former_user_id) for s in hosted.seats):
            return              # not their game: the click is refused as usual
        if await self.is_member(hosted.guild_id, user_id):
            return
        await self.left(hosted.guild_id, user_id)
        raise UserFacing("bot.member.gone")
