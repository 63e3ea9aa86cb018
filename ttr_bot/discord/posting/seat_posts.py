"""Posts about seats and the game's life: who left (or was replaced) and how strong the
computer player taking over is (`HandoverPost`); a game cancelled or closed, and why
(`ClosingPost`), with the one line in the parent channel when it had a thread of its own."""
from __future__ import annotations

from ...i18n import t
from ...service import ClosingPost, HandoverPost, OwedMessage
from ..text.format import map_title
from .delivery import Delivery, game_of, message_of


class SeatPosts:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery
        delivery.on(HandoverPost, self.handover)
        delivery.on(ClosingPost, self.closing)

    async def handover(self, row: OwedMessage, **_: object) -> None:
        """Who left (or was replaced), and how strong the computer player taking over is."""
        d = self.d
        h = message_of(row, HandoverPost).handover
        hosted = await d.service.load(game_of(row))
        if hosted is None:
            return
        loc = d.public_locale(hosted)
        lines = [t(f"bot.seat.{h.reason}", loc, name=h.name,
                   level=t(f"bot.level.{h.level}", loc),
                   by=f"<@{h.by}>" if h.by else "")]
        if h.reason == "timeout":
            lines.append(t("bot.seat.timeout_return", loc, mention=f"<@{h.user_id}>"))
        if h.host_id is not None:
            lines.append(t("bot.seat.host", loc, mention=f"<@{h.host_id}>"))
        await d.send(hosted.channel_id, "\n".join(lines), row=row)   # nobody pinged
        game = hosted.game
        if game is not None and not game.over and game.phase == "play" and \
                game.current == h.seat and hosted.seats[h.seat].is_bot:
            # the leaver's buttons would only answer "not a player": take them off
            await d.replace_panel(hosted.id, hosted.channel_id, None)

    async def closing(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        closing = message_of(row, ClosingPost)
        hosted = await d.service.load(game_of(row))
        if hosted is None:
            return
        loc = d.public_locale(hosted)
        await d.update_lobby(hosted.id, loc)
        reason, handover = closing.reason, closing.handover
        if handover is not None:     # the last human left
            text = t("bot.seat.left_cancelled", loc, name=handover.name)
        elif reason in ("abandoned", "lobby_expired", "vote", "host_left"):
            text = t(f"bot.cancelled.{reason}", loc)
        else:
            text = t("bot.cancelled", loc)
        await d.send(hosted.channel_id, text, row=row)
        await d.replace_panel(hosted.id, hosted.channel_id, None)
        await d.tell_parent(hosted, row, t("bot.thread.cancelled", loc,
                                           map=map_title(hosted.board, loc),
                                           thread=f"<#{hosted.channel_id}>"))
