"""The /ttr slash commands, one cog per feature, all under one command group (base.py): the
lobby, the moves, seats handed to computer players and what one reads of a game at the top
(/ttr draw); a player's own settings under /ttr me; this server's games under /ttr server."""
from .base import ttr_group
from .history import History
from .info import Info
from .lobby import Lobby
from .me import Me
from .play import Play
from .ranking import Ranking
from .seats import Seats


def all_cogs():
    return (Lobby, Play, Seats, Info, Me, Ranking, History)


__all__ = ["all_cogs", "ttr_group"]
