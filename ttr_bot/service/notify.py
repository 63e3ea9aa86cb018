"""How a player is told it is their turn (/ttr me notify), and their quiet hours: pure functions of
the stored settings and a time.

Settings (users.notify): {"how": "ping" | "dm" | "both" | "none", "tz": "Asia/Bangkok",
"quiet": [start, end]} with start and end in minutes after local midnight (the window may
cross midnight). Quiet hours are kept in the player's IANA time zone with `zoneinfo`, so they
follow its daylight-saving changes: a 22:00-08:00 window is 9 hours long on the night clocks
go forward and 11 on the night they go back.
"""
from datetime import datetime, timedelta
from datetime import time as wall_time
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

HOW = ("ping", "dm", "both", "none")
DEFAULT_HOW = "ping"        # what a server of friends expects: the channel's usual mention


class BadSetting(ValueError):
    """A setting that cannot be used; `key` is the catalog key saying why."""

    def __init__(self, key, **params):
        super().__init__(key)
        self.key = key
        self.params = params


@lru_cache(maxsize=1)
def zones():
    return frozenset(available_timezones())


@lru_cache(maxsize=512)
def zone(name):
    """The ZoneInfo for an IANA name; BadSetting if there is none (names are case-sensitive in
    the database, so a case-insensitive match is accepted)."""
    names = zones()
    if name not in names:
        folded = {n.casefold(): n for n in names}
        name = folded.get(str(name).strip().casefold())
    if name is None:
        raise BadSetting("bot.notify.bad_zone")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadSetting("bot.notify.bad_zone") from None


def zone_name(name):
    return zone(name).key


def parse_quiet(text):
    """'22:00-08:00' -> (1320, 480); 'off' -> None. BadSetting for anything else."""
    text = str(text).strip().lower()
    if text in ("off", "none", "0", "-"):
        return None
    try:
        start, end = (part.strip() for part in text.replace("–", "-").split("-"))
        minutes = [_minutes(start), _minutes(end)]
    except ValueError:
        raise BadSetting("bot.notify.bad_quiet") from None
    if minutes[0] == minutes[1]:
        raise BadSetting("bot.notify.bad_quiet")
    return tuple(minutes)


def _minutes(hhmm):
    hours, _, minutes = hhmm.partition(":")
    h, m = int(hours), int(minutes or 0)
    if not (0 <= h <= 24 and 0 <= m < 60) or (h == 24 and m):
        raise ValueError(hhmm)
    return (h * 60 + m) % (24 * 60)


def quiet_text(quiet):
    return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in quiet)


def how_of(settings):
    how = (settings or {}).get("how")
    return how if how in HOW else DEFAULT_HOW


def quiet_until(settings, now):
    """If `now` (epoch seconds) falls in the player's quiet hours, the epoch time they end;
    otherwise None."""
    settings = settings or {}
    quiet, tz = settings.get("quiet"), settings.get("tz")
    if not quiet or not tz:
        return None
    try:
        tzinfo = zone(tz)
    except BadSetting:
        return None
    start, end = quiet
    local = datetime.fromtimestamp(now, tzinfo)
    minute = local.hour * 60 + local.minute
    if start < end:
        inside, end_day = start <= minute < end, local.date()
    else:                       # across midnight: 22:00-08:00
        inside = minute >= start or minute < end
        end_day = local.date() + timedelta(days=1) if minute >= start else local.date()
    if not inside:
        return None
    # a wall time the clocks skip (spring forward) maps to the instant after the gap; one they
    # pass twice (fall back) ends at its later pass when `now` is in the second pass (an end
    # already behind us would re-arm a reminder at once, over and over, for up to an hour)
    wall = datetime.combine(end_day, wall_time(end // 60, end % 60), tzinfo)
    first, second = wall.timestamp(), wall.replace(fold=1).timestamp()
    ends = [first, second] if second > first else [first]   # second < first: a gap
    later = [e for e in ends if e > now]
    return min(later) if later else None
