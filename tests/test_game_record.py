"""`ttr-record/1` records (docs/record-format.md) replayed through ttr_bot.game_record.

The fixtures in tests/records are built by hand (see tests/records/README.md) and every expected
number below is worked out by hand from the rules, not copied from the engine's output.
"""
import copy
import json
from pathlib import Path

import pytest

from tests.helpers.ttr_check import FULL_DECK, card_census, expected_scores
from ttr_bot.game_record import RecordError, replay, result
from ttr_bot.i18n import reason

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

RECORDS = TESTS / "records"
NO_BONUS = {"longest_path": 0, "globetrotter": 0, "stations": 0}


def load(name):
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def run(doc):
    """(replay output document, game, error) for a record."""
    game, names, error = replay(doc)
    message = reason(error[1]) if error else None
    return result(game, names, error, message), game, error


def with_actions(doc, actions):
    out = copy.deepcopy(doc)
    out["actions"] = actions
    return out


def players_by_name(out):
    return {p["name"]: p for p in out["players"]}


def ticket(frm, to, points, completed):
    return {"from": frm, "to": to, "points": points, "completed": completed}


def assert_error_at(doc, index, key=None):
    """The replay stops at `index`; the state reported is the one just before it."""
    out, game, error = run(doc)
    assert out["error"] is not None, "the action should have been refused"
    assert out["error"]["action"] == index
    assert isinstance(out["error"]["message"], str) and out["error"]["message"].strip()
    if key is not None:
        assert error[1].key == key, error[1]
        assert out["error"]["message"] == reason(error[1])
    before, _, before_error = run(with_actions(doc, doc["actions"][:index]))
    assert before_error is None
    assert {k: v for k, v in out.items() if k != "error"} == \
        {k: v for k, v in before.items() if k != "error"}
    return out, game


# ----- a short USA game that ends by the final round ------------------------------------------
# ann: Portland–Seattle 1 (1 pt), Seattle–Helena 6 (15), Helena–Duluth 6 (15), Duluth–Toronto 6
# (15), Toronto–Pittsburgh 2 (2), Pittsburgh–New York 2 (2), Los Angeles–El Paso 6 (15),
# El Paso–Houston 6 (15), Houston–New Orleans 2 (2), New Orleans–Miami 6 (15), and on her last
# turn Seattle–Vancouver 1 (1): 6*15 + 3*2 + 2*1 = 98 points, 44 trains, 1 left.
# Portland–Seattle leaves her 2 trains (45 - 43): the final round starts; bob draws once more and
# ann's Seattle–Vancouver is the last turn. Turns: ann 31 + bob 30 = 61.
# Tickets: Los Angeles–Miami 20 (LA–El Paso–Houston–New Orleans–Miami) and Seattle–New York 22
# (Seattle–Helena–Duluth–Toronto–Pittsburgh–New York): +42.
# Longest trail: Vancouver (or Portland)–Seattle–Helena–Duluth–Toronto–Pittsburgh–New York =
# 1+6+6+6+2+2 = 23 (the southern line is 6+6+2+6 = 20). Bonus 10. Total 98 + 42 + 10 = 150.
# Her 44 cards (4 dealt + 20 blind draws) all went into routes: empty hand.
# bob: Kansas City–Omaha 1 and Dallas–Houston 1 with the two white he was dealt (2 points,
# 2 trains, longest trail 1); tickets Kansas City–Houston 5 and Denver–El Paso 4 both failed: -9.
# Total 2 - 9 = -7. His hand: the 60 cards he got (4 dealt + 28 turns of 2 blind) less 2 white:
# everything ann did not use except the face-up row (2 loco, 2 white, blue) and the last deck
# card (a locomotive): 6 of each of purple/orange/green/yellow/black/red, 6 white, 5 blue, 11 loco.
USA_FINAL = {
    "status": "finished",
    "error": None,
    "turn": 61,
    "players": [
        {"name": "ann", "route_points": 98,
         "tickets": [ticket("Los Angeles", "Miami", 20, True), ticket("Seattle", "New York", 22, True)],
         "tickets_completed": 2, "ticket_points": 42, "longest_path": 23,
         "bonuses": {"longest_path": 10, "globetrotter": 0, "stations": 0}, "total": 150,
         "trains_left": 1, "stations_left": 0, "hand": {}},
        {"name": "bob", "route_points": 2,
         "tickets": [ticket("Kansas City", "Houston", 5, False), ticket("Denver", "El Paso", 4, False)],
         "tickets_completed": 0, "ticket_points": -9, "longest_path": 1, "bonuses": NO_BONUS,
         "total": -7, "trains_left": 43, "stations_left": 0,
         "hand": {"purple": 6, "blue": 5, "orange": 6, "white": 6, "green": 6, "yellow": 6,
                  "black": 6, "red": 6, "locomotive": 11}},
    ],
    "winners": ["ann"],
}


def test_usa_game_ends_by_the_final_round():
    doc = load("usa_final_round.json")
    out, game, error = run(doc)
    assert error is None
    assert out == USA_FINAL
    assert game.over


def test_final_round_starts_when_two_trains_are_left():
    doc = load("usa_final_round.json")
    actions = doc["actions"]
    trigger = next(i for i, a in enumerate(actions)
                   if a.get("from") == "Portland" and a["type"] == "claim_route")
    # just before ann's trigger claim: an ordinary turn
    out, game, _ = run(with_actions(doc, actions[:trigger]))
    assert out["status"] == "in_progress" and out["winners"] == []
    assert players_by_name(out)["ann"]["trains_left"] == 3
    # after it: bob's turn and ann's turn remain, and nothing more
    out, game, _ = run(with_actions(doc, actions[:trigger + 1]))
    assert out["status"] == "in_progress" and out["winners"] == []
    assert players_by_name(out)["ann"]["trains_left"] == 2
    assert actions[trigger + 1]["player"] == "bob" and actions[trigger + 2]["player"] == "bob"
    out, _, _ = run(with_actions(doc, actions[:trigger + 3]))
    assert out["status"] == "in_progress"
    # any action after the last turn is illegal and reported at its index
    late = actions + [{"player": "bob", "type": "draw_card", "from": "deck"}]
    out, _ = assert_error_at(with_actions(doc, late), len(actions), "game_over")
    assert out["status"] == "finished" and out["winners"] == ["ann"]
    # ann cannot take bob's final turn
    early = actions[:trigger + 1] + [{"player": "ann", "type": "draw_card", "from": "deck"}]
    assert_error_at(with_actions(doc, early), trigger + 1, "not_your_turn")


