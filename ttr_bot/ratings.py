"""Player ratings: which games count, who is ranked where, and the new ratings. Pure: no I/O,
no clock, no database; the caller loads the ratings, calls `rate`, stores what it returns.

The model is openskill's Plackett–Luce (Weng & Lin 2011, Algorithm 4), with the library's
default parameters (μ 25, σ 25/3, β 25/6, τ 25/300). A rating is a skill estimate μ and its
uncertainty σ; a rated game moves them by the finishing order only, not by the points.

The rules (the same text, for players, is `rules_lines()`: catalog keys `bot.ratings.rules.*`):

- **Which games.** A game is rated when at least two human players are left in it after the
  rules below (`is_rated`). Computer players are not rated and do not enter the match: the
  humans are ranked among themselves. Entering them as fixed-strength players was rejected: a
  fixed μ for a level is not on the humans' scale (and moves whenever the computer players'
  play is tuned), and two friends beating three `easy` computers every evening would both climb
  without ever having beaten anyone rated.
- **Stand-ins.** A seat a computer played for more than a quarter of its turns (`/ttr replace`
  put one in, the player never came back) is left out: the result is not the player's. Up to a
  quarter, it is the player's result.
- **Leavers.** A player who left (`/ttr leave`: a computer took over and the seat keeps
  `former_user_id`) is rated as last, however many turns they played and whatever the computer
  then scored: leaving must not protect a rating. Several leavers tie for last.
- **Ties.** Ranks are competition ranks (1, 2, 2, 4), as the service computes them: equal
  totals after the map's tie-breaks share a rank. Only the order matters to the model (1, 2, 2, 4
  and 1, 2, 2, 3 rate the same). The library's own tie term (A_q in Weng & Lin's Algorithm 4)
  treats a tied group as one stage of the Plackett–Luce elimination, so everybody *below* a tie
  is compared one stage fewer: with five equal players and ranks 1, 2, 2, 4, 5 the 4th gains
  exactly as much as the two tied 2nds (Ω = −1/5 − 2·(1/4)/2 + 1/2 = 0.05 for the 4th, and
  −1/5 + (1 − 1/4)/2 − (1/4)/2 = 0.05 for each tied player), and with 1, 1, 3, 4, 5 the 3rd
  gains more than the two tied winners (openskill.py issue #155; the tie averaging added in 6.x
  is a no-op, issue #201). That is the model, not a misuse of the API; we do not want it. So a
  tie is rated as every order of the tied players being equally likely: the library rates each
  strict order (where Plackett–Luce is well behaved), and each player gets the mean μ and the
  mean σ over those orders. Tied players thus share the mean of the places they tied for, and
  nobody below a tie moves because of it. At most 5! = 120 orders (five players all tied).
- **Scope.** Ratings are kept per server and once globally (over every server): the same call,
  with that scope's ratings. One rating for all maps, not one per map: a server finishes few
  games on each map, so a per-map σ would stay high and the per-map boards would stay empty; the
  skill (planning tickets, reading opponents, timing the end) carries across maps, and
  "who is the best here?" asks for one list. `/ttr server stats` shows each map's results apart, and a
  map's leaderboard lists the players with rated games on that map, by the overall rating.
- **Leaderboard.** Players are ranked by the conservative value μ − 3σ (openskill's `ordinal()`:
  the skill is ~99.7% likely to be above it), shown once a player has `MIN_GAMES` rated games.

Everything here is deterministic: the same ratings and seats give the same floats.
"""
import math
from dataclasses import dataclass
from itertools import permutations, product

from openskill.models import PlackettLuce

from .i18n import t

MU = 25.0
SIGMA = 25.0 / 3.0
Z = 3                      # the leaderboard value is mu - Z * sigma
MIN_GAMES = 5              # rated games before a player is shown on a leaderboard
MIN_PLAYERS = 2            # rated humans in a game for it to be rated
MAX_COMPUTER_SHARE = 0.25  # a seat a computer played for more of its turns than this is unrated

