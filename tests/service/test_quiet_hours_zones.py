"""Quiet hours in every time zone and year, on both passes of a fall-back hour (issue 23, defect
5): when the clocks go back, the wall times of the last hour (or half hour) come twice, and
"quiet until" read inside that stretch once came out as now, so a held-back reminder was
re-armed at once, over and over. A property over the zones the system knows, the years
1996-2037 and any quiet window: the end is always strictly later than now, the player is
quiet exactly when their wall clock says so, and at the end they are no longer quiet.
"""
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, available_timezones

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ttr_bot.service.notify import quiet_until

ZONES = sorted(z for z in available_timezones()
               if "/" in z and not z.startswith(("Etc/", "posix/", "right/", "SystemV/")))
STEP = timedelta(hours=6)


def fall_backs(zone, year):
    """(UTC instant, length) of each time `zone`'s clocks went back in `year`."""
    tz = ZoneInfo(zone)
    out = []
    t, end = datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc)
    before = t.astimezone(tz).utcoffset()
    while t < end:
        after = (t + STEP).astimezone(tz).utcoffset()
        if after < before:
            lo, hi = t, t + STEP                # the change, to the second
            while hi - lo > timedelta(seconds=1):
                mid = lo + (hi - lo) / 2
                lo, hi = (mid, hi) if mid.astimezone(tz).utcoffset() == before else (lo, mid)
            out.append((hi, before - after))
        before, t = after, t + STEP
    return out


def quiet_by_the_wall(start, end, minute):
    return start <= minute < end if start < end else (minute >= start or minute < end)


@settings(max_examples=300, deadline=None)
@given(zone=st.sampled_from(ZONES), year=st.integers(1996, 2037),
       start=st.integers(0, 24 * 60 - 1), end=st.integers(0, 24 * 60 - 1),
       where=st.floats(-1.0, 0.999), data=st.data())
def test_quiet_hours_end_strictly_later_on_both_passes_of_a_fall_back(zone, year, start, end,
                                                                       where, data):
    assume(start != end)
    changes = fall_backs(zone, year)
    assume(changes)
    at, length = data.draw(st.sampled_from(changes))
    now = (at + length * where).timestamp()     # in the first pass (< at) or the second
    settings_ = {"tz": zone, "quiet": [start, end]}
    until = quiet_until(settings_, now)
    local = datetime.fromtimestamp(now, ZoneInfo(zone))
    assert (until is not None) == quiet_by_the_wall(start, end, local.hour * 60 + local.minute)
    if until is not None:
        assert until > now                      # never "quiet until now": no re-arming at once
        assert until - now <= 26 * 3600         # the end is the next one, not a day later
        assert quiet_until(settings_, until) is None


# ----- the cases the property generalises ----------------------------------------------------------
def test_quiet_hours_ending_inside_the_second_pass_of_a_fall_back_hour_end_later():
    """Europe/Berlin, 27 October 2024: 02:00-03:00 comes twice. Quiet hours ending at 02:30,
    read at 02:10 of the second pass, said "quiet until now" and the reminder was re-armed at
    once, over and over. Now: quiet until 02:30 of the second pass, strictly later."""
    settings = {"tz": "Europe/Berlin", "quiet": [22 * 60, 2 * 60 + 30]}
    now = datetime(2024, 10, 27, 1, 10, tzinfo=timezone.utc).timestamp()   # 02:10 CET
    until = quiet_until(settings, now)
    assert until == datetime(2024, 10, 27, 1, 30, tzinfo=timezone.utc).timestamp()
    assert quiet_until(settings, until) is None
    first = datetime(2024, 10, 27, 0, 10, tzinfo=timezone.utc).timestamp()  # 02:10 CEST
    assert quiet_until(settings, first) == datetime(2024, 10, 27, 0, 30,
                                                    tzinfo=timezone.utc).timestamp()


def test_quiet_hours_follow_daylight_saving():
    berlin = {"tz": "Europe/Berlin", "quiet": [22 * 60, 8 * 60]}
    utc = timezone.utc
    # the night clocks go forward (31 March 2024): 22:00 CET to 08:00 CEST is 9 hours
    at = datetime(2024, 3, 30, 21, 30, tzinfo=utc).timestamp()           # 22:30 CET
    assert quiet_until(berlin, at) == datetime(2024, 3, 31, 6, tzinfo=utc).timestamp()
    # the night they go back (27 October 2024): 22:00 CEST to 08:00 CET is 11 hours
    at = datetime(2024, 10, 26, 20, 30, tzinfo=utc).timestamp()          # 22:30 CEST
    assert quiet_until(berlin, at) == datetime(2024, 10, 27, 7, tzinfo=utc).timestamp()
    assert quiet_until(berlin, datetime(2024, 10, 27, 7, tzinfo=utc).timestamp()) is None
    day = {"tz": "Asia/Bangkok", "quiet": [13 * 60, 14 * 60]}            # a window by day
    at = datetime(2024, 5, 1, 6, 30, tzinfo=utc).timestamp()             # 13:30 in Bangkok
    assert quiet_until(day, at) == datetime(2024, 5, 1, 7, tzinfo=utc).timestamp()
