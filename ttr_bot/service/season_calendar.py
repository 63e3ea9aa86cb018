"""Where seasons begin and end: monthly or quarterly, at midnight on the first day of the month
in the server's time zone (zoneinfo, so a change of daylight saving time moves nothing).
Pure: a time and a setting in, a `Season` out.

A season is the half-open span [start, end): a game finishing at `end` exactly is the next
season's, so every time belongs to one season and a game is never counted twice nor skipped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

MONTHLY, QUARTERLY = "monthly", "quarterly"
PERIODS = (MONTHLY, QUARTERLY)
_NAME = re.compile(r"(?P<year>\d{4})-(?:(?P<month>\d{2})|Q(?P<quarter>[1-4]))")


@dataclass(frozen=True, slots=True)
class Season:
    name: str       # "2026-12" (monthly) or "2026-Q4" (quarterly)
    start: float    # epoch seconds, included
    end: float      # epoch seconds, excluded (the next season's start)

    @property
    def period(self) -> str:
        return QUARTERLY if "Q" in self.name else MONTHLY

    @property
    def year(self) -> int:
        return int(self.name[:4])

    @property
    def number(self) -> int:
        """The month (1-12) or the quarter (1-4)."""
        return int(self.name[-1]) if "Q" in self.name else int(self.name[5:7])


def _first(year: int, month: int, zone: ZoneInfo) -> float:
    while month > 12:
        year, month = year + 1, month - 12
    while month < 1:
        year, month = year - 1, month + 12
    return datetime(year, month, 1, tzinfo=zone).timestamp()


def _months(period: str) -> int:
    if period not in PERIODS:
        raise ValueError(f"unknown season period {period!r}")
    return 3 if period == QUARTERLY else 1


def season_at(when: float, period: str, zone_name: str = "UTC") -> Season:
    """The season `when` (epoch seconds) falls in."""
    zone, months = ZoneInfo(zone_name), _months(period)
    local = datetime.fromtimestamp(when, zone)
    first = local.month - (local.month - 1) % months
    return _season(local.year, first, months, zone)


def _season(year: int, first: int, months: int, zone: ZoneInfo) -> Season:
    while first > 12:
        year, first = year + 1, first - 12
    while first < 1:
        year, first = year - 1, first + 12
    name = f"{year}-Q{(first - 1) // 3 + 1}" if months == 3 else f"{year}-{first:02d}"
    return Season(name, _first(year, first, zone), _first(year, first + months, zone))


def season_named(name: str, zone_name: str = "UTC") -> Season:
    """The season a name ("2026-12", "2026-Q4") stands for; ValueError if it names none."""
    m = _NAME.fullmatch(name)
    if m is None or (m["month"] is not None and not 1 <= int(m["month"]) <= 12):
        raise ValueError(f"not a season: {name!r}")
    zone = ZoneInfo(zone_name)
    if m["quarter"] is not None:
        return _season(int(m["year"]), 3 * int(m["quarter"]) - 2, 3, zone)
    return _season(int(m["year"]), int(m["month"]), 1, zone)


def previous_season(season: Season, zone_name: str = "UTC") -> Season:
    months = _months(season.period)
    first = season.number if months == 1 else 3 * season.number - 2
    return _season(season.year, first - months, months, ZoneInfo(zone_name))


def next_season(season: Season, zone_name: str = "UTC") -> Season:
    return season_at(season.end, season.period, zone_name)
