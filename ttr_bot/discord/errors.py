"""The one error handler: slash commands (tree.on_error), buttons and menus (their callbacks)
all end here.

It answers whether the interaction was already answered, deferred, or has expired (Red's
pattern): an unanswered interaction gets a response, an answered or deferred one a follow-up,
and an expired one (10062 unknown interaction, 10015 unknown webhook) is only logged: a late
answer would go nowhere. Expected refusals (illegal moves, not your turn, stale buttons) are
answered with the reason in the player's language; anything else is logged with its context
and answered with a polite sentence, never a traceback.
"""
import logging

import discord
from discord import app_commands

from ..i18n import reason, t
from ..service import ServiceError

log = logging.getLogger(__name__)
EXPIRED_CODES = {10062, 10015, 10008}   # unknown interaction, unknown webhook, unknown message
GONE_CODES = {10003, 50001, 50013}      # unknown channel, missing access, missing permissions


class UserFacing(Exception):
    """A refusal of the adapter itself, as a catalog key (e.g. a route name that matches nothing)."""

    def __init__(self, key, **params):
        super().__init__(key)
        self.key = key
        self.params = params


def _unwrap(error):
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)) \
            and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


def message_for(error, loc):
    """(text, expected): the sentence for the user and whether the error is an expected refusal."""
    error = _unwrap(error)
    if isinstance(error, ServiceError):
        if error.illegal is not None:
            return reason(error.illegal, loc), True
        return t(error.key, loc, **error.params), True
    if isinstance(error, UserFacing):
        return t(error.key, loc, **error.params), True
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("bot.error.guild_only", loc), True
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("bot.error.cooldown", loc, seconds=round(error.retry_after, 1)), True
    if isinstance(error, app_commands.CheckFailure):
        return t("bot.error.not_allowed", loc), True
    if isinstance(error, (discord.Forbidden, discord.NotFound)) and error.code in GONE_CODES:
        return t("bot.error.cannot_post", loc), True
    return t("bot.error.unexpected", loc), False


def _context(interaction):
    data = interaction.data or {}
    what = data.get("custom_id") or (interaction.command.qualified_name if interaction.command else
                                     data.get("name", "?"))
    return (f"interaction {interaction.id} ({what}) by user {interaction.user.id} in channel "
            f"{interaction.channel_id} of guild {interaction.guild_id}")


async def answer(interaction, content, *, view=None, file=None):
    """An ephemeral answer that works before or after the interaction was acknowledged.
    Returns False if the interaction has expired."""
    from .format import fit
    content = fit(content)
    kwargs = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)
        return True
    except discord.NotFound as exc:
        if exc.code in EXPIRED_CODES:
            log.info("%s expired before it could be answered", _context(interaction))
            return False
        raise
    except discord.HTTPException:
        log.warning("could not answer %s", _context(interaction), exc_info=True)
        return False


async def handle(interaction, error):
    """Answer the user and log what needs logging. Never raises."""
    bot = interaction.client
    try:
        loc = bot.locale_hint(interaction)
    except Exception:
        loc = "en"
    text, expected = message_for(error, loc)
    original = _unwrap(error)
    if expected:
        log.debug("%s refused: %r", _context(interaction), original)
    else:
        log.error("unexpected error in %s", _context(interaction),
                  exc_info=(type(original), original, original.__traceback__))
    try:
        await answer(interaction, text)
    except Exception:
        log.exception("could not report an error to the user in %s", _context(interaction))


class Tree(app_commands.CommandTree):
    """The command tree with the one error handler."""

    async def on_error(self, interaction, error):
        await handle(interaction, error)
