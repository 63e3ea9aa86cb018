"""One player's statistics, from the result rows of their finished games: pure, no I/O.

    player_stats(user_id, rows, name=..., rating=..., rated_games=...) -> PlayerStats
    stats_lines(stats, locale) -> [str]      the text fallback of the stats picture

`rows` are the store's result rows (`store.ResultRecord`, one per seat of a finished game:
read here by their fields, not imported) of the scope asked for (this server, or every server).
Rows finished before the store kept `tickets_failed` and `longest_bonus` (whether the seat won
the longest-path bonus) have them as None, as do maps without that bonus: such a row counts in
everything else, and a figure no row has is None, shown as "–".

A player's games are their seats' rows (user_id) and the seats a computer took over from them
(former_user_id, user_id None): a game they left counts as a game and a loss, and no score,
ticket or bonus of the computer is theirs. The rating is not computed here: the caller passes
the stored rating of the scope and its count of rated games (`ratings.rate` keeps them).
"""
from dataclasses import dataclass

from .i18n import t
from .ratings import MIN_GAMES, Rating, display_rating

DASH = "–"          # en dash: shown for a figure the rows do not have (the font has no U+2212)


@dataclass(frozen=True, slots=True)
class MapLine:
    map: str
    games: int
    wins: int
    mean_score: float | None      # over the games played to the end on this map
    best_score: int | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str
    where: str = "server"                 # "server" (this server) or "global" (every server)
    map_filter: str | None = None         # only this map's games
    games: int = 0                        # finished games, left ones included
    left: int = 0                         # ... of which the player left before the end
    wins: int = 0
    mean_score: float | None = None       # over the games played to the end
    best_score: int | None = None
    tickets_completed: int = 0
    tickets_failed: int | None = None
    longest_bonuses: int | None = None
    favourite_map: str | None = None
    maps: tuple = ()                      # MapLine per map, most played first
    rating: Rating | None = None
    rated_games: int = 0

    @property
    def empty(self):
        return self.games == 0

    @property
    def win_pct(self):
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def rating_state(self):
        """"none" (no rated game), "provisional" (fewer than MIN_GAMES) or "rated"."""
        if self.rating is None or self.rated_games <= 0:
            return "none"
        return "rated" if self.rated_games >= MIN_GAMES else "provisional"


def player_stats(user_id, rows, *, name, rating=None, rated_games=0, map_id=None,
                 where="server"):
    """The PlayerStats of `user_id` over `rows` (other players' rows are ignored)."""
    own, gone = [], []
    for row in rows:
        if map_id is not None and row.map != map_id:
            continue
        if row.user_id == user_id:
            own.append(row)
        elif row.user_id is None and row.former_user_id == user_id:
            gone.append(row)
    every = own + gone
    scores = [r.score for r in own]
    failed = [r.tickets_failed for r in own if r.tickets_failed is not None]
    bonus = [r.longest_bonus for r in own if r.longest_bonus is not None]
    by_map = {}
    for r in every:
        by_map.setdefault(r.map, []).append(r)
    lines = []
    for m, rs in by_map.items():
        mine = [r for r in rs if r.user_id == user_id]
        lines.append(MapLine(m, len(rs), sum(1 for r in mine if r.won),
                             _mean([r.score for r in mine]),
                             max((r.score for r in mine), default=None)))
    lines.sort(key=lambda ln: (-ln.games, -ln.wins, ln.map))
    return PlayerStats(
        user_id=user_id, name=name, where=where, map_filter=map_id,
        games=len(every), left=len(gone), wins=sum(1 for r in own if r.won),
        mean_score=_mean(scores), best_score=max(scores, default=None),
        tickets_completed=sum(r.tickets_completed for r in own),
        tickets_failed=sum(failed) if failed else None,
        longest_bonuses=sum(1 for b in bonus if b) if bonus else None,
        favourite_map=lines[0].map if lines else None, maps=tuple(lines),
        rating=rating, rated_games=rated_games)


def _mean(values):
    return sum(values) / len(values) if values else None


# ----- words and figures -----------------------------------------------------------------------

def map_name(map_id, locale="en"):
    try:
        return t(f"bot.map.{map_id}", locale)
    except KeyError:
        return str(map_id)


def figure(value, digits=1):
    """A number as shown: None as a dash, floats with `digits` decimals ("-0.0" as "0.0")."""
    if value is None:
        return DASH
    if isinstance(value, float):
        text = f"{value:.{digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text
    return str(value)


def where_text(stats, locale, family="bot"):
    """"this server", "all servers", with the map when the stats are for one map."""
    where = t(f"{family}.stats.where.{'global' if stats.where == 'global' else 'server'}", locale)
    if stats.map_filter:
        where = t(f"{family}.stats.where.map", locale, where=where,
                  map=map_name(stats.map_filter, locale))
    return where


def rating_figures(stats):
    """{value, mu, sigma, count, need} as shown (value: the display rating, 1000 to start;
    docs/ratings.md "What players see")."""
    r = stats.rating or Rating()
    return {"value": str(display_rating(r)), "mu": figure(r.mu), "sigma": figure(r.sigma),
            "count": stats.rated_games, "need": MIN_GAMES}


def stats_lines(stats, locale="en"):
    """The statistics as lines of Discord text (the stats picture's fallback)."""
    out = [t("bot.stats.title", locale, name=stats.name, where=where_text(stats, locale))]
    if stats.empty:
        return out + [t("bot.stats.none", locale)]
    out.append(t("bot.stats.games", locale, games=stats.games, wins=stats.wins,
                 pct=stats.win_pct))
    state = stats.rating_state
    if state == "rated":
        out.append(t("bot.stats.rating", locale, **rating_figures(stats)))
    elif state == "provisional":
        out.append(t("bot.stats.provisional", locale, played=stats.rated_games, count=MIN_GAMES))
    else:
        out.append(t("bot.stats.unrated", locale))
    if stats.mean_score is not None:
        out.append(t("bot.stats.scores", locale, mean=figure(stats.mean_score),
                     best=figure(stats.best_score)))
    if stats.tickets_failed is None:
        out.append(t("bot.stats.tickets_done", locale, done=stats.tickets_completed))
    else:
        out.append(t("bot.stats.tickets", locale, done=stats.tickets_completed,
                     failed=stats.tickets_failed))
    if stats.longest_bonuses is not None:
        out.append(t("bot.stats.longest", locale, count=stats.longest_bonuses))
    if stats.left:
        out.append(t("bot.stats.left", locale, count=stats.left))
    if stats.favourite_map and not stats.map_filter:
        out.append(t("bot.stats.favourite", locale, map=map_name(stats.favourite_map, locale)))
    if len(stats.maps) > 1 or stats.map_filter:
        for line in stats.maps:
            out.append(t("bot.stats.map_line", locale, map=map_name(line.map, locale),
                         count=line.games, wins=line.wins, mean=figure(line.mean_score)))
    return out
