"""docs/rules.md §10 Things the host must never get wrong: hidden information, card and train
conservation, illegal actions change nothing."""
import random

import pytest

from tests.engine.rulekit import (
    BLUE,
    GREEN,
    LOCO,
    ORANGE,
    RED,
    WHITE,
    YELLOW,
    A,
    arrange,
    card_total,
    cards,
    fingerprint,
    make_game,
    node,
    refuse,
    route,
)
from ttr_bot.engine.view import view
from ttr_bot.i18n import reason

FACE = [ORANGE, WHITE, YELLOW, ORANGE, WHITE]


# ----- hidden information -----------------------------------------------------------------
def swap_hand_card(g, seat):
    """Change the composition of a seat's hand (same size) with a deck card."""
    h = g.hands[seat]
    have = next(c for c in range(9) if h[c])
    i = next(i for i, c in enumerate(g.deck) if c != have)
    h[have] -= 1
    h[g.deck[i]] += 1
    g.deck[i] = have


def test_view_never_shows_another_seats_hand_or_tickets():
    g = make_game("usa", 3, seed=3)
    g2 = g.copy()
    swap_hand_card(g2, 1)
    g2.tickets[1] = [t for t in g2.ticket_deck][:len(g.tickets[1])]
    assert view(g, 0) == view(g2, 0)
    assert view(g, 2) == view(g2, 2)
    assert view(g, 1) != view(g2, 1)


def test_view_never_shows_another_seats_starting_offer():
    g = make_game("europe", 3, seed=4, setup=False)
    g.apply(A.KeepTickets(2, tuple(g.offers[2][:2])))
    g2 = g.copy()
    g2.offers[1] = [g2.offers[1][0]] + list(g2.ticket_deck)[:3]
    assert view(g, 0) == view(g2, 0) and view(g, 2) == view(g2, 2)
    assert view(g, 1) != view(g2, 1)
    v = view(g, 0)
    assert v.offer == g.offers[0] and v.hand == g.hands[0]


def test_view_never_shows_another_seats_drawn_tickets_being_chosen():
    g = make_game("usa", 2, seed=5)
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0))
    g.apply(A.DrawTickets(1))
    g2 = g.copy()
    g2.offers[1] = [g2.ticket_deck[0], g2.ticket_deck[1], g2.ticket_deck[2]]
    assert view(g, 0) == view(g2, 0)
    assert view(g, 1) != view(g2, 1)


def test_view_never_shows_another_seats_tunnel_in_progress():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=5, locomotive=3)}, faceup=FACE, deck=[BLUE, RED, GREEN])
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    g2 = make_game("europe", 2)
    arrange(g2, hands={0: cards(blue=6, locomotive=2)}, faceup=FACE, deck=[BLUE, RED, GREEN])
    g2.apply(A.ClaimRoute(0, route(g2, "München", "Venezia"), cards(blue=1, locomotive=1)))
    assert g.step == g2.step == "tunnel"
    g2.hands[0] = list(g.hands[0])           # same hand left, different cards laid
    assert view(g, 1) == view(g2, 1)
    assert view(g, 0).tunnel is not None


def test_blind_draws_and_ticket_choices_are_private_in_events():
    g = make_game("usa", 2, seed=6, setup=False)
    ev = g.apply(A.KeepTickets(0, tuple(g.offers[0][:2])))
    pub = [{k: v for k, v in e.items() if k != "private"} for e in ev]
    assert all("tickets" not in e and "returned" not in e for e in pub)
    g.apply(A.KeepTickets(1, tuple(g.offers[1])))
    ev = g.apply(A.DrawCard(0))
    blind = [e for e in ev if e["type"] == "draw_card"][0]
    assert "card" not in blind and "card" in blind["private"]
    g.apply(A.DrawCard(0))
    ev = g.apply(A.DrawTickets(1))
    assert all("offer" not in {k: v for k, v in e.items() if k != "private"} for e in ev)


