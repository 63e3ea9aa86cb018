"""Computer players. One interface for every level: `make_agent(level, seed).act(view)` takes a
player's own `PlayerView` (never the game, never hidden information) and returns a legal action.

Levels, weakest first: `easy`, `medium`, `hard` (`LEVELS`); `random` is the baseline the arena
measures them against. Agents are deterministic given their seed.
"""
from .base import Agent
from .easy import EasyAgent
from .hard import HardAgent
from .medium import MediumAgent
from .random_agent import RandomAgent

LEVELS = ("easy", "medium", "hard")
AGENTS = {"random": RandomAgent, "easy": EasyAgent, "medium": MediumAgent, "hard": HardAgent}


def make_agent(level, seed=0, **options):
    """A new computer player of that level ("easy", "medium", "hard", or "random")."""
    try:
        cls = AGENTS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(AGENTS)})") from None
    return cls(seed, **options)


def decide(level, seed, view, factory=None):
    """The action of a new computer player of `level` seeded with `seed` (`factory(level,
    seed=seed)` makes it; make_agent by default) for the position `view` describes. A plain
    function of its arguments, so a worker process can run it (ttr_bot.workers)."""
    return (factory or make_agent)(level, seed=seed).act(view)


__all__ = ["Agent", "AGENTS", "LEVELS", "decide", "make_agent"]
