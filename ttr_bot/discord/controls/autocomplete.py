"""Autocomplete for /ttr claim, /ttr keep and /ttr station, and reading back what was typed.

The choice lists are computed from the player's own `PlayerView` (what they may know), so
they are pure and tested without Discord; `*_autocomplete` are the thin async callbacks. A
player may also type instead of picking: `resolve_*` read names as well as the values the
choices carry.
"""
import logging
import re
from itertools import combinations

from discord import app_commands

from ...i18n import t
from ...render.tickets import OFFER_TAGS
from ..client_of import bot_of
from ..text.format import clip, fold, route_choice_label, ticket_text
from . import menus
from .payment_choices import station_options

log = logging.getLogger(__name__)
MAX_CHOICES = 25


class Unreadable(ValueError):
    """What a player typed cannot be read; `key` is the catalog key saying so."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


def small_number(text, limit=10_000):
    """The number `text` writes in decimal digits (any script's: Persian and Thai keyboards type
    their own), or None: '²', '①' or a 5,000-digit string are not numbers a player means."""
    text = text.strip()
    if not text or len(text) > len(str(limit)) or not text.isdecimal():
        return None
    value = int(text)
    return value if value <= limit else None


def _matches(query, text):
    words = fold(query).replace("–", " ").replace("-", " ").split()
    target = fold(text)
    return all(w in target for w in words)


# ----- routes -----------------------------------------------------------------------------------
def claimable_routes(view):
    """[(Route, payments)] the viewing player may claim right now and can pay for."""
    return view.claimable_routes()


def route_choices(view, typed, loc):
    """[(label, value)]: routes claimable now whose label contains every typed word; before
    anything is typed, those serving the player's tickets first (as the Claim menu)."""
    board = view.board
    if not (typed or "").strip():
        return menus.route_choices(board, menus.ordered_routes(view), loc)
    out = []
    for route, _ in claimable_routes(view):
        label = route_choice_label(board, route, loc)
        if _matches(typed or "", label):
            out.append((label, str(route.index)))
    out.sort(key=lambda c: fold(c[0]))
    return out[:MAX_CHOICES]


def resolve_route(board, text):
    """Route indices meant by `text`: a choice value, or two city names ('Denver El Paso')."""
    text = (text or "").strip()
    if text.isdecimal():
        i = small_number(text)
        return [i] if i is not None and i < len(board.routes) else []
    words = fold(text.split("·")[0]).replace("–", " ").replace("-", " ")
    found = []
    for route in board.routes:
        a, b = fold(board.nodes[route.a].name), fold(board.nodes[route.b].name)
        if _both_named(words, a, b):
            found.append(route.index)
    return found


def _both_named(words, a, b):
    for first, second in ((a, b), (b, a)):
        i = words.find(first)
        if i < 0:
            continue
        rest = words[:i] + " " + words[i + len(first):]
        if second in rest:
            return True
    return False


# ----- tickets ------------------------------------------------------------------------------------
def ticket_choices(view, typed, loc, minimum):
    """[(label, value)]: which of the offered tickets to keep, by the letters the menu and the
    private board give them, e.g. ('A,C · Denver – El Paso (4); …', 'A,C'); typed as letters,
    positions ('1,3') or city names."""
    offer = list(view.offer or ())
    if not offer:
        return []
    board = view.board
    out = []
    for k in range(len(offer), max(minimum, 1) - 1, -1):
        for combo in combinations(range(len(offer)), k):
            value = ",".join(OFFER_TAGS[i] for i in combo)
            numbers = ",".join(str(i + 1) for i in combo)
            names = "; ".join(ticket_text(board.tickets[offer[i]]) for i in combo)
            label = clip(f"{value} · {names}")
            bare = (typed or "").replace(" ", "").upper()
            if _matches(typed or "", label) or bare in (value, numbers):
                out.append((label, value))
    return out[:MAX_CHOICES]


def parse_keep(text, offer, board):
    """Ticket ids meant by 'A,C' (the offer's letters, as the menu and the map tag them), '1,3'
    (positions in the offer), 'all', or ticket names; Unreadable with a catalog key when it
    cannot be read."""
    text = (text or "").strip()
    if fold(text) in ("all", "*"):
        return tuple(offer)
    parts = re.split(r"[,;/ ]+", text)
    positional = all(_is_tag(p) or p.isdecimal() or p.isdigit() for p in parts if p)
    if not positional:
        parts = re.split(r"[,;]+", text)
    picked = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if positional:                 # 'A', 'c', '3', '۳', but also '²' and '①'
            i = (OFFER_TAGS.index(part.upper()) + 1 if _is_tag(part)
                 else small_number(part, len(offer)))
            if i is None or not 1 <= i <= len(offer):
                raise Unreadable("bot.keep.bad_number")
            tid = offer[i - 1]
        else:
            hits = [tid for tid in offer if _matches(part, board.tickets[tid].label())]
            if len(hits) != 1:
                raise Unreadable("bot.keep.bad_name")
            tid = hits[0]
        if tid not in picked:
            picked.append(tid)
    if not picked:
        raise Unreadable("bot.keep.empty")
    return tuple(picked)


def _is_tag(part):
    """One of the offer's letters (render.tickets.OFFER_TAGS), in either case."""
    return len(part) == 1 and part.upper() in OFFER_TAGS


# ----- cities ---------------------------------------------------------------------------------------
def station_cost(view):
    return view.station_cost()


def city_choices(view, typed, loc):
    """[(label, value)]: cities where a station can go, with this player's price, the cities
    of their unfinished tickets first; none unless it is their turn and they can pay for a
    station (a list they could only be refused from helps nobody)."""
    board = view.board
    cost = view.station_cost()
    if not view.idle_turn() or not station_options(view.hand, cost):
        return []
    out = []
    for city in menus.station_city_order(view, view.station_sites()):
        node = board.nodes[city]
        if _matches(typed or "", node.name):
            out.append((clip(t("bot.station_choice", loc, city=node.name, count=cost)),
                        str(node.index)))
    return out[:MAX_CHOICES]


def resolve_city(board, text):
    text = (text or "").strip()
    if text.isdecimal():
        i = small_number(text)
        return i if i is not None and i < len(board.nodes) else None
    name = fold(text.split("·")[0]).strip()
    for node in board.nodes:
        if fold(node.name) == name and not node.country:
            return node.index
    return None


# ----- the callbacks --------------------------------------------------------------------------------
async def _player_view(interaction):
    """(view, locale) of the user in this channel's game, or (None, locale)."""
    bot = bot_of(interaction)
    loc = bot.locale_hint(interaction)
    hosted = await bot.service.game_in_channel(interaction.channel_id)
    if hosted is None or not hosted.started:
        return None, loc
    seat = hosted.seat_of(interaction.user.id)
    return (None, loc) if seat is None else (hosted.view(seat), loc)


def _to_choices(pairs):
    return [app_commands.Choice(name=clip(name), value=clip(value)) for name, value in pairs]


async def _safe(interaction, make):
    try:
        view, loc = await _player_view(interaction)
        return _to_choices(make(view, loc)) if view is not None else []
    except Exception:
        log.exception("autocomplete failed for user %s in channel %s",
                      interaction.user.id, interaction.channel_id)
        return []


async def route_autocomplete(interaction, current):
    return await _safe(interaction, lambda v, loc: route_choices(v, current, loc))


async def keep_autocomplete(interaction, current):
    return await _safe(interaction, lambda v, loc: ticket_choices(v, current, loc, v.keep_min()))


async def city_autocomplete(interaction, current):
    return await _safe(interaction, lambda v, loc: city_choices(v, current, loc))
