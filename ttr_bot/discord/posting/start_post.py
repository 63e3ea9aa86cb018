"""The post that starts a game: the map and who plays in which order, the deadline, each
player pinged to choose their first tickets (in their hand DM, or "My hand" here); the lobby
message loses its buttons, and the workers begin building the new game's picture layers."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from ...engine.board import Board
from ...i18n import t
from ...service import OwedMessage, StartPost
from ...workers import WorkerLost
from ..controls import components
from ..palettes import game_palette
from ..text.card_text import board_alt
from ..text.format import map_title
from .delivery import Delivery, game_of, mention_only, message_of

log = logging.getLogger(__name__)


class StartPosts:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery
        self._warming: set[asyncio.Task[None]] = set()  # tasks building picture layers
        delivery.on(StartPost, self.post)

    async def post(self, row: OwedMessage, **_: object) -> None:
        d = self.d
        message_of(row, StartPost)
        hosted = await d.service.moves.state_at(game_of(row), 0)
        if hosted is None or hosted.game is None:
            return
        loc = d.public_locale(hosted)
        game, names = hosted.game, hosted.names()
        lines = [t("bot.start.title", loc, map=map_title(game.board, loc))]
        lines += [f"{i + 1}. {n}" for i, n in enumerate(names)]
        deadline = hosted.settings.deadline
        if deadline:
            lines.append(t("bot.start.deadline", loc, count=deadline))
        lines.append(t("bot.start.choose", loc))
        humans = hosted.user_ids()
        lines.append(" ".join(f"<@{u}>" for u in humans))
        await d.update_lobby(hosted.id, loc)
        palette = game_palette(hosted)
        png = await d.bot.pictures.map(game, names, loc, palette=palette)
        kwargs: dict[str, Any] = {"file": d.as_file(png, "map.png", board_alt(game, names, loc,
                                                              palette=palette))} if png else {}
        await d.send(hosted.channel_id, "\n".join(lines), row=row,
                     view=components.hand_view(hosted.id, loc),
                     allowed_mentions=mention_only(*humans), **kwargs)
        self.warm(hosted.id, game.board, loc, humans)

    def warm(self, game_id: int, board: Board, loc: str, humans: Sequence[int]) -> None:
        """Have the workers build what a new game's pictures are drawn on (Pictures.warm), in
        the background: nothing of it may hold up or fail the post that starts it."""
        bot = self.d.bot

        async def warm() -> None:
            try:
                private = [await bot.locale_for_user(u) for u in humans]
                await bot.pictures.warm(board, loc, private)
            except WorkerLost as exc:   # the pool's trouble: the pictures are built when drawn
                log.info("could not prepare the pictures of game %s: %r", game_id, exc)
            except Exception:
                log.exception("could not prepare the pictures of game %s", game_id)
        task = asyncio.get_running_loop().create_task(warm(), name=f"ttr-warm-{game_id}")
        self._warming.add(task)
        task.add_done_callback(self._warming.discard)
