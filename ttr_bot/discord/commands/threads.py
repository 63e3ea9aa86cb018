"""A thread per game: `/ttr new` opens the game in a new public thread of the channel (by
default, when the bot may: `may_open_thread`; `thread:False` keeps it in the channel), so that
one channel can host many games at once and its own feed stays readable: the channel gets one
line linking the thread at the start and one at the end (the result, or that it was cancelled).

A member gets only what their own permissions allow: the bot opens the thread only when the
member could open one themselves in that channel (Create Public Threads and Send Messages in
Threads, read from `interaction.permissions`, which Discord computes for the invoking member in
that channel); otherwise the game opens in the channel and the host is told why
(`thread_choice`). The channel's line about the thread is what Discord itself posts when a
member opens a thread, so it needs nothing more.

The bot needs the "Create Public Threads" permission in the channel (and "Send Messages in
Threads" to post there). Without it Discord answers 403; the game then opens in the channel as
it would without the option, and the host is told why. A thread inside a thread, or in a kind
of channel without threads, is not possible either: the game opens where it was asked for.
"""
import logging
from typing import Final

import discord

log = logging.getLogger(__name__)
ARCHIVE_AFTER: Final = 10080  # minutes without a message before Discord archives it: a week
NAME_LIMIT = 100              # Discord's limit for a channel name


def may_open_thread(interaction):
    """Whether a game asked for without saying opens in a thread (the default): the bot may
    create a public thread here and post both in it and in the channel (the line linking it).
    Read from the interaction's own permissions, so no request is made to find out."""
    perms = interaction.app_permissions
    return isinstance(interaction.channel, discord.TextChannel) and perms.create_public_threads \
        and perms.send_messages_in_threads and perms.send_messages


def member_may_open_thread(interaction):
    """Whether the member who asked could open a public thread in this channel and post in it."""
    perms = interaction.permissions
    return bool(perms.create_public_threads and perms.send_messages_in_threads)


def thread_choice(interaction, asked):
    """(whether to open the lobby in a new thread, the catalog key of why not or None) for
    `/ttr new thread:` `asked` (None: not said). A member who could not open a thread here
    gets none, with the sentence why; not asked, a thread when the bot may, silently; asked,
    `open_thread` says why there is none."""
    if asked is False:
        return False, None
    if isinstance(interaction.channel, discord.TextChannel) and \
            not member_may_open_thread(interaction):
        return False, "bot.thread.member_cannot"
    if asked is None:
        return may_open_thread(interaction), None
    return True, None


async def open_thread(interaction, name):
    """(the new public thread, None), or (None, the catalog key of why there is none)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return None, "bot.thread.in_thread"
    if not isinstance(channel, discord.TextChannel):
        return None, "bot.thread.not_here"
    try:
        # without `type`, discord.py would make a private thread
        thread = await channel.create_thread(
            name=name[:NAME_LIMIT], type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_AFTER)
    except discord.Forbidden as exc:
        log.info("no thread in channel %s: %s", channel.id, exc)
        return None, "bot.thread.no_permission"
    except discord.HTTPException as exc:
        log.warning("could not open a thread in channel %s: %s", channel.id, exc)
        return None, "bot.thread.failed"
    return thread, None
