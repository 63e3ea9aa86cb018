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


__all__ = ["Agent", "AGENTS", "LEVELS", "make_agent"]
