"""RULES.md §15 Japan: bullet routes and the shared Bullet Train supply, the end trigger, the
bullet track bonus; and a golden record scored by hand."""
import json
from pathlib import Path

import pytest

from tests.engine.rulekit import (
    GREEN,
    RED,
    WHITE,
    A,
    arrange,
    board,
    cards,
    give_routes,
    make_game,
    refuse,
    route,
    ticket,
)
from ttr_bot.engine.mechanics.bullet import Bullet
from ttr_bot.engine.seat_rules import NOT_ENOUGH_TRAINS
from ttr_bot.game_record import replay, result

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "japan_bullet_track.json"
FACE = [WHITE, WHITE, RED, RED, GREEN]


def japan(n=2, hands=None, **kw):
    g = make_game("japan", n, **kw)
    return arrange(g, hands=hands or {}, faceup=FACE)


def bullet(g):
    return g.extra["bullet"]


# ----- §15.1 components and setup ------------------------------------------------------------
def test_15_1_components():
    b = board("japan")
    assert (b.rules.min_players, b.rules.max_players, b.rules.trains, b.rules.bullet_trains) == (2, 5, 20, 16)
    assert len(b.nodes) == 48 and {n.name for n in b.nodes if n.inset} == {"Tokyo", "Kokura"}
    assert sum(r.bullet for r in b.routes) == 23 and all(r.color == -1 for r in b.routes if r.bullet)
    g = make_game("japan", 3, setup=False)
    assert [len(o) for o in g.offers] == [4, 4, 4] and g.keep_min(0) == 2
    assert bullet(g) == {"supply": 16, "track": [0, 0, 0], "routes": []}
    assert b.rules.longest_path_bonus == 0 and b.rules.globetrotter_bonus == 0


def test_15_1_parallels_of_different_lengths_are_not_doubles():
    g = japan(hands={0: cards(white=3, red=2)})
    white, gray = route(g, "Aomori", "Hakodate", "white"), route(g, "Aomori", "Hakodate", "gray")
    g.apply(A.ClaimRoute(0, white, cards(white=3)))
    g.current = 0
    assert g.route_blocked(0, gray) is None
    g.apply(A.ClaimRoute(0, gray, cards(red=2)))
    assert g.owner[gray] == 0


# ----- §15.2 bullet routes ---------------------------------------------------------------------
def test_15_2_a_bullet_claim_takes_no_trains_no_points_and_moves_the_marker():
    g = japan(hands={0: cards(red=4)})
    r = route(g, "Aomori", "Morioka")                       # gray bullet 4
    g.trains[0] = 0                                          # allowed with no trains left
    assert g.route_blocked(0, r) is None
    events = g.apply(A.ClaimRoute(0, r, cards(red=4)))
    assert g.trains[0] == 0 and g.route_points[0] == 0
    assert next(e for e in events if e["type"] == "claim_route")["points"] == 0
    assert bullet(g) == {"supply": 15, "track": [4, 0], "routes": [r]}
    assert {"type": "bullet_train", "seat": 0, "route": r, "track": 4, "supply": 15} in events
    assert r not in g.routes_of[0] and g.owner[r] == 0     # taken, but nobody's route
    assert g.scores()[0][0]["route_points"] == 0


def test_15_2_it_pays_as_a_gray_route():
    g = japan(hands={0: cards(red=1, green=1, locomotive=2)})
    r = route(g, "Kyoto", "Nagoya")                          # gray bullet 2
    assert refuse(g, A.ClaimRoute(0, r, cards(red=1, green=1))) == "pay_one_color"
    g.apply(A.ClaimRoute(0, r, cards(red=1, locomotive=1)))
    assert bullet(g)["track"][0] == 2


def test_15_2_with_the_supply_empty_a_bullet_route_is_ordinary():
    g = japan(hands={0: cards(red=4)})
    bullet(g)["supply"] = 0
    r = route(g, "Aomori", "Morioka")
    g.trains[0] = 3
    assert g.route_blocked(0, r) == NOT_ENOUGH_TRAINS
    g.trains[0] = 20
    g.apply(A.ClaimRoute(0, r, cards(red=4)))
    assert (g.trains[0], g.route_points[0], r in g.routes_of[0]) == (16, 7, True)
    assert bullet(g)["track"] == [0, 0] and g.scores()[0][0]["route_points"] == 7


# ----- §15.3 the end ------------------------------------------------------------------------------
def test_15_3_the_last_round_needs_both_counts_and_its_taker_plays_last():
    g = japan(n=3, hands={0: cards(red=2), 1: cards(red=1)})
    g.trains = [2, 20, 20]                                   # seat 0 is low already
    assert g.legal_actions(0)
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0))
    assert g.final_turns_left is None                       # the supply holds 16
    bullet(g)["supply"] = 3
    g.apply(A.ClaimRoute(1, route(g, "Kyoto", "Osaka"), cards(red=1)))   # 3 -> 2: now both
    assert g.final_trigger == 1 and g.final_turns_left == 3
    for seat in (2, 0):
        g.apply(A.DrawCard(seat))
        g.apply(A.DrawCard(seat))
    assert not g.over and g.current == 1
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    assert g.over


