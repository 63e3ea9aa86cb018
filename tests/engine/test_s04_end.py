"""docs/rules.md §4 End of game: a turn ending with 0, 1 or 2 trains gives everyone exactly one more
turn, the triggering player included (and last)."""
import pytest

from tests.engine.rulekit import BLACK, ORANGE, WHITE, YELLOW, A, arrange, cards, make_game, refuse, route

FACE = [ORANGE, WHITE, YELLOW, BLACK, ORANGE]


def near_end(n, seat=0, trains=4):
    g = make_game("usa", n)
    arrange(g, hands={seat: cards(red=4), (seat + 1) % n: cards(locomotive=4)}, faceup=FACE)
    g.trains[seat] = trains
    return g


def draw2(g):
    p = g.current
    g.apply(A.DrawCard(p))
    g.apply(A.DrawCard(p))


@pytest.mark.parametrize("left", [0, 1, 2])
def test_ending_a_turn_with_2_or_fewer_trains_starts_the_final_round(left):
    g = near_end(3, trains=4 + left)
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    assert g.trains[0] == left
    assert g.final_turns_left is not None
    assert g.phase == "play"


def test_ending_a_turn_with_3_trains_does_not():
    g = near_end(3, trains=7)
    events = g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    assert g.trains[0] == 3
    assert g.final_turns_left is None
    assert not any(e["type"] == "final_round" for e in events)


def test_final_round_is_announced():
    g = near_end(3)
    events = g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    assert any(e["type"] == "final_round" and e["seat"] == 0 for e in events)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_every_player_gets_exactly_one_more_turn_the_trigger_last(n):
    g = near_end(n)
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    seen = []
    for _ in range(n):
        assert g.phase == "play"
        seen.append(g.current)
        draw2(g)
    assert seen == list(range(1, n)) + [0]
    assert g.phase == "over"
    assert refuse(g, A.DrawCard(1)) == "game_over"
    assert g.legal_actions(1) == [] and g.to_move() == []


def test_trigger_in_the_middle_of_the_round():
    g = near_end(3, seat=1)
    draw2(g)                                   # seat 0
    g.apply(A.ClaimRoute(1, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    seen = []
    while g.phase == "play":
        seen.append(g.current)
        draw2(g)
    assert seen == [2, 0, 1]


def test_another_player_running_low_in_the_final_round_does_not_restart_it():
    g = near_end(3)
    g.trains[1] = 4
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    g.apply(A.ClaimRoute(1, route(g, "Atlanta", "New Orleans", "orange"), cards(locomotive=4)))
    assert g.trains[1] == 0
    draw2(g)                                   # seat 2
    assert g.phase == "play" and g.current == 0
    draw2(g)                                   # seat 0: the triggering player's last turn
    assert g.phase == "over"


def test_a_ticket_draw_in_the_final_round_is_one_turn():
    g = near_end(2)
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    g.apply(A.DrawTickets(1))
    assert g.phase == "play"
    g.apply(A.KeepTickets(1, (g.offers[1][0],)))
    assert g.current == 0 and g.phase == "play"
    draw2(g)
    assert g.phase == "over"
