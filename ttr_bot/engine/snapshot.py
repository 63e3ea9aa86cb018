"""A game's whole state as plain JSON-able data, and back.

The service stores this beside the action log so that a game loads without replaying it; the
dealer's generator state and the orders it dealt travel with it, so the game continues exactly
as it would have, and can still be exported as a record. The fields and their JSON forms are
those of state.FIELDS, in that order.
"""
from typing import Any

from .board import Board
from .dealer import Dealer
from .game import Game
from .state import FIELDS

VERSION = 1


def to_dict(game: Game) -> dict[str, Any]:
    d = {"v": VERSION, "map": game.board.map_id, "variant": game.board.variant, "n": game.n}
    for f in FIELDS:
        if f.name == "extra" and not game.extra:
            continue
        d[f.name] = f.to_json(getattr(game, f.name))
    dealer = game.dealer
    d["dealer"] = {"seed": dealer.seed, **dealer.state(), "dealt": dealer.dealt,
                   "dealt_reshuffles": dealer.dealt_reshuffles,
                   "fixed": dealer.fixed, "reshuffles": dealer.reshuffles}
    return d


def from_dict(board: Board, d: dict[str, Any]) -> Game:
    if d.get("v") != VERSION:
        raise ValueError(f"unknown snapshot version {d.get('v')!r}")
    if (d["map"], d["variant"]) != (board.map_id, board.variant):
        raise ValueError("snapshot is of another map or variant")
    dd = d["dealer"]
    dealer = Dealer(dd["seed"], reshuffles=dd["reshuffles"], **dd["fixed"])
    dealer.restore(dd)
    dealer.dealt = dd["dealt"]
    dealer.dealt_reshuffles = dd["dealt_reshuffles"]
    return Game.from_state(board, d["n"], dealer,
                           {f.name: f.from_json(d.get(f.name, {}) if f.name == "extra" else d[f.name])
                            for f in FIELDS})
