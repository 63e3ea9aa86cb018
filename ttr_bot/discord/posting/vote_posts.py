"""A vote's post (to cancel the game, or to replace a silent player by a computer): the
question, the count and the Yes / No buttons while it is open (`VotePost`); when it closes,
the same message without buttons and one line with the outcome (`VoteResult`)."""
from __future__ import annotations

import logging

import discord

from ...i18n import t
from ...service import OwedMessage, VotePost, VoteResult
from ..controls import components
from ..text.format import fit
from ..text.vote_text import vote_text, vote_what
from .delivery import NO_MENTIONS, Delivery, game_of, mention_only, message_of

log = logging.getLogger(__name__)


class VotePosts:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery
        delivery.on(VotePost, self.vote)
        delivery.on(VoteResult, self.result)

    async def vote(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        vote_id = message_of(row, VotePost).vote
        if vote_id is None:     # not filled in: nothing to show
            return
        vote = await d.service.votes.vote(vote_id)
        hosted = await d.service.load(game_of(row))
        if vote is None or hosted is None:
            return
        loc = d.public_locale(hosted)
        msg = await d.send(hosted.channel_id, vote_text(vote, hosted, loc), row=row,
                           view=components.vote_view(hosted.id, vote.id, loc)
                           if vote.status == "open" else None,
                           allowed_mentions=mention_only(*vote.voters))
        await d.service.adapter_state.remember_message(hosted.id, f"vote:{vote.id}",
                                                       hosted.channel_id, msg.id)

    async def result(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        result = message_of(row, VoteResult)
        vote = await d.service.votes.vote(result.vote)
        hosted = await d.service.load(game_of(row))
        if vote is None or hosted is None:
            return
        loc = d.public_locale(hosted)
        ref = await d.service.adapter_state.posted_message(hosted.id, f"vote:{vote.id}")
        if ref is not None:
            try:
                await d.channel(ref.channel_id).get_partial_message(ref.message_id).edit(
                    content=fit(vote_text(vote, hosted, loc)), view=None,
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.info("could not close the vote message %s: %s", ref.message_id, exc)
        await d.send(hosted.channel_id, t(f"bot.vote.{result.status}", loc,
                                          what=vote_what(vote, hosted, loc)), row=row)
