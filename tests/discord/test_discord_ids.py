"""Custom ids: they parse back to what was put in, stay within 100 characters even with the
largest numbers, and the components built from them match their DynamicItem templates."""
import re

import discord
import pytest

from tests.discord.adapter_kit import new_game
from ttr_bot.discord.controls import components as C
from ttr_bot.discord.controls import ids
from ttr_bot.service import HostedGame, SeatInfo

BIG_GAME = 2 ** 63 - 1         # the largest SQLite integer id
BIG_SEQ = 10 ** 10 - 1
CARDS = (12, 0, 3, 0, 0, 0, 0, 9, 14)

CASES = [
    ("lobby", (BIG_GAME, "start"), {"game": BIG_GAME, "op": "start"}),
    ("addbot", (7,), {"game": 7}),
    ("draw", (BIG_GAME, BIG_SEQ, "locomotive"), {"game": BIG_GAME, "seq": BIG_SEQ, "src": "locomotive"}),
    ("draw", (1, 0, "deck"), {"game": 1, "seq": 0, "src": "deck"}),
    ("claim", (BIG_GAME, BIG_SEQ), {"game": BIG_GAME, "seq": BIG_SEQ}),
    ("route", (3, 4), {"game": 3, "seq": 4}),
    ("rcity", (BIG_GAME, BIG_SEQ, 4), {"game": BIG_GAME, "seq": BIG_SEQ, "part": 4}),
    ("station", (BIG_GAME, BIG_SEQ), {"game": BIG_GAME, "seq": BIG_SEQ}),
    ("stcity", (5, 6, 0), {"game": 5, "seq": 6, "part": 0}),
    ("pay", (BIG_GAME, BIG_SEQ, "r9999", ids.encode_cards(CARDS)),
     {"game": BIG_GAME, "seq": BIG_SEQ, "what": "r", "target": 9999, "cards": CARDS}),
    ("pay", (2, 5, "s12", ids.encode_cards((1,) + (0,) * 8)),
     {"game": 2, "seq": 5, "what": "s", "target": 12, "cards": (1,) + (0,) * 8}),
    ("tickets", (BIG_GAME, BIG_SEQ), {"game": BIG_GAME, "seq": BIG_SEQ, "op": None}),
    ("tickets", (BIG_GAME, BIG_SEQ, "go"), {"game": BIG_GAME, "seq": BIG_SEQ, "op": "go"}),
    ("cancel", (BIG_GAME,), {"game": BIG_GAME}),
    ("details", (BIG_GAME,), {"game": BIG_GAME}),
    ("keep", (BIG_GAME, BIG_SEQ), {"game": BIG_GAME, "seq": BIG_SEQ}),
    ("tunnel", (BIG_GAME, BIG_SEQ, "pay", ids.encode_cards(CARDS)),
     {"game": BIG_GAME, "seq": BIG_SEQ, "op": "pay", "cards": CARDS}),
    ("tunnel", (1, 2, "decline"), {"game": 1, "seq": 2, "op": "decline", "cards": None}),
    ("hand", (BIG_GAME,), {"game": BIG_GAME}),
    ("quit", (BIG_GAME, BIG_SEQ, "bot"), {"game": BIG_GAME, "seq": BIG_SEQ, "mode": "bot"}),
    ("quit", (4, 0, "end"), {"game": 4, "seq": 0, "mode": "end"}),
    ("help", (0, "commands"), {"game": 0, "topic": "commands"}),
    ("help", (0, "ratings"), {"game": 0, "topic": "ratings"}),
]


@pytest.mark.parametrize("kind,parts,expected", CASES)
def test_round_trip_and_length(kind, parts, expected):
    cid = ids.make(kind, *parts)
    assert len(cid) <= 100
    assert ids.parse(cid) == (kind, expected)


@pytest.mark.parametrize("bad", ["ttr:draw:1:2", "ttr:draw:x:2:deck", "ttr:lobby:1:explode",
                                 "other:draw:1:2:deck", "ttr:pay:1:2:r3:1.2.3", "ttr:hand:1:2",
                                 "ttr:draw:1:2:DECK", "ttr:quit:1:2", "ttr:quit:1:2:stay", ""])
def test_foreign_or_broken_ids_are_not_ours(bad):
    assert ids.parse(bad) is None


def test_make_refuses_what_would_not_parse():
    with pytest.raises(ValueError):
        ids.make("lobby", 1, "explode")
    with pytest.raises(ValueError):
        ids.make("draw", 1, 2, "x" * 200)


def _items(view):
    return list(view.children)


def big_lobby(board):
    """A full lobby of the largest game id: the host and four others (a seat menu of four)."""
    seats = tuple(SeatInfo(number=i, user_id=None if i > 2 else 10 + i, name=f"Player {i}" * 4,
                           level="hard" if i > 2 else None) for i in range(5))
    return HostedGame(id=BIG_GAME, seq=0, status="lobby", guild_id=1, channel_id=2, host_id=10,
                      map_id=board.map_id, variant=board.variant, board=board, seats=seats)


