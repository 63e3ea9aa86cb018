"""A game's whole state as plain JSON-able data, and back.

The service stores this beside the action log so that a game loads without replaying it; the
dealer's generator state and the orders it dealt travel with it, so the game continues exactly
as it would have, and can still be exported as a record.
"""
from collections import deque

from .dealer import Dealer
from .game import Game

VERSION = 1
_LISTS = ("deck", "discard", "faceup", "hands", "trains", "stations_left", "owner", "routes_of",
          "route_points", "stations_of", "tickets", "offers")
_SCALARS = ("phase", "step", "current", "turn", "final_turns_left", "final_trigger", "passes",
            "reshuffles")


def to_dict(game):
    d = {"v": VERSION, "map": game.board.map_id, "variant": game.board.variant, "n": game.n}
    for k in _LISTS + _SCALARS:
        d[k] = getattr(game, k)
    d["station_owner"] = [[c, s] for c, s in game.station_owner.items()]
    d["ticket_deck"] = list(game.ticket_deck)
    d["long_deck"] = list(game.long_deck)
    d["tunnel"] = None if game.tunnel is None else [game.tunnel[0], game.tunnel[1], list(game.tunnel[2]),
                                                    list(game.tunnel[3]), game.tunnel[4]]
    d["last_move"] = None if game.last_move is None else list(game.last_move)
    dealer = game.dealer
    d["dealer"] = {"seed": dealer.seed, **dealer.state(), "dealt": dealer.dealt,
                   "dealt_reshuffles": dealer.dealt_reshuffles,
                   "fixed": dealer.fixed, "reshuffles": dealer.reshuffles}
    return d


def from_dict(board, d):
    if d.get("v") != VERSION:
        raise ValueError(f"unknown snapshot version {d.get('v')!r}")
    if (d["map"], d["variant"]) != (board.map_id, board.variant):
        raise ValueError("snapshot is of another map or variant")
    dd = d["dealer"]
    dealer = Dealer(dd["seed"], reshuffles=dd["reshuffles"], **dd["fixed"])
    dealer.restore(dd)
    dealer.dealt = dd["dealt"]
    dealer.dealt_reshuffles = dd["dealt_reshuffles"]
    g = Game(board, d["n"], dealer, _empty=True)
    for k in _LISTS + _SCALARS:
        setattr(g, k, d[k])
    g.station_owner = {c: s for c, s in d["station_owner"]}
    g.ticket_deck = deque(d["ticket_deck"])
    g.long_deck = deque(d["long_deck"])
    t = d["tunnel"]
    g.tunnel = None if t is None else (t[0], t[1], tuple(t[2]), list(t[3]), t[4])
    g.last_move = None if d["last_move"] is None else tuple(d["last_move"])
    return g
