"""The game host: lobby, actions, views and records over the store, returning Effects."""
from .effects import Effects, Handover, ServiceError
from .handover import LEAVE_LEVEL
from .host import GameService, Loaded
from .levels import BOT_LEVELS, LEVEL_NAMES

__all__ = ["BOT_LEVELS", "LEVEL_NAMES", "Effects", "GameService", "Handover", "LEAVE_LEVEL",
           "Loaded", "ServiceError"]