def test_every_component_the_bot_builds_matches_its_template():
    game = new_game("europe", 3, seed=2)
    board = game.board
    views = [
        C.lobby_view(big_lobby(board), "en"),
        C.turn_view(BIG_GAME, BIG_SEQ, game, "en"),
        C.turn_view(BIG_GAME, BIG_SEQ, game, "en", step="second_card"),
        C.keep_view(BIG_GAME, BIG_SEQ, board, game.offers[0], 2, "en"),
        C.tunnel_view(BIG_GAME, BIG_SEQ, [CARDS, (0,) * 8 + (3,)], "en"),
        C.route_view(BIG_GAME, BIG_SEQ, [(f"Route {i} " * 12, str(i)) for i in range(40)], "en"),
        C.city_menus_view("rcity", BIG_GAME, BIG_SEQ, [("Cities " * 30, [("x" * 100, "9999")] * 25)] * 6),
        C.city_menus_view("stcity", BIG_GAME, BIG_SEQ, [("Where", [("Wien", "3")])] * 2),
        C.pay_view(BIG_GAME, BIG_SEQ, "r", 100, [CARDS] * 3, "en"),
        C.hand_view(BIG_GAME, "en"),
        C.quit_view(BIG_GAME, BIG_SEQ, "bot", "en"),
        C.quit_view(BIG_GAME, BIG_SEQ, "end", "en"),
        C.rematch_view(BIG_GAME, "en"),
        C.rematch_view(BIG_GAME, "en", ratings=True),
        C.help_view("en"),
        C.leaderboard_view(BIG_GAME, 999_999, 999_999, "switzerland", "en"),
        C.leaderboard_view(BIG_GAME, 1, 3, None, "en"),
        C.history_view(BIG_GAME, 2, 999_999, BIG_GAME, [BIG_GAME - i for i in range(10)], "en"),
        C.vote_view(BIG_GAME, 10 ** 12 - 1, "en"),
        C.cup_view(BIG_GAME, "en"),
        C.board_view([(BIG_GAME - i, "Join " * 30) for i in range(7)]),
        C.confirm_tickets_view(BIG_GAME, BIG_SEQ, "en"),
        C.confirm_pay_view(BIG_GAME, BIG_SEQ, "r", 9999, CARDS, "en", ferry=2),
        C.pay_view(BIG_GAME, BIG_SEQ, "r", 9999, [CARDS] * 2, "en", ferry=[0, 2]),
        C.share_view(BIG_GAME, BIG_SEQ, 9999, CARDS, [(15, 15, "You " * 30), (2, 0, "x")], "en"),
        C.share_view(BIG_GAME, BIG_SEQ, 9999, CARDS, [(a, b, "You " * 40) for a in
                                                      (2, 3, 4, 5, 15) for b in (2, 3, 4, 5, 15)], "en"),
        C.turn_view(BIG_GAME, BIG_SEQ, new_game("italy", 5, seed=2), "en"),    # + ferry card
    ]
    details = discord.ui.View(timeout=None)        # the turn card's, beside its standings
    details.add_item(C.DetailsButton(BIG_GAME, "en"))
    views.append(details)
    seen = set()
    for view in views:
        for item in _items(view):
            assert isinstance(item, C.DYNAMIC_ITEMS)
            assert re.fullmatch(item.template, item.custom_id)
            assert len(item.custom_id) <= 100
            seen.add(type(item))
            payload = item.to_component_dict()
            assert len(payload.get("label", "")) <= 80
            assert len(payload.get("options", [])) <= 25
    assert seen == set(C.DYNAMIC_ITEMS)


def test_pages_have_previous_and_next_only_when_there_are_pages():
    assert C.leaderboard_view(1, 1, 1, None, "en") is None
    assert C.history_view(1, 1, 1, 0, [], "en") is None
    first = [(i.custom_id, i.item.disabled) for i in _items(C.leaderboard_view(5, 1, 3, None, "en"))]
    assert first == [("ttr:ranks:5:1:-", True), ("ttr:ranks:5:2:-", False)]
    last = [(i.custom_id, i.item.disabled) for i in _items(C.history_view(5, 3, 3, 7, [9], "en"))]
    assert last == [("ttr:record:9", False), ("ttr:hist:5:2:7", False), ("ttr:hist:5:3:7", True)]
    assert ids.parse("ttr:ranks:5:2:europe") == ("ranks", {"guild": 5, "page": 2, "map": "europe"})
    assert ids.parse("ttr:hist:5:2:0") == ("hist", {"guild": 5, "page": 2, "user": 0})


def test_keep_menu_demands_the_rules_minimum():
    game = new_game("usa", 2, seed=4)
    view = C.keep_view(1, 0, game.board, game.offers[0], 2, "en")
    menu = _items(view)[0].item
    assert menu.min_values == 2 and menu.max_values == len(game.offers[0])
    assert {o.value for o in menu.options} == {str(x) for x in game.offers[0]}


def test_second_card_panel_has_no_face_up_locomotive():
    game = new_game("usa", 2, seed=1)
    game.faceup = [8, 8, 0, 1, 2]
    first = {i.custom_id for i in _items(C.turn_view(1, 1, game, "en"))}
    second = {i.custom_id for i in _items(C.turn_view(1, 1, game, "en", step="second_card"))}
    assert "ttr:draw:1:1:locomotive" in first and "ttr:draw:1:1:locomotive" not in second
    assert "ttr:claim:1:1" in first and "ttr:claim:1:1" not in second
