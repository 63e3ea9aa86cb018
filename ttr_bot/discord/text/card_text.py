"""The turn card's words: the standings as text, what the others did since a player's last move,
and the alt text of every picture (Discord's attachment `description`).

Pure functions of engine data and a locale, like format.py. Only public information: scores on
the track, trains, the *counts* of cards and tickets, stations; never a hand or a ticket. The
alt text is the card in plain words (no markdown, no mentions), for screen readers and
text-only clients, cut to Discord's 1,024 characters.
"""
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from ...engine.board import Board
from ...engine.event_types import (
    BUILD_STATION,
    CLAIM_ROUTE,
    DRAW_TICKETS,
    FINAL_ROUND,
    GAME_OVER,
    Event,
)
from ...i18n import t
from ...render.extras import alt_lines
from ...render.palette import COLOURBLIND, STANDARD
from .format import event_lines, map_title, sep, status_lines

if TYPE_CHECKING:
    from ...service import SinceLastTurn

ALT_LIMIT = 1024        # Discord: an attachment's (and a media gallery item's) description
# Each palette's seats (render/palette.py SCHEMES, same order) as an emoji of the colour the
# picture draws their cars in, and the catalog key naming that colour and the shape of the mark
# (`bot.seat_mark.<palette>.<seat>`). A screen reader reads the emoji by its Unicode name
# ("large brown square"), so the emoji must be the seat's colour too: a test compares each with
# the palette's RGB.
MARKS = {
    STANDARD: ("🔴", "🟦", "🟩", "🟨", "⬛"),    # red, blue, light green, yellow, near-black
    COLOURBLIND: ("🔵", "🟫", "🟦", "🔶", "⬛"),  # sky blue, brown, dark blue, amber, near-black
}
# what changes the board: a new picture is owed only after one of these
BOARD_EVENTS: frozenset[Literal["claim_route", "build_station", "final_round", "game_over"]] = \
    frozenset({CLAIM_ROUTE, BUILD_STATION, FINAL_ROUND, GAME_OVER})
# what the since-your-last-turn lines tell (card draws are left out: a few lines, not a log)
SINCE_EVENTS: frozenset[Literal["claim_route", "draw_tickets", "build_station", "final_round"]] = \
    frozenset({CLAIM_ROUTE, DRAW_TICKETS, BUILD_STATION, FINAL_ROUND})


def _palette(palette):
    return palette if palette in MARKS else STANDARD


def mark(seat, palette=STANDARD):
    """The seat's emoji: the colour its cars are drawn in, in `palette`."""
    marks = MARKS[_palette(palette)]
    return marks[seat % len(marks)]


def mark_name(seat, loc, palette=STANDARD):
    """'red ring' ('brown square' in the colour-blind palette): the colour and shape of the
    seat's mark in the picture drawn in `palette`, in words."""
    palette = _palette(palette)
    return t(f"bot.seat_mark.{palette}.{seat % len(MARKS[palette])}", loc)


def board_changed(events: Iterable[Event]) -> bool:
    return any(e["type"] in BOARD_EVENTS for e in events)


def standing_line(game, seat, name, loc, *, marker="", palette=STANDARD):
    """One short line: '▶ 🟦 **Bea** 8 points 🚃38 🃏7 🎫2 🚉3' (the mark in the picture's
    colour; its name is in the map's alt text and the Details)."""
    stations = (t("bot.standings.stations", loc, count=game.stations_left[seat])
                if game.board.rules.stations else "")
    return t("bot.standings.short", loc, marker=marker, mark=mark(seat, palette), name=name,
             points=t("bot.unit.points", loc, count=game.route_points[seat]),
             trains=game.trains[seat], cards=sum(game.hands[seat]),
             tickets=len(game.tickets[seat]), stations=stations)


def standings_lines(game, names, loc, palette=STANDARD, final_told=False):
    """One short line per player, in seat order, the player to move marked; then, in the
    final round, how many turns are left, unless the card already says the final round began
    (`final_told`: its own line says who brought it and that everyone gets one more turn)."""
    lines = []
    for seat, name in enumerate(names):
        marker = "▶ " if game.phase == "play" and seat == game.current else ""
        lines.append(standing_line(game, seat, name, loc, marker=marker, palette=palette))
    if game.final_turns_left is not None and game.phase != "over" and not final_told:
        lines.append(t("bot.status.final", loc, count=game.final_turns_left))
    return lines


def since_lines(since: "SinceLastTurn", board: Board, names: Sequence[str], loc: str,
                mention: str | None, trains: Sequence[int] | None = None) -> list[str]:
    """'Since your last turn, @x:' and a line per claim, ticket draw, station or final round
    of the others since then (`since`: service.SinceLastTurn; `mention` None: the player's own
    DM). [] when nothing of note happened, or the player never moved yet."""
    if since.since_seq is None:
        return []
    events = [e for e in since.events if e["type"] in SINCE_EVENTS]
    lines = event_lines(events, board, names, loc, trains=trains)
    if not lines:
        return []
    title = (t("bot.since.title", loc, mention=mention) if mention is not None
             else t("bot.since.title_dm", loc))
    return [title] + [f"• {line}" for line in lines]


def since_item(e: Event, board: Board, names: Sequence[str], loc: str) -> str | None:
    name = names[e["seat"]] if "seat" in e else ""
    if e["type"] == CLAIM_ROUTE:
        return t("bot.since.claim", loc, name=name, route=board.route_label(e["route"]))
    if e["type"] == DRAW_TICKETS:
        return t("bot.since.tickets", loc, name=name)
    if e["type"] == BUILD_STATION:
        return t("bot.since.station", loc, name=name, city=board.nodes[e["city"]].name)
    return None


