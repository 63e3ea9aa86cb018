"""The computer players' levels: their names and how the store numbers them (seats.bot_level)."""
BOT_LEVELS = {"easy": 1, "medium": 2, "hard": 3}
LEVEL_NAMES = {v: k for k, v in BOT_LEVELS.items()}
