"""The game host: lobby, actions, views and records over the store, returning Effects."""
from .effects import Effects, ServiceError
from .host import BOT_LEVELS, LEVEL_NAMES, GameService, Loaded

__all__ = ["BOT_LEVELS", "LEVEL_NAMES", "Effects", "GameService", "Loaded", "ServiceError"]
