"""Computer players. One interface for every level: `make_agent(level, seed).act(view)` takes a
player's own `PlayerView` (never the game, never hidden information) and returns a legal action.

Levels, weakest first: `easy`, `medium`, `hard`, `expert` (`LEVELS`; the store numbers them by
their place in it, so a new level is appended); `random` is the baseline the arena measures them
against. Agents are deterministic given their seed (and `expert` given its work budget).
"""
import functools

from .base import Agent
from .easy import EasyAgent
from .expert import ExpertAgent
from .hard import HardAgent
from .medium import MediumAgent
from .random_agent import RandomAgent

LEVELS = ("easy", "medium", "hard", "expert")
AGENTS = {"random": RandomAgent, "easy": EasyAgent, "medium": MediumAgent, "hard": HardAgent,
          "expert": ExpertAgent}


def make_agent(level, seed=0, **options):
    """A new computer player of that level ("easy", "medium", "hard", "expert", or "random")."""
    try:
        cls = AGENTS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(AGENTS)})") from None
    return cls(seed, **options)


def tuned(options):
    """A factory like make_agent whose levels take `options` ({level: {knob: value}}), e.g.
    {"expert": {"think_seconds": 2.0}}. Picklable (worker processes receive it)."""
    return functools.partial(_make_tuned, options)


def _make_tuned(options, level, seed=0):
    return make_agent(level, seed, **options.get(level, {}))


def decide(level, seed, view, factory=None):
    """The action of a new computer player of `level` seeded with `seed` (`factory(level,
    seed=seed)` makes it; make_agent by default) for the position `view` describes. A plain
    function of its arguments, so a worker process can run it (ttr_bot.workers)."""
    return (factory or make_agent)(level, seed=seed).act(view)


def hint(seed, view, factory=None):
    """(the action `expert` seeded with `seed` takes in the position `view` describes, why: a
    dict of ExpertAgent.explain). The same action `decide("expert", seed, view)` gives: a hint
    says what the computer would play, not something near it. A plain function (worker pools)."""
    return (factory or make_agent)("expert", seed=seed).explain(view)


__all__ = ["Agent", "AGENTS", "LEVELS", "decide", "hint", "make_agent", "tuned"]
