"""The one error handler: slash commands (tree.on_error), buttons and menus (their callbacks)
all end here.

It answers whether the interaction was already answered, deferred, or has expired (Red's
pattern): an unanswered interaction gets a response, an answered or deferred one a follow-up,
and an expired one (10062 unknown interaction, 10015 unknown webhook) is only logged: a late
answer would go nowhere. Expected refusals (illegal moves, not your turn, stale buttons) are
answered with the reason in the player's language; a database that cannot be written now
(`StoreUnavailable`) is answered with "not saved, nothing changed" and logged as one line
naming the file and what to do; a game whose stored log or snapshot is damaged (`CorruptData`)
with a sentence saying so, logged with the game and what to run; anything else is logged with its context and answered with a
polite sentence, never a traceback.
"""
import contextlib
import logging

import discord
from discord import app_commands

from ..i18n import reason, t
from ..service import CorruptData, ServiceError, StoreUnavailable
from . import ack

log = logging.getLogger(__name__)
EXPIRED_CODES = {10062, 10015, 10008}   # unknown interaction, unknown webhook, unknown message
GONE_CODES = {10003, 50001, 50013}      # unknown channel, missing access, missing permissions


class UserFacing(Exception):
    """A refusal of the adapter itself, as a catalog key (e.g. a route name that matches nothing)."""

    def __init__(self, key, **params):
        super().__init__(key)
        self.key = key
        self.params = params


class ServiceNotOpen(RuntimeError):
    """The bot's game service asked for before `TTRBot.setup_hook` opened it (bot.py's
    `service`); a bot made with sync_only never opens one."""


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
    if isinstance(error, StoreUnavailable):     # nothing of it was written: the player may retry
        return t("bot.error.not_saved", loc), True
    if isinstance(error, CorruptData):          # the game's stored rows: the operator's to check
        return t("bot.error.corrupt", loc), True
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
    """Who did what where, for the log (never raises: it runs inside the error handler)."""
    try:
        data = interaction.data or {}
        what = data.get("custom_id") or data.get("name", "?")
        return (f"interaction {interaction.id} ({what}) by user {interaction.user.id} in channel "
                f"{interaction.channel_id} of guild {interaction.guild_id}")
    except Exception:
        return f"interaction {getattr(interaction, 'id', '?')}"


async def answer(interaction, content, *, view=None, file=None):
    """An ephemeral answer that works before or after the interaction was acknowledged (in
    one request when it comes before the acknowledgement, ack.py). Returns False if the
    interaction has expired."""
    from .text.format import fit
    content = fit(content)
    kwargs = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    try:
        await ack.send(interaction, content, **kwargs)
        return True
    except discord.NotFound as exc:
        if exc.code in EXPIRED_CODES:
            log.info("%s expired before it could be answered", _context(interaction))
            return False
        raise
    except discord.HTTPException:
        log.warning("could not answer %s", _context(interaction), exc_info=True)
        return False


async def refuse_other_shard(interaction):
    """True, the user told so, if the interaction's server is not on this process's shards
    (Discord sends each server's events to the process running its shard, so this means the
    processes' TTR_SHARD_COUNT disagree): the process that serves the server owns its games,
    timers and posts; this one does not act for it."""
    serves = getattr(interaction.client, "serves", None)
    if serves is None or serves(interaction.guild_id):
        return False
    log.warning("%s: server %s is not on this process's shards; refused", _context(interaction),
                interaction.guild_id)
    if interaction.type is discord.InteractionType.autocomplete:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
    else:
        await handle(interaction, UserFacing("bot.error.other_shard"))
    return True


async def handle(interaction, error):
    """Answer the user and log what needs logging. Never raises: it is the last thing between
    an error and a player left looking at "thinking…" until the token expires."""
    try:
        await _handle(interaction, error)
    except Exception:
        log.exception("the error handler itself failed for interaction %s",
                      getattr(interaction, "id", "?"))


async def _handle(interaction, error):
    try:
        loc = interaction.client.locale_hint(interaction)
    except Exception:
        loc = "en"
    original = _unwrap(error)
    try:
        text, expected = message_for(error, loc)
    except Exception:       # a refusal naming a key the catalog lacks is a bug: say so, log it
        text, expected = t("bot.error.unexpected", loc), False
    if isinstance(original, StoreUnavailable):      # the operator's to fix: the file, what to do
        log.error("%s not done: %s", _context(interaction), original)
    elif isinstance(original, CorruptData):
        log.error("%s not done: %s (game %s); `python bot.py doctor` lists every game that "
                  "cannot be loaded: restore the database from a backup", _context(interaction),
                  original, getattr(original, "game_id", "?"))
    elif expected:
        log.debug("%s refused: %r", _context(interaction), original)
    else:
        log.error("unexpected error in %s", _context(interaction),
                  exc_info=(type(original), original, original.__traceback__))
    await answer(interaction, text)


def _leaf_options(data):
    """{option name: value} of the subcommand an interaction invokes."""
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):     # subcommand (group)
        options = options[0].get("options") or []
    return {o.get("name"): o.get("value") for o in options}


def out_of_bounds(command, data):
    """The name of an option whose value the command does not offer (not one of its choices, or
    outside its range), or None. The Discord client never sends one, but a forged request can,
    and the bot must not depend on the client."""
    given = _leaf_options(data)
    for param in command.parameters:
        if param.display_name not in given:
            continue
        value = given[param.display_name]
        if param.choices and value not in [c.value for c in param.choices]:
            return param.display_name
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            lo, hi = param.min_value, param.max_value
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                return param.display_name
    return None


class Tree(app_commands.CommandTree):
    """The command tree with the one error handler, and one check of every option's value
    against what the command declares (its choices and ranges) before the command runs."""

    async def interaction_check(self, interaction):
        if await refuse_other_shard(interaction):
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True         # autocomplete sees what is being typed: anything goes there
        try:
            command = interaction.command
            bad = out_of_bounds(command, interaction.data or {}) if command else None
        except Exception:
            bad = "?"
        if bad is None:
            return True
        log.debug("%s: option %s is not one the command offers", _context(interaction), bad)
        await handle(interaction, UserFacing("bot.error.not_a_choice", option=bad))
        return False

    async def on_error(self, interaction, error):
        await handle(interaction, error)
