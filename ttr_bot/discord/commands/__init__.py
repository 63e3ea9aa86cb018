"""Commands in: the /ttr slash commands, one cog per feature, all under one command group (base.py): the
lobby, the moves, seats handed to computer players, votes and returning, the games list and
what one reads of a game at the top (/ttr draw); a player's own settings (language,
notifications, away) under /ttr me; this server's games, its language, seasons, time zone and live board under /ttr server."""
from .absence import Absence
from .base import ttr_group
from .cups import Cups
from .games import Games
from .hint import Hint
from .history import History
from .info import Info
from .lobby import Lobby
from .me import Me
from .play import Play
from .prefs import Prefs
from .ranking import Ranking
from .seats import Seats
from .server import Server
from .server_board import LiveBoard
from .server_season import ServerSeason


def all_cogs():
    return (Lobby, Play, Hint, Seats, Info, Absence, Games, Me, Prefs, Ranking, History, Server,
            ServerSeason, LiveBoard, Cups)


__all__ = ["all_cogs", "ttr_group"]