# ----- conservation, random playouts ---------------------------------------------------------
def check_invariants(g):
    assert card_total(g) == 110
    assert all(min(h) >= 0 for h in g.hands)
    assert len(g.faceup) <= 5
    for p in range(g.n):
        placed = sum(g.board.routes[r].length for r in g.routes_of[p])
        assert placed + g.trains[p] == g.rules.trains
        assert g.stations_left[p] + len(g.stations_of[p]) == g.rules.stations
        assert sorted(g.routes_of[p]) == [r for r, o in enumerate(g.owner) if o == p]


def pick(rng, acts):
    claims = [a for a in acts if isinstance(a, (A.ClaimRoute, A.TunnelPay))]
    if claims and rng.random() < 0.7:
        return rng.choice(claims)
    other = [a for a in acts if not isinstance(a, A.DrawTickets)] or acts
    if rng.random() < 0.05:
        other = acts
    return rng.choice(other)


def playout(map_id, n, seed, limit=1500, each=None):
    rng = random.Random(seed)
    g = make_game(map_id, n, seed=seed, setup=False)
    check_invariants(g)
    steps = 0
    while not g.over and steps < limit:
        seat = g.to_move()[0]
        acts = g.legal_actions(seat)
        assert acts, "a seat to move always has a legal action"
        if each:
            each(g, seat, acts, rng)
        g.apply(pick(rng, acts))
        check_invariants(g)
        steps += 1
    return g


@pytest.mark.parametrize("map_id,n,seed", [("usa", 2, 1), ("usa", 5, 2), ("europe", 3, 3),
                                           ("europe", 4, 33), ("switzerland", 3, 4),
                                           ("nordic", 2, 5), ("nordic", 3, 6)])
def test_card_and_train_conservation_through_whole_games(map_id, n, seed):
    g = playout(map_id, n, seed)
    assert g.over
    players, winners = g.scores()
    assert winners


def test_conservation_counts_tunnel_laid_and_revealed_cards():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=3)}, faceup=FACE, deck=[BLUE, LOCO, RED])
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    assert g.step == "tunnel"
    loose = len(g.deck) + len(g.discard) + len(g.faceup) + sum(map(sum, g.hands))
    assert loose == 110 - 2 - 3
    assert card_total(g) == 110


# ----- illegal actions change nothing ---------------------------------------------------------
def random_action(g, rng):
    seat = rng.randrange(g.n + 1) if rng.random() < 0.1 else g.current
    kind = rng.randrange(8)
    pay = [0] * 9
    for _ in range(rng.randint(0, 6)):
        pay[rng.randrange(9)] += 1
    pay = tuple(pay)
    if kind == 0:
        return A.DrawCard(seat, rng.choice([-1, -1] + list(range(9))))
    if kind == 1:
        return A.ClaimRoute(seat, rng.randrange(-2, len(g.board.routes) + 2), pay)
    if kind == 2:
        return A.TunnelPay(seat, pay)
    if kind == 3:
        return A.TunnelDecline(seat)
    if kind == 4:
        return A.DrawTickets(seat)
    if kind == 5:
        return A.BuildStation(seat, rng.randrange(-1, len(g.board.nodes) + 1), pay)
    if kind == 6:
        return A.Pass(seat)
    return A.KeepTickets(seat, tuple(rng.sample(range(len(g.board.tickets)), rng.randint(0, 3))))


@pytest.mark.parametrize("map_id,n,seed", [("usa", 3, 11), ("europe", 3, 12),
                                           ("switzerland", 2, 13), ("nordic", 3, 14)])
