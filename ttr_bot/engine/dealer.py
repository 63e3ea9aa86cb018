"""Where every shuffle comes from: a seeded RNG, or orders fixed in advance (a record's
`decks` and `reshuffles`). The engine never shuffles by itself, so a game is a pure function
of its dealer and its actions."""
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .errors import DeckError


class Dealer:
    def __init__(self, seed: int = 0, train: Sequence[int] | None = None,
                 tickets: Sequence[int] | None = None, long_tickets: Sequence[int] | None = None,
                 reshuffles: Iterable[Sequence[int]] = (), **more: Sequence[int] | None) -> None:
        """`more`: the orders of a map's own decks (RULES.md §12–§17: `bonus_cards`, …), by
        kind; only those given are kept, so the base maps' dealers are as they were."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.fixed: dict[str, Sequence[int] | None] = {"train": train, "tickets": tickets, "long_tickets": long_tickets}
        self.fixed.update({kind: order for kind, order in more.items() if order is not None})
        self.reshuffles = list(reshuffles)
        self.used_reshuffles = 0
        self.dealt: dict[str, list[int]] = {}      # kind -> the initial order used, top first
        self.dealt_reshuffles: list[list[int]] = []   # every discard-to-deck order used, top first

    def order(self, kind: str, items: Iterable[int]) -> list[int]:
        """The initial order of a deck, top first. `items` is the deck in canonical order."""
        fixed = self.fixed.get(kind)
        if fixed is None:
            order = list(items)
            self.rng.shuffle(order)
        elif Counter(fixed) != Counter(items):
            raise DeckError(f"decks.{kind} is not a permutation of the {kind} deck")
        else:
            order = list(fixed)
        self.dealt[kind] = list(order)
        return order

    def reshuffle(self, discard: Sequence[int]) -> list[int]:
        """The discard pile becomes the deck: the next fixed order, else a shuffle."""
        if self.used_reshuffles < len(self.reshuffles):
            fixed = self.reshuffles[self.used_reshuffles]
            self.used_reshuffles += 1
            if Counter(fixed) != Counter(discard):
                raise DeckError(f"reshuffles[{self.used_reshuffles - 1}] is not a permutation "
                                f"of the discard pile ({len(discard)} cards)")
            order = list(fixed)
        else:
            order = list(discard)
            self.rng.shuffle(order)
        self.dealt_reshuffles.append(list(order))
        return order

    def clone(self) -> "Dealer":
        d = Dealer.__new__(Dealer)
        d.seed = self.seed
        d.rng = random.Random()
        d.rng.setstate(self.rng.getstate())
        d.fixed = self.fixed
        d.reshuffles = self.reshuffles
        d.used_reshuffles = self.used_reshuffles
        d.dealt = self.dealt
        d.dealt_reshuffles = list(self.dealt_reshuffles)
        return d

    def state(self) -> dict[str, Any]:
        return {"rng": _rng_state_to_json(self.rng.getstate()), "used_reshuffles": self.used_reshuffles}

    def restore(self, state: dict[str, Any]) -> None:
        self.rng.setstate(_rng_state_from_json(state["rng"]))
        self.used_reshuffles = state["used_reshuffles"]


def _rng_state_to_json(st: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = st
    return [version, list(internal), gauss]


def _rng_state_from_json(st: Sequence[Any]) -> tuple[Any, ...]:
    version, internal, gauss = st
    return (version, tuple(internal), gauss)