def test_final_scores_agree_with_the_independent_recount():
    _, game, _ = run(load("usa_final_round.json"))
    players, winners = game.scores()
    expected, exp_winners = expected_scores(game)
    assert [p["total"] for p in players] == [p["total"] for p in expected] == [150, -7]
    assert winners == exp_winners == [0]


# ----- an illegal action at a known index -----------------------------------------------------
def test_illegal_action_stops_the_replay_at_its_index():
    doc = load("usa_illegal.json")
    out, game = assert_error_at(doc, 4, "pay_route_color")
    assert out["error"] == {"action": 4,
                            "message": "This route must be paid with cards of its own colour."}
    assert out["status"] == "in_progress" and out["winners"] == []
    assert out["turn"] == 1          # ann's draw was the only complete turn
    by = players_by_name(out)
    # ann: dealt red, red, blue, loco; took the face-up yellow (replaced by purple), then the
    # orange from the deck. bob: dealt 4 green, and the refused claim changed nothing.
    assert by["ann"]["hand"] == {"red": 2, "blue": 1, "locomotive": 1, "yellow": 1, "orange": 1}
    assert by["bob"]["hand"] == {"green": 4}
    assert by["bob"]["route_points"] == 0 and by["bob"]["trains_left"] == 45
    # bob kept three tickets, one written back to front
    assert by["bob"]["tickets"] == [ticket("Dallas", "New York", 11, False),
                                    ticket("Chicago", "Santa Fe", 9, False),
                                    ticket("Chicago", "New Orleans", 7, False)]
    assert game.faceup.count(0) == 1     # the purple that replaced the yellow is face up
    # the action after the illegal one is legal on its own, but never played
    actions = doc["actions"]
    out2, _, err2 = run(with_actions(doc, actions[:4] + actions[5:]))
    assert err2 is None and players_by_name(out2)["bob"]["hand"] == {"green": 2}


# ----- reshuffles -----------------------------------------------------------------------------
# Ann (dealt red, blue, green, yellow) claims three 1-routes with red, blue, green: the discard
# pile. Bob was dealt 4 locomotives; face up: purple, purple, orange, orange, white. 97 cards are
# left; then both draw blind: ann 23 turns (11 each of blue, green, yellow, red, 2 purple), bob 26
# turns (12 black, 10 locomotives, 11 white, 10 orange, 8 purple). Before bob's 26th turn 96 are
# gone; he takes the 97th (a purple) and the deck is empty: the discard pile becomes the deck in
# the order reshuffles[0] gives, top first: green (to bob), then red (ann's next, single draw);
# blue stays in the deck. Turns: 26 each.
def test_reshuffle_entry_gives_the_new_deck_order():
    doc = load("usa_reshuffle.json")
    out, game, error = run(doc)
    assert error is None and out["status"] == "in_progress"
    assert out["turn"] == 52
    by = players_by_name(out)
    assert by["bob"]["hand"] == {"locomotive": 14, "black": 12, "white": 11, "orange": 10,
                                 "purple": 8, "green": 1}
    assert by["ann"]["hand"] == {"yellow": 12, "blue": 11, "green": 11, "red": 12, "purple": 2}
    assert [c for c in game.deck] == [1]          # blue
    assert game.discard == []
    assert card_census(game) == FULL_DECK


def test_another_reshuffle_order_deals_other_cards():
    doc = load("usa_reshuffle.json")
    doc["reshuffles"] = [["red", "green", "blue"]]
    out, _, error = run(doc)
    assert error is None
    by = players_by_name(out)
    assert by["bob"]["hand"].get("red") == 1 and "green" not in by["bob"]["hand"]
    assert by["ann"]["hand"]["red"] == 11 and by["ann"]["hand"]["green"] == 12


def test_without_reshuffles_the_seed_decides():
    doc = load("usa_reshuffle.json")
    del doc["reshuffles"]
    out, game, error = run(doc)
    assert error is None
    again, _, _ = run(copy.deepcopy(doc))
    assert out == again                         # deterministic for a seed
    by = players_by_name(out)
    assert sum(by["bob"]["hand"].values()) == 56 and sum(by["ann"]["hand"].values()) == 48
    assert len(game.deck) == 1


@pytest.mark.parametrize("entry", [
    ["green", "red", "red"],                     # not the same cards
    ["green", "red"],                            # one missing
    ["green", "red", "blue", "blue"],            # one too many
    ["green", "red", "blue", "purple"],
    [],
])
def test_reshuffle_that_is_not_the_discard_pile_is_not_a_record(entry):
    doc = load("usa_reshuffle.json")
    doc["reshuffles"] = [entry]
    with pytest.raises(RecordError):
        replay(doc)


def test_unused_reshuffle_entries_are_harmless_until_used():
    doc = load("usa_reshuffle.json")
    doc["actions"] = doc["actions"][:-3]          # stop before the deck runs out
    doc["reshuffles"] = [["purple"]]             # would be wrong, but it is never needed
    out, _, error = run(doc)
    assert error is None and out["status"] == "in_progress"


