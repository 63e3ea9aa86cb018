"""Custom ids of the persistent components: build and parse, pure.

Every id starts with "ttr:<kind>:<game id>" (the pages of a server's leaderboard and history:
"ttr:<kind>:<guild id>"); ids of components that act on the game also carry the game's
sequence number, so a stale or double click is refused instead of applied twice.
Discord allows 100 characters; the longest id here stays far below that.
"""
import re
from typing import Any

MAX_LEN = 100
_N = r"(?P<game>\d{1,20})"
_S = r"(?P<seq>\d{1,10})"
_CARDS = r"(?P<cards>\d{1,3}(?:\.\d{1,3}){8})"
_G = r"(?P<guild>\d{1,20})"
_P = r"(?P<page>\d{1,6})"

# kind -> template regex (DynamicItem templates use these verbatim)
TEMPLATES = {
    "lobby": rf"ttr:lobby:{_N}:(?P<op>join|leave|start)",
    "addbot": rf"ttr:addbot:{_N}",
    "unseat": rf"ttr:unseat:{_N}",    # the host takes a seat away in the lobby
    "draw": rf"ttr:draw:{_N}:{_S}:(?P<src>[a-z]{{1,12}})",
    "claim": rf"ttr:claim:{_N}:{_S}",
    "route": rf"ttr:route:{_N}:{_S}",
    # a city first when more routes can be claimed than one menu holds (25), then its routes;
    # a message holds several such menus, `part` tells them apart
    "rcity": rf"ttr:rcity:{_N}:{_S}:(?P<part>\d)",
    "station": rf"ttr:station:{_N}:{_S}",           # "Station…": the city menus
    "stcity": rf"ttr:stcity:{_N}:{_S}:(?P<part>\d)",
    "pay": rf"ttr:pay:{_N}:{_S}:(?P<what>[rs])(?P<target>\d{{1,4}}):{_CARDS}",
    # Pennsylvania: a claim paid as `cards` taking a share of company `share` (and with 2
    # players giving the dummy one of company `dummy`, 0: none)
    "share": rf"ttr:share:{_N}:{_S}:(?P<target>\d{{1,4}}):{_CARDS}:(?P<share>\d{{1,2}}):(?P<dummy>\d{{1,2}})",
    # the same choice as a menu when there are more than 20 (values: share * 100 + dummy)
    "sharesel": rf"ttr:sharesel:{_N}:{_S}:(?P<target>\d{{1,4}}):{_CARDS}",
    # "go": the confirmation's button (/ttr me confirm), which draws without asking again
    "tickets": rf"ttr:tickets:{_N}:{_S}(?::(?P<op>go))?",
    "cancel": rf"ttr:cancel:{_N}",          # a confirmation's Cancel: nothing is played
    "details": rf"ttr:details:{_N}",        # the turn card's Details: the standings in full
    "keep": rf"ttr:keep:{_N}:{_S}",
    "tunnel": rf"ttr:tunnel:{_N}:{_S}:(?P<op>pay|decline)(?::{_CARDS})?",
    "hand": rf"ttr:hand:{_N}",
    # leaving a game in play, confirmed: "bot" hands the seat to a computer player, "end" (the
    # last human leaving) cancels the game; the service refuses if that is no longer so
    "quit": rf"ttr:quit:{_N}:{_S}:(?P<mode>bot|end)",
    # a server's game life: the final post's Rematch, a game's record from the history, and
    # the pages of the leaderboard (of a map, or "-": every map) and of the history (of one
    # user, or 0: everyone); these name the server, not a game, after the kind
    "rematch": rf"ttr:rematch:{_N}",
    "record": rf"ttr:record:{_N}",
    "ranks": rf"ttr:ranks:{_G}:{_P}:(?P<map>[a-z0-9_]{{1,24}}|-)",
    "hist": rf"ttr:hist:{_G}:{_P}:(?P<user>\d{{1,20}})",
    # /ttr help's "All commands" and "How ratings work" (also under the final post): no
    # game, so the game's place holds 0
    "help": rf"ttr:help:{_N}:(?P<topic>commands|ratings)",
    # a ballot in a vote (/ttr vote): the vote's id says which vote, whatever the game's seq
    "vote": rf"ttr:vote:{_N}:(?P<vote>\d{{1,12}}):(?P<op>yes|no)",
    # a cup's post (/ttr cup): Join and Withdraw; the cup's id in the game's place
    "cup": rf"ttr:cup:{_N}:(?P<op>join|leave)",
    # Join on the live board (/ttr server board): the lobby's game, wherever the board is
    "bjoin": rf"ttr:bjoin:{_N}",
}
_COMPILED = {k: re.compile(v) for k, v in TEMPLATES.items()}


def make(kind, game_id, *parts):
    """The custom id for `kind`; raises ValueError if it would not parse back or is too long."""
    cid = ":".join(["ttr", kind, str(game_id), *(str(p) for p in parts)])
    if len(cid) > MAX_LEN or not _COMPILED[kind].fullmatch(cid):
        raise ValueError(f"bad custom id {cid!r}")
    return cid


def parse(custom_id):
    """(kind, {field: value}) with numbers as ints and cards as tuples; None if not ours."""
    for kind, rx in _COMPILED.items():
        m = rx.fullmatch(custom_id)
        if m:
            return kind, fields(m)
    return None


def fields(match):
    out: dict[str, Any] = {}     # None, a card tuple, an int or the text
    for k, v in match.groupdict().items():
        if v is None:
            out[k] = None
        elif k == "cards":
            out[k] = decode_cards(v)
        elif k in ("game", "seq", "target", "guild", "page", "user", "vote", "part", "share",
                   "dummy"):
            out[k] = int(v)
        else:
            out[k] = v
    return out


def encode_cards(cards):
    return ".".join(str(int(c)) for c in cards)


def decode_cards(text):
    return tuple(int(x) for x in text.split("."))
