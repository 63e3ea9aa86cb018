"""The final reveal: the last turn's lines, every player's tickets and score, the score
picture; what the game did to the ratings, its film and the Rematch button (finale.py), and
the one line in the parent channel when the game had a thread of its own."""
from __future__ import annotations

import asyncio
from typing import Any

from ...i18n import t
from ...service import OwedMessage
from ..palettes import game_palette
from ..text.card_text import final_alt, mark
from ..text.format import chunks, map_title, reveal_lines, sep
from . import finale
from .delivery import Delivery
from .retries import time_left


class FinalPost:
    def __init__(self, delivery: Delivery) -> None:
        self.d = delivery

    async def post(self, hosted: Any, lines: list[str], loc: str,
                   row: OwedMessage | None = None) -> None:
        d = self.d
        game, names, channel_id = hosted.game, hosted.names(), hosted.channel_id
        scores = game.scores()
        # the score picture and the film drawn at once (two workers): the post waits for the
        # slower, not for the sum, and for neither past what is left of the send's bound (the
        # worker pool's queue may be long): the scores go out whatever the pool is doing, and
        # a post tried FILM_TRIES times goes without its film
        within = time_left()
        film = row is None or row.attempts < finale.FILM_TRIES
        png, end = await asyncio.gather(
            finale.bounded(d.render(game, names, locale=loc, final=True,
                                    palette=game_palette(hosted)), within),
            finale.final_post(d.bot, hosted, loc, film=film, within=within))
        if png is not None and end.film is not None and \
                len(png) > finale.PICTURE_ROOM:   # never seen: a film left too little room
            end = await finale.final_post(d.bot, hosted, loc, png, within=time_left())
        marks = [mark(seat, game_palette(hosted)) for seat in range(len(names))]
        parts = chunks(lines + [""] + reveal_lines(scores, names, loc, marks) + end.lines)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs = {"file": d.as_file(png, "final.png", final_alt(game, names, loc))} \
                if last and png else {}
            msg = await d.send(channel_id, part, row=row, part=i,
                               **(end.attach(kwargs) if last else kwargs))
        await end.posted(msg)
        await d.replace_panel(hosted.id, channel_id, None)
        await d.tell_parent(hosted, row, t(
            "bot.thread.result", loc, map=map_title(game.board, loc), thread=f"<#{channel_id}>",
            names=sep(loc).join(names[w] for w in scores[1])))