# ----- Europe: tunnels and stations -------------------------------------------------------------
# ann: Paris–Zürich (3, gray tunnel) paid with 3 locomotives; reveal red, red, loco: only the
#   locomotive counts (paid with locomotives only) -> 1 more locomotive. Venezia–Zürich (2 green
#   tunnel): reveal green, blue, yellow -> 1 more green. Zürich–Marseille (2 purple tunnel):
#   reveal red, white, orange -> nothing more, claimed at once. Venezia–Zagrab (2 gray, red).
#   Route points 4 + 2 + 2 + 2 = 10; trains 45 - 9 = 36.
#   Tickets: Paris–Zagrab 7 (Paris–Zürich–Venezia–Zagrab) done, Brest–Venezia 8 failed: -1.
#   Longest trail Paris–Zürich–Venezia–Zagrab 3+2+2 = 7 -> European Express 10. 3 stations
#   unused: +12. Total 10 - 1 + 10 + 12 = 31. Hand: 4 loco, 3 green, 2 purple, 2 red used of
#   4 loco + 3 green + 2 purple + 2 red + 1 black received: {black: 1}.
# bob: München–Venezia (blue tunnel) with 2 blue; reveal blue, white, green -> 1 more: declined,
#   the blue cards come back. Roma–Venezia (2 black), Roma–Brindisi (2 white): 4 points, 41
#   trains. Stations: Venezia (1 orange) and Wien (2 blue): 1 left, +4. The Venezia station
#   borrows ann's Venezia–Zürich: Zürich–Venezia–Roma–Brindisi completes Zürich–Brindisi 6;
#   Berlin–Roma 9 fails: -3. Longest trail 4. Total 4 - 3 + 4 = 5. Hand: {yellow: 1}.
# 8 turns for ann, 7 for bob: 15.
EUROPE = {
    "status": "in_progress",
    "error": None,
    "turn": 15,
    "players": [
        {"name": "ann", "route_points": 10,
         "tickets": [ticket("Paris", "Zagrab", 7, True), ticket("Brest", "Venezia", 8, False)],
         "tickets_completed": 1, "ticket_points": -1, "longest_path": 7,
         "bonuses": {"longest_path": 10, "globetrotter": 0, "stations": 12}, "total": 31,
         "trains_left": 36, "stations_left": 3, "hand": {"black": 1}},
        {"name": "bob", "route_points": 4,
         "tickets": [ticket("Zürich", "Brindisi", 6, True), ticket("Berlin", "Roma", 9, False)],
         "tickets_completed": 1, "ticket_points": -3, "longest_path": 4,
         "bonuses": {"longest_path": 0, "globetrotter": 0, "stations": 4}, "total": 5,
         "trains_left": 41, "stations_left": 1, "hand": {"yellow": 1}},
    ],
    "winners": [],
}


def test_europe_tunnels_and_stations():
    out, game, error = run(load("europe_tunnels_stations.json"))
    assert error is None
    assert out == EUROPE


def test_tunnel_pending_keeps_the_laid_cards_out_of_the_hand():
    doc = load("europe_tunnels_stations.json")
    out, game, _ = run(with_actions(doc, doc["actions"][:3]))     # Paris–Zürich laid, not paid
    assert players_by_name(out)["ann"]["hand"] == {"locomotive": 1}
    assert game.tunnel is not None
    assert card_census(game) == FULL_DECK
    # bob cannot act while ann decides
    doc2 = with_actions(doc, doc["actions"][:3] + [{"player": "bob", "type": "draw_card", "from": "deck"}])
    assert_error_at(doc2, 3, "not_your_turn")


@pytest.mark.parametrize("prefix,action,key", [
    # ann laid 3 locomotives for Paris–Zürich; 1 more is due and she holds 1 locomotive
    (3, {"player": "ann", "type": "tunnel_pay", "cards": {"locomotive": 2}}, "cards_not_in_hand"),
    (3, {"player": "ann", "type": "tunnel_pay", "cards": {}}, "tunnel_pay_exact"),
    (3, {"player": "ann", "type": "tunnel_pay", "cards": {"locomotive": 1, "red": 0}}, None),
    # bob laid 2 blue for München–Venezia: 1 more blue or locomotive, not black
    (5, {"player": "bob", "type": "tunnel_pay", "cards": {"black": 1}}, "tunnel_pay_color"),
    # ann laid 2 green for Venezia–Zürich: 1 more green or locomotive
    (21, {"player": "ann", "type": "tunnel_pay", "cards": {"red": 1}}, "tunnel_pay_color"),
    (21, {"player": "ann", "type": "tunnel_pay", "cards": {"green": 1, "red": 1}}, "tunnel_pay_exact"),
    (21, {"player": "ann", "type": "claim_route", "from": "Venezia", "to": "Zagrab",
          "color": "gray", "cards": {"red": 2}}, "tunnel_pending"),
])
def test_tunnel_extra_must_be_exact(prefix, action, key):
    doc = load("europe_tunnels_stations.json")
    actions = doc["actions"][:prefix] + [action]
    if key is None:                    # a count of 0 means nothing (docs/record-format.md)
        out, _, error = run(with_actions(doc, actions))
        assert error is None and players_by_name(out)["ann"]["route_points"] == 4
    else:
        assert_error_at(with_actions(doc, actions), prefix, key)


def test_declined_tunnel_returns_the_cards_and_ends_the_turn():
    doc = load("europe_tunnels_stations.json")
    out, game, _ = run(with_actions(doc, doc["actions"][:6]))
    by = players_by_name(out)
    assert by["bob"]["hand"] == {"blue": 2, "black": 2}
    assert by["bob"]["route_points"] == 0 and by["bob"]["trains_left"] == 45
    assert out["turn"] == 2 and game.to_move() == [0]
    # the 3 revealed cards (blue, white, green) and ann's 4 locomotives + 2 red + loco revealed
    assert sorted(game.discard) == sorted([7, 7, 8, 8, 8, 8, 8, 1, 3, 4])


