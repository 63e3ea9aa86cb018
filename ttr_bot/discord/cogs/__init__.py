"""The /ttr slash commands, one cog per feature (lobby, play, seats, info, notification
settings and away, votes and returning, the games list), all under one command group
(base.py)."""
from .absence import Absence
from .base import ttr_group
from .games import Games
from .info import Info
from .lobby import Lobby
from .play import Play
from .prefs import Prefs
from .seats import Seats


def all_cogs():
    return (Lobby, Play, Seats, Info, Prefs, Absence, Games)


__all__ = ["all_cogs", "ttr_group"]
