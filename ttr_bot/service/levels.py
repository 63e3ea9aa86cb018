"""The computer players' levels as the service offers them, and how the store numbers them
(seats.bot_level). The names come from the computer players themselves (ttr_bot.ai.LEVELS)."""
from ..ai import LEVELS, make_agent, tuned

# the store keeps the number: a new level is appended, never inserted
BOT_LEVELS = {name: number for number, name in enumerate(LEVELS, start=1)}
LEVEL_NAMES = {number: name for name, number in BOT_LEVELS.items()}
LEAVE_LEVEL = "medium"   # who takes the seat of a player who leaves: a fair, not a harsh, stand-in


def default_agents():
    """The factory of computer players the service uses unless given another (tests)."""
    return make_agent


def configured_agents(expert_seconds=None):
    """The factory for the bot's configuration: `expert` thinking `expert_seconds` per decision
    (turned into a work budget, so a game stays reproducible), else the defaults (None)."""
    if expert_seconds is None:
        return None
    return tuned({"expert": {"think_seconds": float(expert_seconds)}})
