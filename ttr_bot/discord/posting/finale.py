"""What the final post carries besides the scores: what the game did to the ratings, the game as
a film (an animated GIF), the Rematch button; and, once posted, the post is remembered (the
history links to it).

`FinalPost.post` (final_post.py) calls in at three points, so the hook is small to carry into
another delivery:

    png, end = await asyncio.gather(render(final), finale.final_post(bot, hosted, loc))
                                                             # the picture and the film at once
    parts = chunks(... + end.lines)
    msg = await send(channel, last_part, **end.attach(kwargs))   # kwargs: {"file": final.png}
    await end.posted(msg)

`build_film` is the one place the film is built, off the event loop: in the bot's worker
processes (ttr_bot.workers; `render_film` is a pure top-level function of its inputs: the game
as dealt, the names, the engine actions, the language, the size bound). Nothing here blocks the final scores: a film or rating that cannot be had is
logged and left out.
"""
import asyncio
import functools
import io
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from ...i18n import t
from ...ratings import MIN_GAMES, display_rating, provisional
from ...service.clock import cancel_and_wait, sleep
from ...workers import WorkerLost
from ..controls import components
from ..palettes import game_palette
from ..text.card_text import film_alt

if TYPE_CHECKING:
    from ..bot import TTRBot

log = logging.getLogger(__name__)
FILM_NAME = "film.gif"
MAX_UPLOAD = 8 << 20          # Discord's upload limit for a server without boosts, every file
PICTURE_ROOM = 1 << 20        # what the final picture may take of it (a few hundred KiB)


FILM_TIMEOUT = 180.0          # seconds a worker may take over one film (1-3 s is usual)


FILM_TRIES = 2                # tries of an end post that wait for its film; later ones do not


async def build_film(workers, film, locale="en", max_bytes=MAX_UPLOAD, palette="standard",
                     within=None, clock=None):
    """GIF bytes of `film` (service.FilmInput), built in one of `workers` (a WorkerPool), in
    the players' colours of `palette` (the game's public pictures', palettes.py). It is what
    players wait for: it goes in the pool's picture lane, ahead of computer players'
    decisions (`first`). `within`: seconds it may take, queue included (TimeoutError), of
    `clock` if given, else of the event loop."""
    # imported here: Pillow is not needed before the first end
    from ...render.film import render_film
    run = workers.run(functools.partial(render_film, max_bytes=max_bytes, palette=palette),
                      film.game, list(film.names), list(film.actions), locale,
                      timeout=FILM_TIMEOUT, first=True)
    if within is None:
        return await run
    if clock is None:
        return await asyncio.wait_for(run, max(0.0, within))
    return await by_clock(run, clock, within)


async def by_clock(awaitable, clock, seconds):
    """`awaitable`'s value, or TimeoutError after `seconds` of `clock` (the bot's: a test's
    ManualClock moves it), the awaitable then cancelled."""
    work = asyncio.ensure_future(awaitable)
    timer = asyncio.ensure_future(sleep(clock, seconds))
    try:
        await asyncio.wait([work, timer], return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
        if not work.done():
            await cancel_and_wait(work)
    if work.cancelled():
        raise TimeoutError(f"not done within {seconds:g} s")
    return work.result()


async def bounded(awaitable, within):
    """`awaitable`'s value, or None if it takes more than `within` seconds (None: no bound)."""
    if within is None:
        return await awaitable
    try:
        return await asyncio.wait_for(awaitable, max(0.0, within))
    except TimeoutError:
        return None


def film_file(data, name=FILM_NAME, description=None):
    return discord.File(io.BytesIO(data), filename=name, description=description)


def played(film):
    """The game of `film` (service.FilmInput) as it ended: what its alt text tells."""
    game = film.game.copy()
    for action in film.actions:
        game.apply(action)
    return game


@dataclass
class FinalPost:
    bot: "TTRBot"
    game_id: int
    lines: list = field(default_factory=list)    # after the scores: the ratings
    film: bytes | None = None
    film_alt: str | None = None
    view: discord.ui.View | None = None

    def attach(self, kwargs):
        """The last part's send() arguments: its own (the final picture) plus the film and
        the Rematch button."""
        out = dict(kwargs)
        files = [out.pop("file")] if "file" in out else []
        if self.film:
            files.append(film_file(self.film, description=self.film_alt))
        if files:
            out["files"] = files
        if self.view is not None:
            out["view"] = self.view
        return out

    async def posted(self, message):
        """Remember the final post (the history links to it)."""
        try:
            await self.bot.service.adapter_state.remember_final_post(self.game_id, message.channel.id,
                                                                     message.id)
        except Exception:
            log.exception("could not remember the final post of game %s", self.game_id)


async def final_post(bot, hosted, loc, png=None, *, film=True, within=None):
    """The additions to the final post of the finished game `hosted`, in language `loc`; `png`
    is the final picture going with it (the film takes what is left of the upload limit), or
    None while it is being drawn side by side with the film (the film then leaves it
    PICTURE_ROOM). The film is left out when not wanted (`film`: a retried post goes without)
    or not made within `within` seconds (what is left of the send's bound): the scores never
    wait on the worker pool's queue, and the post then says how to get the film."""
    end = FinalPost(bot, hosted.id, view=components.rematch_view(hosted.id, loc),
                    film_alt=film_alt(hosted.game, hosted.names(), loc))
    try:
        rating = await bot.service.records.game_rating(hosted.id)
        end.lines = rating_lines(rating, loc)
        if rating.rated:
            end.view = components.rematch_view(hosted.id, loc, ratings=True)
    except Exception:
        log.exception("could not read the ratings of game %s", hosted.id)
    if not film:
        end.lines += ["", t("bot.end.film_later", loc, game=hosted.id)]
        return end
    try:
        data = await bot.service.records.replay_data(hosted.id, hosted.guild_id)
        room = MAX_UPLOAD - (len(png) if png is not None else PICTURE_ROOM)
        end.film = await build_film(bot.workers, data, loc, room, game_palette(hosted),
                                    within=within)
    except TimeoutError:        # the pool's queue is long: the scores go now, the film later
        log.warning("the film of game %s was not made within %.1f s: posting without it",
                    hosted.id, within or 0.0)
        end.lines += ["", t("bot.end.film_later", loc, game=hosted.id)]
    except WorkerLost as exc:   # the pool's trouble (a crash, a hang): the post goes without
        log.warning("the film of game %s could not be made: %r", hosted.id, exc)
    except Exception:
        log.exception("the film of game %s could not be made", hosted.id)
    return end


def rating_lines(rating, loc):
    """What the game did to the ratings in its server, best placed first; or why it was not
    rated. Figures are display ratings (ratings.display_rating: 1000 to start). A player still
    in their first MIN_GAMES rated games sees their rating marked provisional, without the
    change: one early game moves it a lot either way, and a newcomer should not read a loss
    in their first game as a verdict (as chess sites do)."""
    if not rating.rated:
        return ["", t(rating.reason, loc)] if rating.reason else []
    lines = ["", t("bot.end.rated", loc)]
    for d in rating.changes:
        after = display_rating(d.after)
        if d.before is None or provisional(d.games):
            lines.append(t("bot.end.rating_new", loc, name=d.name, after=after,
                           played=d.games, count=MIN_GAMES))
        else:
            change = after - display_rating(d.before)
            lines.append(t("bot.end.rating", loc, name=d.name, after=after,
                           before=display_rating(d.before),
                           change=f"+{change}" if change >= 0 else f"−{-change}"))
    return lines
