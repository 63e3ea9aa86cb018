"""The turn card's words: the standings as text, what the others did since a player's last move,
and the alt text of every picture (Discord's attachment `description`).

Pure functions of engine data and a locale, like format.py. Only public information: scores on
the track, trains, the *counts* of cards and tickets, stations; never a hand or a ticket. The
alt text is the card in plain words (no markdown, no mentions), for screen readers and
text-only clients, cut to Discord's 1,024 characters.
"""
import re

from ..i18n import t
from .format import event_lines, map_title, sep

ALT_LIMIT = 1024        # Discord: an attachment's (and a media gallery item's) description
MARKS = ("🔴", "🟦", "🟩", "🔶", "⬛")   # the colour and shape of each seat's mark in the picture
# what changes the board: a new picture is owed only after one of these
BOARD_EVENTS = ("claim_route", "build_station", "final_round", "game_over")
# what the since-your-last-turn lines tell (card draws are left out: a few lines, not a log)
SINCE_EVENTS = ("claim_route", "draw_tickets", "build_station", "final_round")


def mark(seat):
    return MARKS[seat % len(MARKS)]


def mark_name(seat, loc):
    """'red ring': the colour and shape of the seat's mark, in words."""
    return t(f"bot.seat_mark.{seat % len(MARKS)}", loc)


def board_changed(events):
    return any(e.get("type") in BOARD_EVENTS for e in events)


def standing_line(game, seat, name, loc, *, marker=""):
    stations = (t("bot.status.stations", loc, count=game.stations_left[seat])
                if game.board.rules.stations else "")
    return t("bot.standings.line", loc, marker=marker, mark=mark(seat), name=name,
             color=mark_name(seat, loc), points=t("bot.unit.points", loc, count=game.route_points[seat]),
             trains=t("bot.unit.trains", loc, count=game.trains[seat]),
             cards=t("bot.unit.cards", loc, count=sum(game.hands[seat])),
             tickets=t("bot.unit.tickets", loc, count=len(game.tickets[seat])), stations=stations)


def standings_lines(game, names, loc):
    """A title and one line per player, in seat order, the player to move marked."""
    lines = [t("bot.standings.title", loc)]
    for seat, name in enumerate(names):
        marker = "▶ " if game.phase == "play" and seat == game.current else ""
        lines.append(standing_line(game, seat, name, loc, marker=marker))
    if game.final_turns_left is not None and game.phase != "over":
        lines.append(t("bot.status.final", loc, count=game.final_turns_left))
    return lines


def since_lines(since, board, names, loc, mention, trains=None):
    """'Since your last turn, @x:' and a line per claim, ticket draw, station or final round
    of the others since then (`since`: service.SinceLastTurn; `mention` None: the player's own
    DM). [] when nothing of note happened, or the player never moved yet."""
    if since.since_seq is None:
        return []
    events = [e for e in since.events if e.get("type") in SINCE_EVENTS]
    lines = event_lines(events, board, names, loc, trains=trains)
    if not lines:
        return []
    title = (t("bot.since.title", loc, mention=mention) if mention is not None
             else t("bot.since.title_dm", loc))
    return [title] + [f"• {line}" for line in lines]


# ----- alt text -----------------------------------------------------------------------------------
_MARKDOWN = re.compile(r"\*\*|__|~~|`")
_MENTION = re.compile(r"<@!?\d+>|<#\d+>|<t:\d+(?::\w)?>")


def plain(text):
    """A line without markdown, mentions or timestamps (a screen reader reads them as noise)."""
    return " ".join(_MENTION.sub("", _MARKDOWN.sub("", text)).split())


def cut(text, limit=ALT_LIMIT):
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _alt_standings(game, names, loc):
    return sep(loc).join(
        t("bot.alt.standing", loc, name=name, color=mark_name(seat, loc),
          points=t("bot.unit.points", loc, count=game.route_points[seat]),
          trains=t("bot.unit.trains", loc, count=game.trains[seat]))
        for seat, name in enumerate(names))


def board_alt(game, names, loc, moves=()):
    """The public board in words: the map, the last move(s) (lines of the card), the standings.
    The standings come before the moves when they would not fit: they are the board's news."""
    head = t("bot.alt.board", loc, map=plain(map_title(game.board, loc)), turn=game.turn + 1)
    standings = t("bot.alt.standings", loc, standings=_alt_standings(game, names, loc))
    room = ALT_LIMIT - len(head) - len(standings) - 2
    told = []
    for line in (plain(m) for m in moves):
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
    return cut(t("bot.alt.closeup", loc, items=sep(loc).join(items)))


def _result(game, names, loc):
    """{names: the winners, scores: every player's total, best first}, in words."""
    players, winners = game.scores()
    order = sorted(range(len(players)), key=lambda p: -players[p]["total"])
    scores = sep(loc).join(t("bot.alt.score", loc, name=names[p], count=players[p]["total"])
                           for p in order)
    return {"names": sep(loc).join(names[w] for w in winners), "scores": scores}


def final_alt(game, names, loc):
    return cut(t("bot.alt.final", loc, map=plain(map_title(game.board, loc)),
                 **_result(game, names, loc)))


def film_alt(game, names, loc):
    """The film of the finished `game` in words: what it shows, and how the game ended."""
    return cut(t("bot.alt.film", loc, map=plain(map_title(game.board, loc)),
                 **_result(game, names, loc)))


def lines_alt(lines):
    """Alt text of a picture that shows what `lines` say (the statistics card)."""
    return cut(" ".join(plain(line) for line in lines if line))