def test_station_costs_grow_and_need_one_colour():
    doc = load("europe_tunnels_stations.json")
    actions = doc["actions"]
    wien = next(i for i, a in enumerate(actions) if a.get("city") == "Wien")
    bad = copy.deepcopy(actions[:wien + 1])
    bad[wien]["cards"] = {"blue": 1}                       # the second station costs 2
    assert_error_at(with_actions(doc, bad), wien, "station_cost")
    bad[wien]["city"] = "Venezia"                          # already has a station
    bad[wien]["cards"] = {"blue": 2}
    assert_error_at(with_actions(doc, bad), wien, "station_taken")


def test_station_serves_only_one_borrowed_route():
    # bob keeps Zagrab–Brindisi 6 instead of Berlin–Roma. His Venezia station may borrow ann's
    # Venezia–Zürich (Zürich–Brindisi done) or her Venezia–Zagrab (Zagrab–Brindisi done), not
    # both: +6 - 6 = 0, one ticket completed, total 4 + 0 + 4 = 8.
    doc = load("europe_tunnels_stations.json")
    deck = doc["decks"]["tickets"]
    i, j = deck.index(["Berlin", "Roma"]), deck.index(["Zagrab", "Brindisi"])
    deck[i], deck[j] = deck[j], deck[i]
    doc["actions"][1]["keep"] = [["Zürich", "Brindisi"], ["Zagrab", "Brindisi"]]
    out, _, error = run(doc)
    assert error is None
    bob = players_by_name(out)["bob"]
    assert (bob["ticket_points"], bob["tickets_completed"], bob["total"]) == (0, 1, 8)
    assert sorted(t["completed"] for t in bob["tickets"]) == [False, True]


# ----- Switzerland: tickets to countries --------------------------------------------------------
# ann: Zürich–Schaffhausen 3 orange (4), Schaffhausen–Deutschland 1 yellow (1), Zürich–St. Gallen
#   4 black (7), St. Gallen–Österreich 4 gray tunnel paid with 4 red, reveal blue, green, white:
#   nothing more (7). 19 points, 12 trains: 28 left.
#   Zürich -> France 7 / Deutschland 3 / Österreich 7 / Italia 11: reaches Deutschland and
#   Österreich: the highest reached, 7. Deutschland -> France 5 / Österreich 5 / Italia 13:
#   reaches Österreich (through Schaffhausen, Zürich, St. Gallen): 5. +12, 2 completed.
#   Longest trail Deutschland–Schaffhausen–Zürich–St. Gallen–Österreich 1+3+4+4 = 12: bonus 10.
#   Total 19 + 12 + 10 = 41.
# bob: Basel–Deutschland 1 blue tunnel (reveal white, purple, red: nothing more) and St. Gallen–
#   Deutschland 2 gray: 3 points, 37 trains. Basel–St. Gallen 8 fails (a network never runs
#   through a country: the two routes end at different border points): -8. Lugano -> France 14 /
#   Deutschland 12 / Österreich 13 / Italia 2: none reached, loses the lowest: -2. Total -7.
#   Longest trail 2. Took the face-up locomotive twice in one turn (allowed on this map).
SWITZERLAND = {
    "status": "in_progress",
    "error": None,
    "turn": 15,
    "players": [
        {"name": "ann", "route_points": 19,
         "tickets": [ticket("Zürich", ["France", "Deutschland", "Österreich", "Italia"], 7, True),
                     ticket("Deutschland", ["France", "Österreich", "Italia"], 5, True)],
         "tickets_completed": 2, "ticket_points": 12, "longest_path": 12,
         "bonuses": {"longest_path": 10, "globetrotter": 0, "stations": 0}, "total": 41,
         "trains_left": 28, "stations_left": 0, "hand": {}},
        {"name": "bob", "route_points": 3,
         "tickets": [ticket("Basel", "St. Gallen", 8, False),
                     ticket("Lugano", ["France", "Deutschland", "Österreich", "Italia"], 2, False)],
         "tickets_completed": 0, "ticket_points": -10, "longest_path": 2, "bonuses": NO_BONUS,
         "total": -7, "trains_left": 37, "stations_left": 0,
         "hand": {"white": 1, "locomotive": 2, "orange": 2, "yellow": 2, "green": 2, "black": 2}},
    ],
    "winners": [],
}


def test_switzerland_multi_destination_tickets():
    out, _, error = run(load("switzerland_countries.json"))
    assert error is None
    assert out == SWITZERLAND


def test_switzerland_locomotives_only_on_tunnels():
    doc = load("switzerland_countries.json")
    actions = doc["actions"] + [{"player": "bob", "type": "claim_route", "from": "Zug",
                                 "to": "Zürich", "color": "red", "cards": {"locomotive": 1}}]
    assert_error_at(with_actions(doc, actions), len(doc["actions"]), "no_locos_here")


def test_switzerland_start_keeps_at_least_two_of_five():
    doc = load("switzerland_countries.json")
    actions = copy.deepcopy(doc["actions"])
    actions[0]["keep"] = actions[0]["keep"][:1]
    assert_error_at(with_actions(doc, actions), 0, "keep_at_least")


def test_multi_destination_ticket_must_list_destinations_in_reference_order():
    doc = load("switzerland_countries.json")
    actions = copy.deepcopy(doc["actions"])
    actions[0]["keep"][0] = ["Zürich", ["Italia", "Österreich", "Deutschland", "France"]]
    assert_error_at(with_actions(doc, actions), 0, "not_offered")