def since_line(since: "SinceLastTurn", board: Board, names: Sequence[str], loc: str,
               mention: str | None, told: Sequence[Event] = ()) -> list[str]:
    """The card's one line of what the others did since the pinged player's last move:
    'Since your last turn, @Bea: Ann → Berlin – Essen · Cy drew tickets' (the map rings the
    claims; the final round has its own line). Events the card already `told` are left out;
    [] when nothing else of note happened, or the player never moved yet."""
    if since.since_seq is None:
        return []
    said = [since_item(e, board, names, loc) for e in since.events
            if e["type"] in SINCE_EVENTS and e not in told]
    items = [x for x in said if x]
    return [t("bot.since.short", loc, mention=mention, moves=" · ".join(items))] if items else []


def details_lines(game, names, loc, palette=STANDARD):
    """The card's "Details": /ttr status in words (every player's points, cards, tickets,
    trains, stations; the face-up row and the piles) and each seat's mark named."""
    marks = sep(loc).join(f"{mark(seat, palette)} {name} ({mark_name(seat, loc, palette)})"
                          for seat, name in enumerate(names))
    return status_lines(game, names, loc) + [marks]


# ----- alt text -----------------------------------------------------------------------------------
_MARKDOWN = re.compile(r"\*\*|__|~~|`")
_MENTION = re.compile(r"<@!?\d+>|<#\d+>|<t:\d+(?::\w)?>")


def plain(text):
    """A line without markdown, mentions or timestamps (a screen reader reads them as noise)."""
    return " ".join(_MENTION.sub("", _MARKDOWN.sub("", text)).split())


def cut(text, limit=ALT_LIMIT):
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _alt_standings(game, names, loc, palette):
    return sep(loc).join(
        t("bot.alt.standing", loc, name=name, color=mark_name(seat, loc, palette),
          points=t("bot.unit.points", loc, count=game.route_points[seat]),
          trains=t("bot.unit.trains", loc, count=game.trains[seat]))
        for seat, name in enumerate(names))


def board_alt(game, names, loc, moves=(), palette=STANDARD):
    """The public board in words: the map, the last move(s) (lines of the card), the standings
    with each seat's mark named in the colour `palette` draws it. The standings come before
    the moves when they would not fit: they are the board's news."""
    head = t("bot.alt.board", loc, map=plain(map_title(game.board, loc)), turn=game.turn + 1)
    standings = t("bot.alt.standings", loc,
                  standings=_alt_standings(game, names, loc, palette))
    room = ALT_LIMIT - len(head) - len(standings) - 2
    told: list[str] = []
    for line in [*(plain(m) for m in moves), *alt_lines(game, names, loc)]:
        if line and sum(len(x) + 1 for x in told) + len(line) + 1 <= room:
            told.append(line)
    return cut("\n".join([head, *told, standings]))    # a line per move, as on the card


def closeup_alt(shows, names, loc):
    """The close-up in words (`shows`: render.closeup_contents): each route and its owner, each
    station and its owner, the lanes the claims closed."""
    def who(seat):
        return names[seat] if 0 <= seat < len(names) else t("bot.alt.nobody", loc)
    items = [t("bot.alt.closeup_route", loc, route=label, name=who(owner))
             for _, label, owner in shows.get("routes", ())]
    items += [t("bot.alt.closeup_station", loc, city=city, name=who(owner))
              for _, city, owner in shows.get("stations", ())]
    items += [t("bot.alt.closeup_closed", loc, route=label) for _, label in shows.get("closed", ())]
    items += [t("bot.alt.closeup_marks", loc, route=label, marks=sep(loc).join(
        t(f"bot.alt.mark.{k}", loc, n=v, companies=" ".join(map(str, v)) if k == "shares" else "")
        for k, v in marks.items())) for label, marks in shows.get("marks", ())]
    return cut(t("bot.alt.closeup", loc, items=sep(loc).join(items)))


def _result(game, names, loc):
    """{names: the winners, scores: every player's total, best first}, in words."""
    players, winners = game.scores()
    order = sorted(range(len(players)), key=lambda p: -players[p]["total"])
    def longest(pl):        # the longest path as its length and its points
        got = pl["bonuses"].get("longest_path")
        return (t("bot.end.longest_bonus", loc, count=pl["longest_path"], points=got) if got
                else t("bot.end.longest", loc, count=pl["longest_path"]))
    scores = sep(loc).join(
        t("bot.alt.score", loc, name=names[p], count=players[p]["total"])
        + (f" ({longest(players[p])})" if game.rules.longest_path_bonus else "")
        for p in order)
    return {"names": sep(loc).join(names[w] for w in winners), "scores": scores}


def final_alt(game, names, loc):
    return cut(" ".join([t("bot.alt.final", loc, map=plain(map_title(game.board, loc)),
                           **_result(game, names, loc)),
                         *alt_lines(game, names, loc, final=True)]))


def film_alt(game, names, loc):
    """The film of the finished `game` in words: what it shows, and how the game ended."""
    return cut(" ".join([t("bot.alt.film", loc, map=plain(map_title(game.board, loc)),
                           **_result(game, names, loc)),
                         *alt_lines(game, names, loc, final=True)]))


def lines_alt(lines):
    """Alt text of a picture that shows what `lines` say (the statistics card)."""
    return cut(" ".join(plain(line) for line in lines if line))
