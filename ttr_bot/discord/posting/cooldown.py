"""How often one member may have a board picture sent: `/ttr status`, `/ttr hand` and the
"My hand" button share one allowance per user (RATE pictures in PER seconds).

Past it, the command still answers (the status, the hand, the panel to play on: nobody is kept
from playing) but without the picture, and says in how many seconds the next one comes. So a
member who asks again and again costs a few lines of text, not an upload of ~200 KiB (nor a
drawing, should the state have changed) each time.

The counting is discord.py's per-key cooldown (`commands.CooldownMapping`), which forgets a
user's bucket once a whole period has passed without a request from them: the state held is
one small bucket per member who asked within the last PER seconds.
"""
import math
import time

from discord.ext import commands

RATE = 3
PER = 30.0


class PictureCooldown:
    def __init__(self, rate=RATE, per=PER, clock=time.time):
        self.clock = clock
        self._buckets = commands.CooldownMapping.from_cooldown(rate, per, lambda user_id: user_id)

    def take(self, user_id):
        """Count a picture for this user: None if it may be sent, else the whole seconds to
        wait for the next one."""
        retry_after = self._buckets.update_rate_limit(user_id, current=self.clock())
        return None if retry_after is None else max(1, math.ceil(retry_after))