# ----- Nordic: ferries ----------------------------------------------------------------------------
# ann: Århus–København (1, gray ferry, 1 locomotive) paid with red + blue + green: three cards for
#   the locomotive. Helsinki–Stockholm (4, gray, 2 locomotives) paid with 1 locomotive, 3 white
#   for the other locomotive and 2 yellow. Helsinki–Imatra 3 red. 1 + 7 + 4 = 12 points, 8 trains.
#   Stockholm–Imatra 7 done, Helsinki–Lieksa 5 failed: +2, 1 completed -> Globetrotter 10
#   (bob has none). Total 12 + 2 + 10 = 24. Longest trail Stockholm–Helsinki–Imatra 7 (reported,
#   no bonus on this map). Every card she received went into a route.
# bob: Ålborg–Göteborg (2, gray ferry) with 1 locomotive + 1 yellow: 2 points. Göteborg–Turku 7
#   and Ålborg–Norrköping 5 failed: -12. Total -10.
NORDIC = {
    "status": "in_progress",
    "error": None,
    "turn": 13,
    "players": [
        {"name": "ann", "route_points": 12,
         "tickets": [ticket("Stockholm", "Imatra", 7, True), ticket("Helsinki", "Lieksa", 5, False)],
         "tickets_completed": 1, "ticket_points": 2, "longest_path": 7,
         "bonuses": {"longest_path": 0, "globetrotter": 10, "stations": 0}, "total": 24,
         "trains_left": 32, "stations_left": 0, "hand": {}},
        {"name": "bob", "route_points": 2,
         "tickets": [ticket("Göteborg", "Turku", 7, False), ticket("Ålborg", "Norrköping", 5, False)],
         "tickets_completed": 0, "ticket_points": -12, "longest_path": 2, "bonuses": NO_BONUS,
         "total": -10, "trains_left": 38, "stations_left": 0,
         "hand": {"purple": 4, "orange": 4, "blue": 2, "black": 2}},
    ],
    "winners": [],
}


def test_nordic_ferry_substitution():
    out, _, error = run(load("nordic_ferries.json"))
    assert error is None
    assert out == NORDIC


@pytest.mark.parametrize("cards,ok", [
    ({"blue": 2}, False),                         # a ferry needs its locomotive
    ({"blue": 1, "purple": 1}, False),
    ({"blue": 1, "purple": 2}, False),            # 2 cards do not replace a locomotive
    ({"blue": 1, "purple": 3}, True),             # any 3 cards do
    ({"blue": 1, "purple": 2, "orange": 1}, True),
    ({"blue": 1, "purple": 4}, False),            # 4 is not 3
])
def test_nordic_ferry_payments(cards, ok):
    doc = load("nordic_ferries.json")
    n = len(doc["actions"])
    actions = doc["actions"] + [{"player": "bob", "type": "claim_route", "from": "Karlskrona",
                                 "to": "København", "color": "blue", "cards": cards}]
    if ok:
        out, _, error = run(with_actions(doc, actions))
        assert error is None and players_by_name(out)["bob"]["route_points"] == 2 + 2
    else:
        assert_error_at(with_actions(doc, actions), n)


def test_nordic_second_lane_closed_with_two_players():
    doc = load("nordic_ferries.json")
    n = len(doc["actions"])
    actions = doc["actions"] + [{"player": "bob", "type": "claim_route", "from": "Stockholm",
                                 "to": "Helsinki", "color": "yellow",
                                 "cards": {"purple": 3, "orange": 3, "blue": 1}}]
    assert_error_at(with_actions(doc, actions), n, "double_closed")


# ----- lanes --------------------------------------------------------------------------------------
def test_lane_picks_one_of_two_same_colour_lanes():
    doc = load("usa_lanes.json")
    out, game, error = run(doc)
    assert error is not None and error[0] == 7 and error[1].key == "route_taken"
    kc_omaha = [r.index for r in game.board.routes
                if {game.board.nodes[r.a].name, game.board.nodes[r.b].name} == {"Kansas City", "Omaha"}]
    assert [game.board.routes[r].lane for r in kc_omaha] == [1, 2]
    assert game.owner[kc_omaha[1]] == 0        # ann asked for lane 2
    assert game.owner[kc_omaha[0]] == 1        # bob gave no lane: the first one still free
    portland = [r.index for r in game.board.routes
                if {game.board.nodes[r.a].name, game.board.nodes[r.b].name} == {"Portland", "Seattle"}]
    assert game.owner[portland[0]] == 2 and game.owner[portland[1]] == -1


def test_without_lane_the_first_free_lane_is_used():
    doc = load("usa_lanes.json")
    actions = copy.deepcopy(doc["actions"])
    del actions[7]["lane"]
    out, game, error = run(with_actions(doc, actions))
    assert error is None
    portland = [r.index for r in game.board.routes
                if {game.board.nodes[r.a].name, game.board.nodes[r.b].name} == {"Portland", "Seattle"}]
    assert [game.owner[r] for r in portland] == [2, 3]


@pytest.mark.parametrize("lane", [3, 0, "2", -1])
def test_bad_lane_is_an_illegal_action(lane):
    doc = load("usa_lanes.json")
    actions = copy.deepcopy(doc["actions"][:5])
    actions[4]["lane"] = lane
    assert_error_at(with_actions(doc, actions), 4)


def test_boolean_lane_is_an_illegal_action():
    doc = load("usa_lanes.json")
    actions = copy.deepcopy(doc["actions"][:5])
    actions[4]["lane"] = True
    assert_error_at(with_actions(doc, actions), 4)


def test_lane_two_of_a_single_lane_is_no_route():
    doc = load("usa_lanes.json")
    actions = doc["actions"][:4] + [{"player": "ann", "type": "claim_route", "from": "Boston",
                                     "to": "New York", "color": "red", "lane": 2, "cards": {"red": 2}}]
    assert_error_at(with_actions(doc, actions), 4, "record_no_route")


