"""Which routes serve a player's unfinished tickets (PlayerView.ticket_routes): the claim menu
puts them first, so a wrong answer sends a new player down the wrong lines."""
from ttr_bot.engine import network
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.maps import load_board


def _game(map_id="usa"):
    return Game(load_board(map_id, "base"), 2, Dealer(3))


def _ticket(board, a, b):
    return next(tk.id for tk in board.tickets if {tk.origin, *tk.dests} == {a, b})


def _joins(board, routes, a, b):
    comp = network.components(len(board.nodes), board, routes)
    return network.connected(board, comp, a, b)


def test_served_routes_join_the_ticket_by_a_cheapest_way():
    game = _game()
    board = game.board
    tid = _ticket(board, "Los Angeles", "New York")
    game.tickets[0] = [tid]
    served = view(game, 0).ticket_routes()
    assert _joins(board, list(served), "Los Angeles", "New York")
    # and nothing on a detour: Seattle and Miami are far from any cheapest way
    for r in served:
        names = {board.nodes[board.routes[r].a].name, board.nodes[board.routes[r].b].name}
        assert not names & {"Seattle", "Vancouver", "Miami"}, names


def test_a_finished_ticket_serves_nothing_and_others_routes_are_never_offered():
    game = _game()
    board = game.board
    tid = _ticket(board, "Denver", "El Paso")
    game.tickets[0] = [tid]
    served = view(game, 0).ticket_routes()
    assert served and all(n == 1 for n in served.values())
    taken = next(iter(served))
    game.owner[taken] = 1                       # the opponent takes one of those routes
    again = view(game, 0).ticket_routes()
    assert taken not in again and _joins(board, list(again), "Denver", "El Paso")
    for r in again:                             # the player claims the whole way
        game.owner[r] = 0
    assert view(game, 0).ticket_routes() == {}
    assert view(game, 0).open_ticket_nodes() == []


def test_the_ticket_cities_come_in_their_tickets_order_each_once():
    game = _game()
    board = game.board
    game.tickets[0] = [_ticket(board, "Denver", "El Paso"), _ticket(board, "Denver", "Pittsburgh")]
    v = view(game, 0)
    names = [board.nodes[n].name for n in v.open_ticket_nodes()]
    assert names == ["Denver", "El Paso", "Pittsburgh"]
    served = v.ticket_routes()
    assert _joins(board, list(served), "Denver", "El Paso")
    assert _joins(board, list(served), "Denver", "Pittsburgh")
