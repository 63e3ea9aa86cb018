"""Entry point. The Discord layer is not built yet: this only says so, and what works offline."""
import sys

MESSAGE = """The Discord layer of this bot is not built yet.
What works today, offline:
  python -m ttr_bot.replay RECORD.json   replay a ttr-record/1 game and print the result
  python -m ttr_bot.bench                engine speed figures
"""

if __name__ == "__main__":
    print(MESSAGE)
    sys.exit(0)