def test_two_players_close_the_other_lane():
    doc = load("usa_lanes.json")
    doc["players"] = ["ann", "bob"]
    # dealt round the table: ann red, green, red, green; bob blue, yellow, blue, yellow
    actions = [
        {"player": "ann", "type": "keep_tickets", "keep": [["Boston", "Miami"], ["Calgary", "Phoenix"]]},
        {"player": "bob", "type": "keep_tickets", "keep": [["Dallas", "New York"], ["Chicago", "Santa Fe"]]},
        {"player": "ann", "type": "claim_route", "from": "Kansas City", "to": "Omaha",
         "color": "gray", "lane": 2, "cards": {"green": 1}},
        {"player": "bob", "type": "claim_route", "from": "Kansas City", "to": "Omaha",
         "color": "gray", "cards": {"blue": 1}},
    ]
    out, game = assert_error_at(with_actions(doc, actions), 3, "double_closed")
    assert players_by_name(out)["ann"]["hand"] == {"red": 2, "green": 1}


# ----- tickets in either order, variant default --------------------------------------------------
def test_tickets_match_in_either_order():
    doc = load("usa_final_round.json")
    flipped = copy.deepcopy(doc)
    flipped["actions"][0]["keep"] = [["Kansas City", "Houston"], ["Denver", "El Paso"]]
    flipped["actions"][1]["keep"] = [["Miami", "Los Angeles"], ["New York", "Seattle"]]
    flipped["decks"]["tickets"] = [t[::-1] for t in flipped["decks"]["tickets"]]
    assert run(flipped)[0] == run(doc)[0] == USA_FINAL


def test_keeping_a_ticket_not_offered_is_illegal():
    doc = load("usa_final_round.json")
    actions = copy.deepcopy(doc["actions"])
    actions[0]["keep"] = [["Houston", "Kansas City"], ["Boston", "Miami"]]   # ann's, not bob's
    assert_error_at(with_actions(doc, actions), 0, "not_offered")
    actions[0]["keep"] = [["Houston", "Kansas City"], ["Houston", "Kansas City"]]
    assert_error_at(with_actions(doc, actions), 0, "not_offered")


def test_variant_defaults_to_base():
    doc = load("usa_reshuffle.json")
    assert "variant" not in doc
    out, game, _ = run(doc)
    assert game.board.variant == "base"
    doc["variant"] = "base"
    assert run(doc)[0] == out
    doc["variant"] = "1910"          # the base ticket deck is not the 1910 deck
    with pytest.raises(RecordError):
        replay(doc)


def test_a_1910_record():
    doc = {"format": "ttr-record/1", "map": "usa", "variant": "1910", "players": ["ann", "bob"],
           "seed": 2, "actions": []}
    game, _, _ = replay(doc)
    offered = [game.board.tickets[t] for t in game.offers[0]]
    keep = [[t.origin, t.dests[0]] for t in offered[:2]]
    doc["actions"] = [{"player": "ann", "type": "keep_tickets", "keep": keep}]
    out, game, error = run(doc)
    assert error is None and len(game.board.tickets) == 35
    by = players_by_name(out)
    assert len(by["ann"]["tickets"]) == 2
    # no longest-path bonus in 1910; globetrotter (15) to everyone tied at 0 completed
    assert by["ann"]["bonuses"] == {"longest_path": 0, "globetrotter": 15, "stations": 0}


def test_records_are_deterministic_from_the_seed():
    doc = {"format": "ttr-record/1", "map": "europe", "players": ["a", "b", "c"], "seed": 77,
           "actions": []}
    g1, _, _ = replay(doc)
    g2, _, _ = replay(copy.deepcopy(doc))
    assert g1.deck == g2.deck and g1.offers == g2.offers and g1.hands == g2.hands
    doc["seed"] = 78
    g3, _, _ = replay(doc)
    assert (g3.deck, g3.offers) != (g1.deck, g1.offers)


# ----- documents that are not records ------------------------------------------------------------
def _base():
    return load("usa_illegal.json")


def _set(path, value):
    def f(doc):
        target = doc
        for k in path[:-1]:
            target = target[k]
        if value is DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return doc
    return f


DELETE = object()


def _bare(map_id, n, **extra):
    """A record with no fixed decks: only the map, variant and players matter."""
    return {"format": "ttr-record/1", "map": map_id, "players": [f"p{i}" for i in range(n)],
            "seed": 1, "actions": [], **extra}


@pytest.mark.parametrize("map_id,variant,n", [
    (m, v, n) for m, v, lo, hi in (("usa", "base", 2, 5), ("usa", "1910", 2, 5),
                                   ("usa", "mega", 2, 5), ("usa", "big_cities", 2, 5),
                                   ("europe", "base", 2, 5), ("switzerland", "base", 2, 3),
                                   ("nordic", "base", 2, 3))
    for n in (lo, hi)])
def test_player_counts_in_range_are_records(map_id, variant, n):
    game, names, error = replay(_bare(map_id, n, variant=variant))
    assert error is None and len(names) == n and game.board.variant == variant


def _deck_edit(fn):
    def f(doc):
        fn(doc["decks"]["train"])
        return doc
    return f