# ----- §15.4 the bullet track bonus ------------------------------------------------------------------
@pytest.mark.parametrize("track,points", [
    ([5, 3], [10, -10]),
    ([5, 0], [10, -20]),
    ([4, 4], [10, 10]),
    ([6, 4, 4], [15, 5, 5]),
    ([6, 6, 1], [15, 15, -10]),
    ([9, 7, 7, 2], [20, 10, 10, -10]),
    ([9, 7, 3, 3, 0], [25, 15, 5, 5, -20]),
    ([0, 0, 0, 0], [-20, -20, -20, -20]),
])
def test_15_4_ranks_share_ties_and_skip_and_zero_is_minus_20(track, points):
    assert Bullet(board("japan")).bonuses(track) == points


# ----- §15.5 precise points --------------------------------------------------------------------
def test_15_5_1_and_2_a_bullet_route_counts_for_everyone_s_tickets():
    g = japan(hands={1: cards(red=1)})
    g.tickets = [[ticket(g, "Odawara", "Narita")], [ticket(g, "Osaka", "Tokyo")]]
    give_routes(g, 0, [route(g, "Narita", "Tokyo", "purple")])
    assert g.scores()[0][0]["tickets"][0]["completed"] is False
    g.current = 1
    g.apply(A.ClaimRoute(1, route(g, "Odawara", "Tokyo"), cards(red=1)))    # bob's bullet claim
    players = g.scores()[0]
    assert players[0]["tickets"][0]["completed"] is True                    # completes ann's
    assert players[1]["longest_path"] == 0 and players[1]["route_points"] == 0


def test_15_5_3_without_the_supply_at_2_only_passes_end_the_game():
    g = japan()
    g.trains = [0, 0]
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0))
    assert g.final_turns_left is None and not g.over


def test_15_5_4_the_marker_moves_by_the_length():
    g = japan(hands={0: cards(red=3)})
    g.apply(A.ClaimRoute(0, route(g, "Fukushima", "Shinjo"), cards(red=3)))
    assert bullet(g)["track"][0] == 3 and bullet(g)["supply"] == 15


def test_15_5_6_the_longest_trail_counts_own_train_routes_only():
    g = japan(hands={0: cards(red=3, black=4)})
    g.apply(A.ClaimRoute(0, route(g, "Matsumoto", "Tokyo"), cards(black=4)))
    g.current = 0
    g.apply(A.ClaimRoute(0, route(g, "Tokyo", "Utsunomiya"), cards(red=2)))  # bullet
    assert g.scores()[0][0]["longest_path"] == 4


# ----- the golden record -----------------------------------------------------------------------
def test_golden_record_japan():
    """ann claims four routes with her trains and seven bullet routes; bob seven bullet routes.
    By hand: ann's own routes Matsumoto–Tokyo 4 (7), Matsumoto–Odawara 4 (7), Masuda–Tottori 6
    (15), Kyoto–Tottori 4 (7): 36 points, 18 trains (2 left). Her bullets: Odawara–Tokyo 1,
    Kyoto–Osaka 1, Kyoto–Nagoya 2, Hamamatsu–Nagoya 3, Hamamatsu–Odawara 3, Hiroshima–Okayama
    3, Okayama–Osaka 3: track 16. bob's: Fukushima–Sendai 1, Hakata–Kokura 1, Akita–Morioka 2,
    Aomori–Hakodate 2, Hakata–Kumamoto 2, Nagano–Takasaki 2, Takasaki–Tokyo 2: track 12.
    14 Bullet Trains used: 2 left, and ann is at 2 trains: the last round.
    ann's tickets: Osaka–Tokyo 5 (bullets only), Tottori–Tokyo 9 (Tottori–Kyoto, then
    bullets), Hiroshima–Osaka 3 (bullets) done; Hakata–Tokyo 10 missed (Kokura leads nowhere):
    7. bob's: Osaka–Nagano 3 done through bullets alone (his and ann's), Kagoshima-Chuo–Kokura
    3 missed: 0. Track: ann 1st +10, bob 2nd -10.
    ann: 36 + 7 + 10 = 53; bob: 0 + 0 - 10 = -10."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over
    out = result(game, names)
    ann, bob = out["players"]
    assert out["bullet_trains_left"] == 2
    assert (ann["route_points"], ann["ticket_points"], ann["bullet_track"], ann["trains_left"]) \
        == (36, 7, 16, 2)
    assert (ann["bonuses"]["bullet_track"], ann["total"]) == (10, 53)
    assert (bob["route_points"], bob["ticket_points"], bob["bullet_track"], bob["total"]) \
        == (0, 0, 12, -10)
    assert out["winners"] == ["ann"]


def test_the_view_answers_with_the_bullet_supply():
    from ttr_bot.engine.view import view
    g = japan(hands={0: cards(red=4)})
    g.trains[0] = 1
    r = route(g, "Aomori", "Morioka")
    v = view(g, 0)
    assert v.route_blocked(r) is None and v.route_blocks()[r] is None
    assert r in [ro.index for ro, _ in v.claimable_routes()]
    bullet(g)["supply"] = 0
    assert view(g, 0).route_blocked(r) == NOT_ENOUGH_TRAINS
