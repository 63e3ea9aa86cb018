"""docs/rules.md §7 USA 1910 ticket variants: deck sizes, deal/keep counts, bonuses."""
import pytest

from tests.engine.rulekit import A, board, give_routes, make_game, refuse, route, ticket

BIG = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}


@pytest.mark.parametrize("variant,size", [("base", 30), ("1910", 35), ("mega", 69),
                                          ("big_cities", 35)])
def test_ticket_deck_size_of_each_variant(variant, size):
    assert len(board("usa", variant).tickets) == size
    g = make_game("usa", 2, variant, setup=False)
    dealt = sum(len(o) for o in g.offers)
    assert len(g.ticket_deck) + dealt == size


def test_mega_is_the_1910_tickets_plus_34_reprinted_classics():
    t1910 = {(t.origin, t.dests, t.points) for t in board("usa", "1910").tickets}
    mega = [(t.origin, t.dests, t.points) for t in board("usa", "mega").tickets]
    assert t1910 <= set(mega)
    classics = [t for t in mega if t not in t1910]
    assert len(classics) == 34
    base = {(t.origin, t.dests): t.points for t in board("usa", "base").tickets}
    same_cities = [t for t in classics if (t[0], t[1]) in base]
    assert len(same_cities) == 30                            # the 30 originals …
    lower = [t for t in same_cities if t[2] < base[(t[0], t[1])]]
    assert len(lower) == 4                                   # … four with lower values


def test_big_cities_tickets_all_touch_a_big_city():
    for t in board("usa", "big_cities").tickets:
        assert BIG & {t.origin, *t.dests}


@pytest.mark.parametrize("variant,deal,keep", [("base", 3, 2), ("1910", 3, 2), ("mega", 5, 3),
                                               ("big_cities", 4, 2)])
def test_starting_deal_and_minimum_kept(variant, deal, keep):
    g = make_game("usa", 2, variant, setup=False)
    assert [len(o) for o in g.offers] == [deal, deal]
    offer = tuple(g.offers[0])
    assert refuse(g, A.KeepTickets(0, offer[:keep - 1])) == "keep_at_least"
    g.apply(A.KeepTickets(0, offer[:keep]))
    assert g.tickets[0] == list(offer[:keep])


@pytest.mark.parametrize("variant,draw", [("base", 3), ("1910", 3), ("mega", 4),
                                          ("big_cities", 4)])
def test_later_draw_and_keep_at_least_one(variant, draw):
    g = make_game("usa", 2, variant)
    g.apply(A.DrawTickets(0))
    assert len(g.offers[0]) == draw
    assert refuse(g, A.KeepTickets(0, ())) == "keep_at_least"
    g.apply(A.KeepTickets(0, (g.offers[0][-1],)))
    assert g.current == 1


def bonus_game(variant):
    """Seat 0: the longest route network; seat 1: the most completed tickets."""
    g = make_game("usa", 2, variant)
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, "El Paso", "Houston", "green")])
    give_routes(g, 1, [route(g, "Chicago", "Pittsburgh", "orange"),
                       route(g, "Pittsburgh", "New York", "green")])
    if variant != "base":                       # Chicago–New York (5) is a 1910 ticket
        g.tickets[1] = [ticket(g, "Chicago", "New York")]
    return g


def bonuses(g):
    return [(p["bonuses"]["longest_path"], p["bonuses"]["globetrotter"]) for p in g.scores()[0]]


def test_1910_globetrotter_replaces_the_longest_path():
    assert bonuses(bonus_game("1910")) == [(0, 0), (0, 15)]


def test_mega_gives_both_bonuses():
    assert bonuses(bonus_game("mega")) == [(10, 0), (0, 15)]


def test_big_cities_gives_no_bonus():
    assert bonuses(bonus_game("big_cities")) == [(0, 0), (0, 0)]


def test_base_gives_the_longest_path_only():
    assert bonuses(bonus_game("base")) == [(10, 0), (0, 0)]


def test_globetrotter_ties_all_get_it():
    g = bonus_game("1910")
    g.tickets[1] = []
    assert bonuses(g) == [(0, 15), (0, 15)]          # both 0 completed: the maximum is 0


def test_longest_path_reported_on_every_variant():
    for v in ("1910", "big_cities"):
        assert [p["longest_path"] for p in bonus_game(v).scores()[0]] == [6, 5]


def test_1910_tie_break_stops_after_tickets():
    # same points, same completed tickets; only seat 0 has the longest network: no bonus for
    # it in 1910, so both win
    g = make_game("usa", 2, "1910")
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, "Dallas", "El Paso", "red")])                  # 7, length 4
    give_routes(g, 1, [route(g, "El Paso", "Phoenix", "gray"),                  # 4
                       route(g, "Chicago", "Duluth", "red")])                   # 4 … = 8
    give_routes(g, 0, [route(g, "Portland", "Seattle", "gray", 1)])             # 7 + 1 = 8
    players, winners = g.scores()
    assert [p["total"] for p in players] == [8 + 15, 8 + 15]
    assert winners == [0, 1]
