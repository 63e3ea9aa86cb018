"""Answering an interaction with one request when the answer is quick, deferring when it is not.

Discord wants every interaction acknowledged within 3 s. Deferring at once ("thinking…") and
sending the answer as a follow-up costs two requests and shows the player a spinner, while
most answers are ready in milliseconds. So `expect_answer` starts a timer: if no answer was
sent within ACK_AFTER (well inside the 3 s: room for a slow loop and the request's own trip),
the timer defers, and the answer later goes as the follow-up. `send` sends the answer the way
that is right at that moment; one lock per interaction keeps the timer and the answer from
both answering.
"""
import asyncio
import contextlib
import logging

import discord

log = logging.getLogger(__name__)
ACK_AFTER = 1.0         # seconds an answer may take before the interaction is deferred
_PENDING = "ttr.ack"    # interaction.extras key: (lock, timer task)


def expect_answer(interaction):
    """Acknowledge `interaction` by ACK_AFTER (an ephemeral "thinking…", as every answer of
    the bot's is private) unless `send` answers it first."""
    if interaction.response.is_done() or _PENDING in interaction.extras:
        return
    lock = asyncio.Lock()

    async def defer_later():
        await asyncio.sleep(ACK_AFTER)
        async with lock:
            if interaction.response.is_done():
                return
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
            except discord.HTTPException as exc:    # expired (the loop stalled): nothing to do
                log.info("interaction %s could not be deferred: %r", interaction.id, exc)

    timer = asyncio.create_task(defer_later(), name=f"ttr-ack-{interaction.id}")
    interaction.extras[_PENDING] = (lock, timer)


@contextlib.asynccontextmanager
async def _answering(interaction):
    """Hold the interaction's answer: its deferral timer (if any) stopped under its lock, so
    the answer and a deferral never race."""
    pending = interaction.extras.get(_PENDING)
    async with pending[0] if pending else contextlib.nullcontext():
        if pending:
            pending[1].cancel()
        yield


async def send(interaction, content, **kwargs):
    """The answer: the interaction's response if it is not acknowledged yet, else a follow-up."""
    async with _answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(content, **kwargs)
        else:
            await interaction.response.send_message(content, **kwargs)


async def update(interaction, content):
    """Replace the message the clicked component is on with `content` and no components (a
    confirmation cancelled); a follow-up if the interaction was deferred meanwhile."""
    async with _answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True)
        else:
            await interaction.response.edit_message(content=content, view=None)