def test_any_illegal_action_changes_nothing(map_id, n, seed):
    seen = set()

    def fuzz(g, seat, acts, rng):
        legal = set(acts)
        for _ in range(6):
            a = random_action(g, rng)
            if a in legal:
                continue
            before = fingerprint(g)
            if g.check(a) is None:
                continue                 # legal but not enumerated (e.g. another payment)
            key = refuse(g, a)
            seen.add(key)
            assert reason(g.check(a))            # a clear sentence for the player
            assert fingerprint(g) == before
        for a in rng.sample(acts, min(3, len(acts))):
            assert g.check(a) is None, a
    playout(map_id, n, seed, limit=150, each=fuzz)
    assert len(seen) >= 6


def test_illegal_actions_after_the_game_ended_change_nothing():
    g = playout("usa", 2, 21)
    assert g.over
    for a in (A.DrawCard(0), A.DrawCard(1), A.DrawTickets(0), A.Pass(1), A.TunnelDecline(0),
              A.ClaimRoute(0, 0, cards(locomotive=2)), A.KeepTickets(0, ())):
        assert refuse(g, a) == "game_over"


def test_illegal_action_in_every_step_changes_nothing():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=5, red=3), 1: cards(red=4)}, faceup=FACE,
            deck=[RED, GREEN, WHITE, BLUE, BLUE, RED])
    paris = node(g, "Paris")
    # idle
    for a in (A.DrawCard(1), A.DrawCard(0, LOCO), A.TunnelPay(0, cards(blue=1)),
              A.KeepTickets(0, (0,)), A.BuildStation(0, paris, cards(red=2)),
              A.ClaimRoute(0, route(g, "Berlin", "Frankfurt", "red"), cards(red=4)),
              A.ClaimRoute(0, 999, cards(red=1)), A.Pass(0), A.DrawCard(5)):
        refuse(g, a)
    # second card
    g.apply(A.DrawCard(0))
    for a in (A.DrawTickets(0), A.BuildStation(0, paris, cards(red=1)), A.Pass(0),
              A.ClaimRoute(0, route(g, "Berlin", "Frankfurt", "red"), cards(red=3))):
        assert refuse(g, a) == "second_card_pending"
    g.apply(A.DrawCard(0))
    # tunnel pending for seat 1? seat 1 draws tickets: choosing
    g.apply(A.DrawTickets(1))
    for a in (A.DrawCard(1), A.KeepTickets(1, ()), A.KeepTickets(1, (0,)), A.Pass(1)):
        refuse(g, a)


def test_every_refusal_has_a_message_in_the_players_language():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(red=3)}, faceup=FACE)
    for a in (A.DrawCard(0, LOCO), A.ClaimRoute(0, 0, cards(red=1)), A.Pass(0),
              A.BuildStation(0, node(g, "Paris"), cards(red=2)), A.TunnelDecline(0),
              A.KeepTickets(0, ()), A.DrawCard(1)):
        e = g.check(a)
        assert e is not None
        text = reason(e)
        assert text and "{" not in text


def test_a_simulated_copy_never_changes_the_game():
    g = make_game("europe", 3, seed=8)
    before = fingerprint(g)
    sim = g.copy()
    rng = random.Random(1)
    steps = 0
    while not sim.over and steps < 300:
        seat = sim.to_move()[0]
        sim.apply(pick(rng, sim.legal_actions(seat)))
        steps += 1
    assert fingerprint(g) == before


def test_a_saved_and_restored_game_continues_exactly():
    import json

    from ttr_bot.engine import snapshot
    g = playout("europe", 3, 9, limit=60)
    h = snapshot.from_dict(g.board, json.loads(json.dumps(snapshot.to_dict(g))))
    assert fingerprint(h) == fingerprint(g)
    rng1, rng2 = random.Random(4), random.Random(4)
    for _ in range(80):
        if g.over:
            break
        a = pick(rng1, g.legal_actions(g.to_move()[0]))
        assert pick(rng2, h.legal_actions(h.to_move()[0])) == a
        assert g.apply(a) == h.apply(a)
        assert fingerprint(h) == fingerprint(g)
        check_invariants(h)
