"""The lobby's line about a game's settings."""
from typing import Any

from ...i18n import LOCALES, t
from ...service import GAME_HINTS, GAME_LANGUAGE
from ..palettes import game_palette


def settings_line(settings: Any, loc: str, hosted: Any = None) -> str:
    """The lobby's line about the game's settings: the deadline per turn, what happens while
    away, the colour-blind palette when the game's public pictures use it, the language
    of its posts when the game has one of its own, and whether /ttr hint is allowed (then the
    game is not rated)."""
    deadline = (t("bot.settings.deadline", loc, count=settings.deadline) if settings.deadline
                else t("bot.settings.no_deadline", loc, count=settings.remind))
    line = deadline + " " + t(f"bot.settings.away_{settings.away}", loc)
    if hosted is not None and game_palette(hosted) != "standard":
        line += " " + t(f"bot.settings.palette_{game_palette(hosted)}", loc)
    language = hosted.options.get(GAME_LANGUAGE) if hosted is not None else None
    if language in LOCALES:
        line += " " + t("bot.settings.language", loc, language=t(f"bot.lang.{language}", loc))
    if hosted is not None and hosted.options.get(GAME_HINTS):
        line += " " + t("bot.settings.hints", loc)
    return line
