"""Final scores and winners of a game (docs/rules.md §5, §6, §7, §11.8–10, §11.14).

`final_scores(game)` gives one plain dict per seat in the shape of the replay output
(docs/record-format.md), plus the winners. Mid-game it scores as if the game ended now; tickets still
being chosen do not count.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import counts_to_dict
from .network import best_ticket_score, longest_trail, tickets_score

if TYPE_CHECKING:
    from .board import Rules
    from .game import Game

Score = dict[str, Any]   # one seat's final score, in the replay output's shape (record-format.md)


def final_scores(game: Game) -> tuple[list[Score], list[int]]:
    board, rules, n = game.board, game.rules, game.n
    mechanics = game.mechanics
    players: list[Score] = []
    for p in range(n):
        held = [board.tickets[t] for t in game.tickets[p]]
        network = game.network_routes(p) if mechanics else game.routes_of[p]
        if game.stations_of[p]:
            results, borrowed = best_ticket_score(board, p, network, held,
                                                  game.stations_of[p], game.owner)
        else:
            results, borrowed = tickets_score(board, network, held), []
        tickets = []
        for t, (ok, pts) in zip(held, results):
            to = list(t.dests) if t.multi else t.dests[0]
            tickets.append({"from": t.origin, "to": to, "points": abs(pts), "completed": ok})
        players.append({
            "route_points": sum(rules.route_points[board.routes[r].length]
                                + sum(m.claim_points(board.routes[r], game) for m in mechanics)
                                for r in game.routes_of[p]),
            "tickets": tickets,
            "tickets_completed": sum(1 for ok, _ in results if ok),
            "ticket_points": sum(pts for _, pts in results),
            "longest_path": longest_trail(board, game.routes_of[p]),
            "bonuses": {"longest_path": 0, "globetrotter": 0,
                        "stations": rules.station_bonus * game.stations_left[p]},
            "trains_left": game.trains[p],
            "stations_left": game.stations_left[p],
            "hand": counts_to_dict(game.hands[p]),
            "borrowed_routes": borrowed,
        })
    _award(players, "longest_path", "longest_path", rules.longest_path_bonus)
    _award(players, "globetrotter", "tickets_completed", rules.globetrotter_bonus)
    for m in mechanics:
        m.score(game, players)
    for pl in players:
        pl["total"] = pl["route_points"] + pl["ticket_points"] + sum(pl["bonuses"].values())
    return players, winners(players, rules, [len(s) for s in game.stations_of])


def _award(players: list[Score], bonus: str, measure: str, points: int) -> None:
    """Every player with the maximum gets the bonus, even when the maximum is 0 (§11.8)."""
    if not points:
        return
    top = max(pl[measure] for pl in players)
    for pl in players:
        if pl[measure] == top:
            pl["bonuses"][bonus] = points


def winners(players: list[Score], rules: Rules, stations_used: list[int]) -> list[int]:
    """Seats of the winners: most points, then the map's tie-breaks (§5.4, §6, §11.9)."""
    best = max(pl["total"] for pl in players)
    tied = [p for p, pl in enumerate(players) if pl["total"] == best]
    for rule in rules.tie_breaks:
        if len(tied) < 2:
            break
        if rule == "tickets":
            key = lambda p: players[p]["tickets_completed"]
        elif rule == "fewest_stations":
            key = lambda p: -stations_used[p]
        elif rule == "longest_path":
            if not rules.longest_path_bonus:
                continue
            key = lambda p: 1 if players[p]["bonuses"]["longest_path"] else 0
        else:
            raise ValueError(f"unknown tie-break {rule!r}")
        top = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == top]
    return tied
