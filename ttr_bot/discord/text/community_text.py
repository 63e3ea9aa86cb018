"""The words of a server's community posts: the live board's text (a section at a time, each
drawn by the function registered under its name: `SECTIONS`, which a later feature extends
with `register_section`), a season's lines and its title. Pure: plain values in, text out."""
from collections.abc import Callable, Sequence
from typing import Any

from ...i18n import t
from ...stats import map_name
from .format import clip, fit

GAMES_SHOWN = 12        # the games in progress listed; the rest are counted
Items = Sequence[dict[str, Any]]
SectionText = Callable[[Items, str], list[str]]


def when(ts: float | None, style: str = "R") -> str:
    return "—" if ts is None else f"<t:{int(ts)}:{style}>"


def season_title(season: str, loc: str) -> str:
    """"Season 2026-11", "Season 2026 Q4", in the catalog's words."""
    year = season[:4]
    if "Q" in season:
        return t("bot.season.title_quarter", loc, year=year, quarter=season[-1])
    return t("bot.season.title_month", loc, year=year, month=season[5:7])


def season_line(line: Any, loc: str) -> str:
    """One player's season in one line (a service SeasonLine)."""
    return t("bot.season.line", loc, rank=line.rank, name=line.name, points=line.points,
             games=line.games, wins=line.wins)


def _games(items: Items, loc: str) -> list[str]:
    out = [f"**{t('bot.live.games', loc)}**"]
    if not items:
        return out + [t("bot.live.no_games", loc)]
    for g in items[:GAMES_SHOWN]:
        key = "bot.live.game_deadline" if g.get("deadline") else "bot.live.game"
        out.append("• " + t(key, loc, game=g["game"], map=map_name(g["map"], loc),
                            channel=f"<#{g['channel']}>", turn=", ".join(g.get("turn") or ()),
                            since=when(g.get("since")), deadline=when(g.get("deadline"))))
    if len(items) > GAMES_SHOWN:
        out.append(t("bot.live.more", loc, n=len(items) - GAMES_SHOWN))
    return out


def _lobbies(items: Items, loc: str) -> list[str]:
    out = [f"**{t('bot.live.lobbies', loc)}**"]
    if not items:
        return out + [t("bot.live.no_lobbies", loc)]
    return out + ["• " + t("bot.live.lobby", loc, game=g["game"], map=map_name(g["map"], loc),
                           channel=f"<#{g['channel']}>", host=g.get("host") or "?",
                           seats=g["seats"], max=g["max"]) for g in items]


def _cups(items: Items, loc: str) -> list[str]:
    out = [f"**{t('bot.live.cups', loc)}**"]
    if not items:
        return out + [t("bot.live.no_cups", loc)]
    for c in items:
        fields = {"name": c["name"], "channel": f"<#{c['channel']}>",
                  "deadline": when(c.get("deadline"))}
        if c.get("status") == "signup":
            out.append("• " + t("bot.live.cup_signup", loc, players=c["players"], **fields))
            continue
        out.append("• " + t("bot.live.cup_round", loc, round=c["round"], rounds=c["rounds"],
                            **fields))
        top = [t("bot.live.cup_top", loc, rank=i, name=name, points=points)
               for i, (name, points) in enumerate(c.get("top") or (), 1)]
        if top:
            out.append("  " + " · ".join(top))
    return out


def _season(items: Items, loc: str) -> list[str]:
    if not items:
        return [f"**{t('bot.live.season_none_title', loc)}**", t("bot.live.no_season", loc)]
    out = [f"**{t('bot.live.season', loc, season=season_title(items[0]['season'], loc))}**"]
    return out + [t("bot.live.season_line", loc, rank=p["rank"], name=p["name"],
                    points=p["points"], games=p["games"]) for p in items]


SECTIONS: dict[str, SectionText] = {
    "games": _games, "lobbies": _lobbies, "cups": _cups, "season": _season}


def register_section(name: str, draw: SectionText) -> None:
    """How the board draws the section the service registered under `name`."""
    SECTIONS[name] = draw


def board_text(sections: Sequence[Any], loc: str) -> str:
    """The board's message (a BoardPost's sections); sections nobody draws are left out."""
    parts = [f"## {t('bot.live.title', loc)}"]
    for section in sections:
        draw = SECTIONS.get(section.name)
        if draw is not None:
            parts.append("\n".join(draw(section.items, loc)))
    return fit("\n\n".join(parts))


def lobby_items(sections: Sequence[Any]) -> list[dict[str, Any]]:
    return [dict(i) for s in sections if s.name == "lobbies" for i in s.items]


def join_label(game: int, loc: str) -> str:
    return clip(t("bot.live.join", loc, game=game), 80)
