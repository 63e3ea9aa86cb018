"""The computer-player interface: `agent.act(view) -> action`.

An agent sees a `PlayerView` only (the arena and the bot never hand it the game). Every level
subclasses `Agent` and implements `decide`; `act` makes sure what comes back is legal in the
position the view describes, falling back to a plain legal action if a level ever gets it
wrong — a computer player must never stall a game. On a map with its own rules a claim is
matched to one of the engine's legal claims of its route (ai/mechanics).
"""
import random
from abc import ABC, abstractmethod

from ..engine.actions import (
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
)
from .mechanics import fit_claim, has_mechanics


class Agent(ABC):
    level = "agent"

    def __init__(self, seed=0, **params):
        self.seed = seed
        self.rng = random.Random(seed)
        self.fallbacks = 0   # how often decide() returned something illegal (should stay 0)
        for key, value in params.items():
            # tuning knobs are class attributes; an unknown one is a typo, not a new knob
            if not hasattr(type(self), key) or key.startswith("_"):
                raise TypeError(f"{type(self).__name__} has no parameter {key!r}")
            setattr(self, key, value)

    def act(self, view):
        if not _is_view(view):
            raise TypeError("agents take a PlayerView (ttr_bot.engine.view.view), never the game")
        action = self.decide(view)
        mapped = has_mechanics(view.board)
        if mapped and isinstance(action, ClaimRoute):
            # a map's own rules: the engine's legal claim of that route (ai/mechanics)
            action = fit_claim(view, action)
        if action is not None and view.explain(action) is not None:
            action = self.completed(view, action)
        if action is None or view.explain(action) is not None:
            self.fallbacks += 1
            action = self.fallback(view)
            if mapped and isinstance(action, ClaimRoute):
                action = fit_claim(view, action) or action
        return action

    @staticmethod
    def completed(view, action):
        """A claim a level made without a map's own fields (the ferry cards it spends on
        Italy, a share's company on Pennsylvania), completed to the first legal claim of the
        same route and cards; any other action as it is."""
        if not isinstance(action, ClaimRoute) or not view.extra:
            return action
        for a in view.legal_actions():
            if isinstance(a, ClaimRoute) and (a.route, a.cards) == (action.route, action.cards):
                return a
        return action

    @abstractmethod
    def decide(self, view):
        """This level's action for the position the view describes."""

    def fallback(self, view):
        legal = view.legal_actions()
        for kind in (KeepTickets, TunnelPay, DrawCard, TunnelDecline, DrawTickets):
            for a in legal:
                if isinstance(a, kind):
                    return a
        return legal[0] if legal else Pass(view.seat)

    def __repr__(self):
        return f"<{type(self).__name__} level={self.level} seed={self.seed}>"


def _is_view(v):
    from ..engine.view import PlayerView
    return isinstance(v, PlayerView)