_MODEL = PlackettLuce()    # stateless between calls: `rate` deep-copies what it is given


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: skill estimate and its uncertainty. Store the two floats."""
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self):
        """The leaderboard value mu - 3 sigma (openskill's ordinal())."""
        return self.mu - Z * self.sigma

    def to_dict(self):
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_dict(cls, d):
        return cls(float(d["mu"]), float(d["sigma"]))


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished game, as the ratings need it.

    user_id:     the human of the seat; for a seat a computer took over, the human who held it
                 (the store's former_user_id); None for a computer player from the start
    rank:        the seat's competition rank in the results (1 = first; ties share a rank)
    turns_human: turns of this seat played by the human
    turns_total: all turns of this seat (human and computer)
    left:        the human left the game (`/ttr leave`); rated as last
    """
    user_id: int | None
    rank: int
    turns_human: int = 0
    turns_total: int = 0
    left: bool = False

    @property
    def computer_share(self):
        if self.turns_total <= 0:
            return 0.0
        return (self.turns_total - self.turns_human) / self.turns_total


def seat_status(seat):
    """"rated", "left" (rated as last), "computer" (a computer player) or "stand_in" (a
    computer played more than a quarter of the seat's turns)."""
    if seat.user_id is None:
        return "computer"
    if seat.left:
        return "left"
    if seat.computer_share > MAX_COMPUTER_SHARE:
        return "stand_in"
    return "rated"


def _check(seats):
    users = [s.user_id for s in seats if s.user_id is not None]
    if len(users) != len(set(users)):
        raise ValueError("a user holds two seats")


def is_rated(seats):
    """(True, None) if the game is rated, else (False, reason key of the catalog)."""
    _check(seats)
    if sum(1 for s in seats if s.user_id is not None) < MIN_PLAYERS:
        return False, "bot.ratings.unrated.one_human"
    status = [seat_status(s) for s in seats]
    if status.count("rated") + status.count("left") < MIN_PLAYERS or not status.count("rated"):
        return False, "bot.ratings.unrated.stand_ins"
    return True, None


def placings(seats):
    """[(user_id, place)] of the match as rated, best first: the rated humans by their rank
    (dense, 1-based: only the order counts), then those who left, tied for last. Empty when the
    game is not rated."""
    ok, _ = is_rated(seats)
    if not ok:
        return []
    stay = [s for s in seats if seat_status(s) == "rated"]
    gone = [s for s in seats if seat_status(s) == "left"]
    order = sorted({s.rank for s in stay})
    place = {r: i + 1 for i, r in enumerate(order)}
    out = sorted(((s.user_id, place[s.rank]) for s in stay), key=lambda x: x[1])
    last = len(order) + 1
    return out + [(s.user_id, last) for s in gone]


def rate(ratings_before, seats):
    """{user_id: new Rating} for every rated player of this game ({} if it is not rated).

    ratings_before: {user_id: Rating or None}; a user missing or None starts at Rating()."""
    match = placings(seats)
    if not match:
        return {}
    users = [u for u, _ in match]
    before = [ratings_before.get(u) or Rating() for u in users]
    groups = {}
    for i, (_, place) in enumerate(match):
        groups.setdefault(place, []).append(i)
    groups = [groups[p] for p in sorted(groups)]
    # every strict order of the tied players: the positions of group k are taken by the
    # players of group k in each of their orders
    orders = product(*(permutations(g) for g in groups))
    mus = [[] for _ in users]
    sigmas = [[] for _ in users]
    for order in orders:
        line = [i for group in order for i in group]          # players, best first
        teams = [[_MODEL.rating(mu=before[i].mu, sigma=before[i].sigma)] for i in line]
        new = _MODEL.rate(teams, ranks=[float(k + 1) for k in range(len(line))])
        for i, team in zip(line, new):
            mus[i].append(team[0].mu)
            sigmas[i].append(team[0].sigma)
    # fsum is exactly rounded, so the mean does not depend on the order of the terms: tied
    # players with the same rating before get bit-identical ratings after
    return {u: Rating(math.fsum(mus[i]) / len(mus[i]), math.fsum(sigmas[i]) / len(sigmas[i]))
            for i, u in enumerate(users)}


def leaderboard_value(rating):
    return rating.conservative


# What players read (docs/ratings.md, "What players see"): the cautious value mu - 3 sigma on
# a familiar scale, where everyone starts at 1000, as on chess sites. The leaderboard's order
# is the same; only the figure shown differs.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40           # displayed points per point of mu - 3 sigma


def display_rating(rating):
    """The rating as shown to players: a whole number, 1000 for a new player."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * rating.conservative)


def provisional(rated_games):
    """Fewer than MIN_GAMES rated games: the rating is still settling (and the player is not
    on the leaderboard yet), so only the rating is shown, not what one game did to it."""
    return rated_games < MIN_GAMES


def on_leaderboard(rated_games):
    return rated_games >= MIN_GAMES


RULE_KEYS = ("bot.ratings.rules.title", "bot.ratings.rules.model", "bot.ratings.rules.rated",
             "bot.ratings.rules.stand_in", "bot.ratings.rules.left", "bot.ratings.rules.ties",
             "bot.ratings.rules.scope", "bot.ratings.rules.board")


def rules_lines(locale="en"):
    """The rating rules for players (`/ttr help`, the docs), one line per rule."""
    params = {"share": f"{round(MAX_COMPUTER_SHARE * 100)}%", "players": MIN_PLAYERS, "z": Z,
              "count": MIN_GAMES}
    return [t(key, locale, **params) for key in RULE_KEYS]