INVALID = {
    "not an object": lambda d: [d],
    "no format": _set(["format"], DELETE),
    "other format": _set(["format"], "ttr-record/2"),
    "unknown map": _set(["map"], "mars"),
    "map not a string": _set(["map"], 3),
    "map path": _set(["map"], "../maps/usa"),
    "unknown variant": _set(["variant"], "2020"),
    "variant of another map": lambda d: _bare("europe", 2, variant="1910"),
    "mega on switzerland": lambda d: _bare("switzerland", 2, variant="mega"),
    "one player": _set(["players"], ["ann"]),
    "six players": _set(["players"], ["a", "b", "c", "d", "e", "f"]),
    "four on switzerland": lambda d: _bare("switzerland", 4),
    "four on nordic": lambda d: _bare("nordic", 4),
    "six on europe": lambda d: _bare("europe", 6),
    "one on europe": lambda d: _bare("europe", 1),
    "no players": _set(["players"], DELETE),
    "duplicate names": _set(["players"], ["ann", "ann"]),
    "empty name": _set(["players"], ["ann", ""]),
    "seed not an integer": _set(["seed"], "7"),
    "seed float": _set(["seed"], 7.5),
    "seed boolean": _set(["seed"], True),
    "deck 109 cards": _deck_edit(lambda t: t.pop()),
    "deck 111 cards": _deck_edit(lambda t: t.append("red")),
    "deck 13 red": _deck_edit(lambda t: t.__setitem__(t.index("blue"), "red")),
    "deck unknown card": _deck_edit(lambda t: t.__setitem__(0, "pink")),
    "deck not a list": _set(["decks", "train"], "red"),
    "tickets missing one": lambda d: (d["decks"]["tickets"].pop(), d)[1],
    "tickets duplicate": lambda d: (d["decks"]["tickets"].__setitem__(1, d["decks"]["tickets"][0]), d)[1],
    "tickets unknown pair": lambda d: (d["decks"]["tickets"].__setitem__(0, ["Boston", "Atlantis"]), d)[1],
    "ticket not a pair": lambda d: (d["decks"]["tickets"].__setitem__(0, ["Boston"]), d)[1],
    "long tickets on usa": _set(["decks", "long_tickets"], [["Brest", "Petrograd"]]),
    "decks not an object": _set(["decks"], ["red"]),
    "reshuffles not a list": _set(["reshuffles"], "red"),
    "reshuffle unknown card": _set(["reshuffles"], [["pink"]]),
    "actions not a list": _set(["actions"], {"player": "ann"}),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_documents_raise_record_error(name):
    doc = INVALID[name](_base())
    with pytest.raises(RecordError):
        replay(doc)


def test_europe_long_deck_must_be_a_permutation():
    doc = load("europe_tunnels_stations.json")
    doc["decks"]["long_tickets"] = doc["decks"]["long_tickets"][:-1]
    with pytest.raises(RecordError):
        replay(doc)
    doc = load("europe_tunnels_stations.json")
    doc["decks"]["tickets"].append(doc["decks"]["long_tickets"][0])   # a long ticket is not regular
    with pytest.raises(RecordError):
        replay(doc)


# ----- anything wrong inside one action is an illegal action -------------------------------------
BOB = "bob"
BAD_ACTIONS = {
    "unknown player": {"player": "zed", "type": "draw_card", "from": "deck"},
    "no player": {"type": "draw_card", "from": "deck"},
    "player not a string": {"player": ["bob"], "type": "draw_card", "from": "deck"},
    "unknown type": {"player": BOB, "type": "fly"},
    "no type": {"player": BOB},
    "not an object": "draw_card",
    "null": None,
    "list": [BOB, "pass"],
    "draw without from": {"player": BOB, "type": "draw_card"},
    "draw from pile": {"player": BOB, "type": "draw_card", "from": "pile"},
    "faceup without card": {"player": BOB, "type": "draw_card", "from": "faceup"},
    "faceup unknown card": {"player": BOB, "type": "draw_card", "from": "faceup", "card": "pink"},
    "faceup card not there": {"player": BOB, "type": "draw_card", "from": "faceup", "card": "red"},
    "claim unknown city": {"player": BOB, "type": "claim_route", "from": "Atlantis", "to": "Dallas",
                           "color": "gray", "cards": {"green": 1}},
    "claim no from": {"player": BOB, "type": "claim_route", "to": "Dallas", "color": "gray",
                      "cards": {"green": 1}},
    "claim no to": {"player": BOB, "type": "claim_route", "from": "Houston", "color": "gray",
                    "cards": {"green": 1}},
    "claim no color": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                       "cards": {"green": 1}},
    "claim unknown color": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                            "color": "pink", "cards": {"green": 1}},
    "claim no cards": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                       "color": "gray"},
    "claim cards list": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                         "color": "gray", "cards": ["green"]},
    "claim unknown card": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                           "color": "gray", "cards": {"pink": 1}},
    "claim negative count": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                             "color": "gray", "cards": {"green": 2, "red": -1}},
    "claim fractional count": {"player": BOB, "type": "claim_route", "from": "Houston",
                               "to": "Dallas", "color": "gray", "cards": {"green": 0.5}},
    "claim boolean count": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                            "color": "gray", "cards": {"green": True}},
    "claim string count": {"player": BOB, "type": "claim_route", "from": "Houston", "to": "Dallas",
                           "color": "gray", "cards": {"green": "1"}},
    "claim no such route": {"player": BOB, "type": "claim_route", "from": "Boston", "to": "Dallas",
                            "color": "gray", "cards": {"green": 1}},
    "claim wrong colour route": {"player": BOB, "type": "claim_route", "from": "Houston",
                                 "to": "Dallas", "color": "green", "cards": {"green": 1}},
    "claim too few cards": {"player": BOB, "type": "claim_route", "from": "Chicago",
                            "to": "Saint Louis", "color": "green", "cards": {"green": 1}},
    "claim cards not held": {"player": BOB, "type": "claim_route", "from": "Houston",
                             "to": "Dallas", "color": "gray", "cards": {"red": 1}},
    "keep without offer": {"player": BOB, "type": "keep_tickets", "keep": [["Dallas", "New York"]]},
    "keep missing": {"player": BOB, "type": "keep_tickets"},
    "station on usa": {"player": BOB, "type": "build_station", "city": "Dallas", "cards": {"green": 1}},
    "station no city": {"player": BOB, "type": "build_station", "cards": {"green": 1}},
    "station unknown city": {"player": BOB, "type": "build_station", "city": "Atlantis",
                             "cards": {"green": 1}},
    "tunnel pay without tunnel": {"player": BOB, "type": "tunnel_pay", "cards": {"green": 1}},
    "tunnel pay without cards": {"player": BOB, "type": "tunnel_pay"},
    "tunnel decline without tunnel": {"player": BOB, "type": "tunnel_decline"},
    "pass with moves left": {"player": BOB, "type": "pass"},
    "wrong seat": {"player": "ann", "type": "draw_card", "from": "deck"},
}


