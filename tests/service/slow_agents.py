"""Computer players for the tests of decisions in worker processes: module-level factories,
because a worker gets the factory by name (GameService.decide)."""
import time

from ttr_bot.ai import make_agent


class Slow:
    """Thinks for `seconds` (sleeping: the test kills the worker meanwhile), then plays as
    medium would."""

    def __init__(self, seed, seconds):
        self.agent = make_agent("medium", seed=seed)
        self.seconds = seconds

    def act(self, view):
        time.sleep(self.seconds)
        return self.agent.act(view)


def slow(level, seed):
    return Slow(seed, 2.0)


def hanging_unless_easy(level, seed):
    """Never answers, except as the level a move's last try is played at."""
    return make_agent("easy", seed=seed) if level == "easy" else Slow(seed, 3600)
