"""Where every shuffle comes from: a seeded RNG, or orders fixed in advance (a record's
`decks` and `reshuffles`). The engine never shuffles by itself, so a game is a pure function
of its dealer and its actions."""
import random
from collections import Counter

from .errors import DeckError


class Dealer:
    def __init__(self, seed=0, train=None, tickets=None, long_tickets=None, reshuffles=()):
        self.seed = seed
        self.rng = random.Random(seed)
        self.fixed = {"train": train, "tickets": tickets, "long_tickets": long_tickets}
        self.reshuffles = list(reshuffles)
        self.used_reshuffles = 0
        self.dealt = {}              # kind -> the initial order used, top first
        self.dealt_reshuffles = []   # every discard-to-deck order used, top first

    def order(self, kind, items):
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

    def reshuffle(self, discard):
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

    def clone(self):
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

    def state(self):
        return {"rng": _rng_state_to_json(self.rng.getstate()), "used_reshuffles": self.used_reshuffles}

    def restore(self, state):
        self.rng.setstate(_rng_state_from_json(state["rng"]))
        self.used_reshuffles = state["used_reshuffles"]


def _rng_state_to_json(st):
    version, internal, gauss = st
    return [version, list(internal), gauss]


def _rng_state_from_json(st):
    version, internal, gauss = st
    return (version, tuple(internal), gauss)
