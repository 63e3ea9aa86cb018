"""The turn card: what happened since the last card (the row that ended the turn and its held
parts, which fold in the computer players' turns before it), the standings, the ping and the
deadline of the player to move, their panel; a picture only when the board changed. A post
describes the game as it was at its row's seq (`service.moves.state_at`), even when it goes
out late; only the latest card carries the turn panel. The last turn's card is the final post
(final_post.py). While computers think after a human's move, the last card says so instead
of offering buttons (`ThinkingEdit`)."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from ...engine.event_types import BUILD_STATION, CLAIM_ROUTE, FINAL_ROUND, Event
from ...engine.game import Game
from ...i18n import t
from ...render import closeup_contents
from ...service import OwedMessage, SeatInfo, SinceLastTurn, ThinkingEdit, TurnPost
from ..controls import components
from ..membership import PING_FOR
from ..palettes import game_palette
from ..text.card_text import (
    board_alt,
    board_changed,
    closeup_alt,
    since_line,
    standings_lines,
)
from ..text.format import event_lines, summary_lines
from ..text.map_state_text import map_state_line
from . import turn_card
from .delivery import NO_MENTIONS, Delivery, game_of, mention_only, message_of
from .final_post import FinalPost

log = logging.getLogger(__name__)


class TurnPosts:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery
        self.final = FinalPost(delivery)
        delivery.on(TurnPost, self.post)
        delivery.on(ThinkingEdit, self.thinking)

    async def post(self, row: OwedMessage, parts: Sequence[OwedMessage] = (),
                   **_: object) -> None:
        d = self.d
        p = message_of(row, TurnPost)
        now = await d.service.load(game_of(row))
        at = await d.service.moves.state_at(game_of(row), row.seq or 0)
        if now is None or at is None or at.game is None:
            return
        game, names, loc = at.game, at.names(), d.public_locale(at)
        events: list[Event] = []
        moves: list[str] = []
        told = None
        if p.caught_up:     # the one post after a long refusal (refusals.py)
            moves.append(t("bot.outbox.caught_up", loc, count=p.caught_up))
        pending: list[Event] = []       # events told together: a turn's two draws make one line
        for r in (*parts, row):
            part = message_of(r, TurnPost)
            if part.by and told != (part.seat, part.by):
                moves += event_lines(pending, game.board, names, loc, trains=game.trains)
                pending = []
                told = (part.seat, part.by)     # once per turn, not per action of it
                moves.append(t(f"bot.turn.{part.by}", loc, name=names[part.seat],
                               level=t("bot.level.medium", loc)))
            events += part.events
            pending += part.events
        moves += event_lines(pending, game.board, names, loc, trains=game.trains)
        if p.over:
            if p.computers:
                moves.append(t("bot.end.computers", loc))
            await self.final.post(at, moves, loc, row=row)
            return
        current: SeatInfo | None = at.seats[game.current]
        palette = game_palette(at)
        tail: list[str] = []
        kwargs: dict[str, Any] = {}
        panel, since = None, None
        if p.ping and not await self.still_member(at, p.ping):
            current = None      # gone: a computer has their seat now, nobody is pinged
        if current is None:
            tail.append(t("bot.turn.computer", loc, name=at.seats[game.current].name))
        elif current.user_id is not None:
            since = await d.service.since.since_last_turn(at.id, game.current, at.seq)
            mention = f"<@{current.user_id}>"
            if since is not None:
                tail += since_line(since, game.board, names, loc, mention, told=events)
            if p.deadline:      # the ping and the deadline in one line; the date is the alt's
                tail.append(t("bot.turn.ping_deadline", loc, mention=mention,
                              when=f"<t:{int(p.deadline)}:R>"))
            else:
                tail.append(t("bot.turn.ping", loc, mention=mention))
            if p.away_until:
                tail.append(t("bot.turn.away_until", loc, name=current.name,
                              until=f"<t:{int(p.away_until)}:f>"))
            if now.seq == row.seq:      # only the latest card has live buttons
                panel = components.turn_view(at.id, at.seq, game, loc)
            kwargs["allowed_mentions"] = mention_only(p.ping) if p.ping else NO_MENTIONS
            kwargs["silent"] = p.silent
        else:
            tail.append(t("bot.turn.computer", loc, name=current.name))
        pictures: tuple[turn_card.Picture, ...] = ()
        if board_changed(events):
            pictures = await self.card_pictures(game, names, loc, events, moves, since,
                                                palette=palette)
            if not pictures:
                moves += summary_lines(game, names, loc)
        # the face-up row is the buttons; the piles' sizes are /ttr status's and the alt's
        standings = standings_lines(game, names, loc, palette, final_told=_final_told(events))
        extra = map_state_line(game, loc, palette)    # a map's own public state, one line
        if extra is not None:
            standings.append(extra)
        card = turn_card.Card(tuple(moves), tuple(standings),
                              tuple(tail), pictures, turn_card.accent_of(game.current, palette),
                              game_id=at.id, loc=loc)
        msg = await d.send_card(at.channel_id, card, panel, row=row, **kwargs)
        if panel is not None:
            await d.replace_panel(at.id, at.channel_id, msg.id)

    async def card_pictures(self, game: Game, names: Sequence[str], loc: str,
                            events: Sequence[Event], moves: Sequence[str],
                            since: SinceLastTurn | None = None,
                            palette: str = "standard") -> tuple[turn_card.Picture, ...]:
        """The pictures of a card whose board changed: the close-up of what was claimed or
        built (first; left out when the routes are too far apart for it to show more than the
        map), then the phone map with every route claimed since the player to move last
        moved highlighted. Each with its alt text."""
        claimed = {e["route"] for e in events if e["type"] == CLAIM_ROUTE}
        built = {e["city"] for e in events if e["type"] == BUILD_STATION}
        highlight = claimed | set(since.routes if since is not None else ())
        shows = closeup_contents(game, claimed, built) if claimed or built else {}
        pictures = self.d.bot.pictures
        # both drawn at once (two workers): the card waits for the slower, not for the sum
        closeup, board = await asyncio.gather(
            pictures.closeup(game, names, claimed, loc, cities=built, palette=palette)
            if (shows.get("scale") or 0) > 1.0 else _none(),
            pictures.map(game, names, loc, highlight=highlight, cities=built, palette=palette))
        out = []
        if closeup:
            out.append(turn_card.Picture(closeup, "closeup.png", closeup_alt(shows, names, loc)))
        if board:
            out.append(turn_card.Picture(board, "map.png",
                                         board_alt(game, names, loc, moves, palette)))
        return tuple(out)

    async def still_member(self, hosted: Any, user_id: int) -> bool:
        """Whether the player a turn post pings is still in the game's server; if Discord says
        they left (a kick sends the bot nothing), their seats go to computer players first
        (membership.py). A membership confirmed within the hour is believed."""
        membership = getattr(self.d.bot, "membership", None)  # a bare client (tools): no checks
        if not hosted.guild_id or membership is None:
            return True
        if await membership.is_member(hosted.guild_id, user_id, fresh_for=PING_FOR):
            return True
        await membership.left(hosted.guild_id, user_id)
        return False

    async def thinking(self, row: OwedMessage, **_: object) -> None:
        """A human's move handed the turn to computer players: their card comes when the next
        human is to move (the moves fold into it); meanwhile the last card loses its buttons
        and says, in one line, that the computers are thinking."""
        d = self.d
        message_of(row, ThinkingEdit)
        hosted = await d.service.load(game_of(row))
        if hosted is None:
            return
        ref = await d.service.adapter_state.posted_message(hosted.id, "panel")
        if ref is None:
            return
        loc = d.public_locale(hosted)
        await d.service.adapter_state.forget_message(hosted.id, "panel")
        try:
            await d.take_buttons_off(ref.channel_id, ref.message_id,
                                     note=t("bot.turn.thinking", loc))
        except discord.HTTPException as exc:
            log.info("could not mark the card %s as waiting: %s", ref.message_id, exc)


def _final_told(events: Iterable[Event]) -> bool:
    """The card's lines say the final round began (its own line: who brought it)."""
    return any(e["type"] == FINAL_ROUND for e in events)


async def _none() -> None:
    return None
