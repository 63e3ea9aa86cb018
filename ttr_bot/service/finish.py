"""What a finishing game records: each seat's result, and what it does to the ratings.

    results, rated, reason = finished_results(hosted, game)
    update = rating_update(hosted.guild_id, results) if rated else None

Both go to the store with the game's last action, in one transaction (`append_action(...,
results=..., ratings=...)`): the game is rated exactly once, when it finishes, durably with its
results; the store locks the players' ratings while `update.rate` computes the new ones from
the stored ones, so two games with a player in common that finish at the same moment are rated
one after the other and neither update is lost. A separate step after the finish (idempotent,
keyed by the game) was the alternative; it needs a second transaction, a sweep at start-up for
games finished but not yet rated, and an order of rating that is not the order of finishing.

Which games and seats are rated, and how, is `ratings.py`'s (is_rated, placings, rate); this
module only turns results into its `RatedSeat`s. `recompute(log)` replays a scope's rated
games in the order they were rated: it must give the stored ratings (tests and the stats
bench check it), since everything a rating depends on is in the results.
"""
from dataclasses import replace

from ..ratings import (
    RatedSeat,
    Rating,
    is_rated,
    leaderboard_value,
    placings,
    rate,
    seat_status,
)
from ..store import GLOBAL_SCOPE, RatingUpdate, RatingValue, SeatResult


def game_rated(hosted, seats):
    """(rated?, the catalog key of why not) for a game with these RatedSeats: ratings.py's
    rules, and never a game whose host allowed /ttr hint (a computer's advice is not the
    player's skill)."""
    if hosted.hints_allowed:
        return False, "bot.ratings.unrated.hints"
    return is_rated(seats)


def finished_results(hosted, game):
    """(the SeatResults of the finished `game`, rated?, the catalog key of why not)."""
    players, winners = game.scores()
    # competition ranking: a higher total is ahead; on equal totals the tie-break winners are
    # ahead; players still equal share a rank
    key = [(pl["total"], p in winners) for p, pl in enumerate(players)]
    rank = {p: 1 + sum(1 for k in key if k > key[p]) for p in range(game.n)}
    has_longest = bool(game.rules.longest_path_bonus)
    results = []
    for p in range(game.n):
        seat, pl = hosted.seats[p], players[p]
        total = game.turns_taken(p)
        if seat.former_user_id is not None:        # a computer took over from a human
            human = min(seat.human_turns or 0, total)
        else:
            human = 0 if seat.is_bot else total
        results.append(SeatResult(
            seat=p, user_id=seat.user_id, score=pl["total"], rank=rank[p], won=p in winners,
            tickets_completed=pl["tickets_completed"], former_user_id=seat.former_user_id,
            name=seat.name, tickets_failed=len(pl["tickets"]) - pl["tickets_completed"],
            longest_bonus=pl["bonuses"]["longest_path"] > 0 if has_longest else None,
            turns_human=human, turns_total=total, handover=seat.handover))
    seats = [rated_seat(r) for r in results]
    rated, reason = game_rated(hosted, seats)
    results = [replace(r, rated=rated and seat_status(s) in ("rated", "left"))
               for r, s in zip(results, seats)]
    return results, rated, reason


def rated_seat(result):
    """A result (SeatResult or the store's ResultRecord) as the ratings see its seat: the
    player is the seat's human, or the one who left it to a computer; "left" is leaving by
    /ttr leave (rated as last); any other handover counts by the share of turns played."""
    user = result.user_id if result.user_id is not None else result.former_user_id
    return RatedSeat(user_id=user, rank=result.rank, turns_human=result.turns_human or 0,
                     turns_total=result.turns_total or 0, left=result.handover == "left")


def scopes(guild_id):
    """A game is rated in its server and over every server."""
    return (guild_id, GLOBAL_SCOPE) if guild_id else (GLOBAL_SCOPE,)


def rating_update(guild_id, results):
    """The store's RatingUpdate for these results, or None when the game is not rated."""
    seats = [rated_seat(r) for r in results]
    if not is_rated(seats)[0]:
        return None
    users = tuple(u for u, _ in placings(seats))

    def new_ratings(before):
        # before: {user id: the store's RatingRecord} of one scope
        now = rate({u: Rating(r.mu, r.sigma) for u, r in before.items()}, seats)
        return {u: RatingValue(x.mu, x.sigma, leaderboard_value(x)) for u, x in now.items()}

    return RatingUpdate(scopes=scopes(guild_id), users=users, rate=new_ratings)


def recompute(log):
    """{user id: (Rating, rated games)} from a scope's rated games in the order they were
    rated (the store's `rating_log`): what the stored ratings must be."""
    current, games = {}, {}
    for _game_id, results in log:
        seats = [rated_seat(r) for r in results]
        for u, new in rate(current, seats).items():
            current[u] = new
            games[u] = games.get(u, 0) + 1
    return {u: (current[u], games[u]) for u in current}
