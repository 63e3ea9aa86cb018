"""The /ttr slash commands, one cog per feature (lobby, play, seats, info, ranking, history), all
under one command group (base.py)."""
from .base import ttr_group
from .history import History
from .info import Info
from .lobby import Lobby
from .play import Play
from .ranking import Ranking
from .seats import Seats


def all_cogs():
    return (Lobby, Play, Seats, Info, Ranking, History)


__all__ = ["all_cogs", "ttr_group"]