@pytest.mark.parametrize("name", sorted(BAD_ACTIONS))
def test_bad_action_is_reported_at_its_index(name):
    doc = load("usa_illegal.json")
    actions = doc["actions"][:4] + [BAD_ACTIONS[name], doc["actions"][5]]
    out, _ = assert_error_at(with_actions(doc, actions), 4)
    assert out["status"] == "in_progress" and out["turn"] == 1


@pytest.mark.parametrize("card", [["red"], {"red": 1}])
def test_unhashable_faceup_card_is_an_illegal_action(card):
    doc = load("usa_illegal.json")
    actions = doc["actions"][:4] + [{"player": BOB, "type": "draw_card", "from": "faceup",
                                     "card": card}]
    assert_error_at(with_actions(doc, actions), 4)


def test_turn_actions_during_setup_are_illegal():
    doc = load("usa_illegal.json")
    actions = doc["actions"][:1] + [{"player": "ann", "type": "draw_card", "from": "deck"}]
    assert_error_at(with_actions(doc, actions), 1, "setup_pending")
    actions = doc["actions"][:1] + [doc["actions"][0]]
    assert_error_at(with_actions(doc, actions), 1, "already_chosen")


def test_setup_choices_in_any_order():
    doc = load("usa_illegal.json")
    actions = [doc["actions"][1], doc["actions"][0]] + doc["actions"][2:]
    out, _, error = run(with_actions(doc, actions))
    assert error[0] == 4
    assert out == run(doc)[0]


# ----- every prefix of every fixture replays cleanly ---------------------------------------------
FIXTURES = sorted(p.name for p in RECORDS.glob("*.json"))


@pytest.mark.parametrize("name", FIXTURES)
def test_every_prefix_replays_and_conserves_cards(name):
    doc = load(name)
    full, _, full_error = run(doc)
    stop = full_error[0] if full_error else len(doc["actions"])
    for i in range(stop + 1):
        out, game, error = run(with_actions(doc, doc["actions"][:i]))
        assert error is None
        assert card_census(game) == FULL_DECK
        if not game.over:
            assert out["status"] == "in_progress" and out["winners"] == []


# ----- the face-up row: three-locomotive rule and locomotive draws (§3.1, §3.2, §11.2) ------------
def _faceup_doc(actions):
    """USA, ann and bob dealt 4 purple each. Face-up rows in deck order: L L L red red, then
    L L L blue blue, then L L L green green, then L L L white white; then yellow; then
    L L black black black; then orange; the rest by colour."""
    L = "locomotive"
    top = (["purple"] * 8 + [L, L, L, "red", "red"] + [L, L, L, "blue", "blue"]
           + [L, L, L, "green", "green"] + [L, L, L, "white", "white"] + ["yellow"]
           + [L, L, "black", "black", "black"] + ["orange"])
    rest = []
    for color in ("purple", "blue", "orange", "white", "green", "yellow", "black", "red", L):
        rest += [color] * ((14 if color == L else 12) - top.count(color))
    usa_tickets = load("usa_illegal.json")["decks"]["tickets"]
    keep = [
        {"player": "ann", "type": "keep_tickets", "keep": usa_tickets[0:2]},
        {"player": "bob", "type": "keep_tickets", "keep": usa_tickets[3:5]},
    ]
    return {"format": "ttr-record/1", "map": "usa", "players": ["ann", "bob"], "seed": 1,
            "decks": {"train": top + rest, "tickets": usa_tickets}, "actions": keep + actions}


def _counts(cards):
    names = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive")
    out = {}
    for c in cards:
        out[names[c]] = out.get(names[c], 0) + 1
    return out


def test_three_locomotive_refills_at_most_three_in_a_row():
    # setup: rows 1, 2, 3 have 3 locomotives and are flushed; the 4th (L L L white white) is
    # left as it is: three refills in a row is the limit
    out, game, error = run(_faceup_doc([]))
    assert error is None
    assert _counts(game.faceup) == {"locomotive": 3, "white": 2}
    assert _counts(game.discard) == {"locomotive": 9, "red": 2, "blue": 2, "green": 2}
    # ann takes a white: the yellow replaces it, the row changed, a new count starts: 3
    # locomotives -> flushed; the next row (L L black black black) has 2: it stays
    doc = _faceup_doc([{"player": "ann", "type": "draw_card", "from": "faceup", "card": "white"}])
    out, game, error = run(doc)
    assert error is None
    assert players_by_name(out)["ann"]["hand"] == {"purple": 4, "white": 1}
    assert _counts(game.faceup) == {"locomotive": 2, "black": 3}
    assert _counts(game.discard) == {"locomotive": 12, "red": 2, "blue": 2, "green": 2,
                                     "white": 1, "yellow": 1}
    assert card_census(game) == FULL_DECK


def test_faceup_locomotive_rules():
    white = {"player": "ann", "type": "draw_card", "from": "faceup", "card": "white"}
    loco = {"player": "ann", "type": "draw_card", "from": "faceup", "card": "locomotive"}
    # never as the second card
    assert_error_at(_faceup_doc([white, loco]), 3, "second_locomotive")
    # as the first card it is the whole turn: bob moves next
    doc = _faceup_doc([loco, {"player": "bob", "type": "draw_card", "from": "deck"},
                       {"player": "bob", "type": "draw_card", "from": "deck"}])
    out, game, error = run(doc)
    assert error is None and out["turn"] == 2
    assert players_by_name(out)["ann"]["hand"] == {"purple": 4, "locomotive": 1}
    # any other face-up card first: a second card follows
    doc = _faceup_doc([white, {"player": "ann", "type": "draw_card", "from": "faceup",
                               "card": "black"},
                       {"player": "bob", "type": "draw_card", "from": "deck"}])
    out, _, error = run(doc)
    assert error is None and out["turn"] == 1
    assert players_by_name(out)["ann"]["hand"] == {"purple": 4, "white": 1, "black": 1}
