"""The baseline: a uniformly random kind of legal action, then a random one of that kind (so
that the many ways to pay for a route do not drown out drawing cards or tickets)."""
from ..engine.actions import type_name
from .base import Agent


class RandomAgent(Agent):
    level = "random"

    def decide(self, view):
        legal = view.legal_actions()
        kinds = {}
        for a in legal:
            kinds.setdefault(type_name(a), []).append(a)
        names = sorted(kinds)
        return self.rng.choice(kinds[self.rng.choice(names)])
