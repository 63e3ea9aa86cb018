"""The turn card's text and layout (no Discord): the standings in words, alt text within
Discord's 1,024 characters and without hidden information, a folded card of many moves within
V2's 4,000 characters and 40 components, the panel's rows carried over as they are."""
from ttr_bot.discord.controls import components
from ttr_bot.discord.posting.turn_card import COMPONENTS_LIMIT, TEXT_LIMIT, Card, Picture, layout, stripped
from ttr_bot.discord.text.card_text import ALT_LIMIT, board_alt, mark, mark_name, standings_lines
from ttr_bot.discord.text.format import ticket_text
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.i18n import LOCALES
from ttr_bot.maps import load_board
from ttr_bot.service.since import _since

NAMES = ["Ann", "Bea", "Cy", "Dee"]


def game(map_id="europe", n=4):
    return Game(load_board(map_id, "base"), n, Dealer(7))


def walk(items):
    for c in items:
        yield c
        yield from walk(c.get("components", []))


def test_the_standings_say_every_players_public_counts_and_nothing_hidden():
    g = game()
    for loc in LOCALES:
        lines = standings_lines(g, NAMES, loc)
        alt = board_alt(g, NAMES, loc)
        assert len(lines) == len(NAMES)             # one short line a player
        for seat, name in enumerate(NAMES):
            line = next(x for x in lines if name in x)
            assert mark(seat) in line and mark_name(seat, loc) in alt
            assert str(g.trains[seat]) in line and str(sum(g.hands[seat])) in line
    text = "\n".join(standings_lines(g, NAMES, "en") + [board_alt(g, NAMES, "en")])
    offered = [tid for seat in range(4) for tid in g.offers[seat]]
    assert offered          # the starting offers are dealt: hidden, and not in the text
    for tid in offered:
        assert ticket_text(g.board.tickets[tid]) not in text
        assert g.board.tickets[tid].label() not in text


def test_alt_text_is_plain_within_the_limit_and_names_the_standings():
    g = game()
    moves = [f"**{NAMES[i % 4]}** claimed **Paris – Bruxelles** ({i})" for i in range(200)]
    for loc in LOCALES:
        alt = board_alt(g, NAMES, loc, moves)
        assert len(alt) <= ALT_LIMIT and "**" not in alt
        assert all(name in alt for name in NAMES)        # the standings always fit
    assert "claimed Paris – Bruxelles (0)" in board_alt(g, NAMES, "en", moves)


def test_a_folded_card_of_many_moves_stays_within_components_v2_limits():
    g = game()
    panel = components.turn_view(1, 5, g, "en")
    ids_before = sorted(c.custom_id for c in panel.children)
    card = Card(moves=tuple(f"move {i} " + "x" * 60 for i in range(300)),
                standings=tuple(standings_lines(g, NAMES, "en")), tail=("<@1>, it's your turn.",),
                pictures=(Picture(b"png", "board.png", "alt"),), accent=0x123456)
    data = layout(card, panel).to_components()
    flat = list(walk(data))
    assert len(flat) <= COMPONENTS_LIMIT
    assert sum(len(c["content"]) for c in flat if c["type"] == 10) <= TEXT_LIMIT
    assert sorted(c["custom_id"] for c in flat if "custom_id" in c) == ids_before  # same rows
    assert [c["type"] for c in data][:1] == [17] and all(c["type"] == 1 for c in data[1:])
    bare = stripped(card).to_components()
    assert [c["type"] for c in bare] == [17]                    # the buttons are gone
    assert any(c["type"] == 12 for c in walk(bare))             # the picture is not


def test_since_is_the_others_moves_after_the_seats_last_one():
    log = [(0, ({"type": "draw_card", "seat": 0},)),
           (1, ({"type": "claim_route", "seat": 1, "route": 4},)),
           (0, ({"type": "claim_route", "seat": 0, "route": 9},)),
           (1, ({"type": "claim_route", "seat": 1, "route": 5},)),
           (2, ({"type": "draw_tickets", "seat": 2, "count": 3},))]
    since = _since(log, 0)
    assert since.since_seq == 3 and since.routes == {5}
    assert [e["type"] for e in since.events] == ["claim_route", "draw_tickets"]
    assert _since(log, 3).since_seq is None             # never moved: nothing "since"


def test_a_card_has_two_rows_of_moves_and_my_hand_and_details_beside_its_text():
    """Over a whole 4-player Europe game: at most 2 action rows of at most 5 buttons; "My
    hand" beside the ping and "Details" beside the standings, not in a row; "Destination
    tickets" never in a row with "My hand"."""
    g = game()
    rng = __import__("random").Random(5)
    checked = 0
    while not g.over and checked < 400:
        seat = g.to_move()[0]
        if g.phase == "play" and g.step == "idle":
            card = Card(moves=("x",), standings=tuple(standings_lines(g, NAMES, "en")),
                        tail=("<@1>, it's your turn.",), game_id=7, loc="en")
            data = layout(card, components.turn_view(7, g.turn, g, "en")).to_components()
            rows = [c for c in data if c["type"] == 1]
            assert 1 <= len(rows) <= 2 and all(len(r["components"]) <= 5 for r in rows)
            in_rows = [b["custom_id"] for r in rows for b in r["components"]]
            assert not any(cid.startswith(("ttr:hand:", "ttr:details:")) for cid in in_rows)
            sections = [c for c in walk(data) if c["type"] == 9]
            assert [s["accessory"]["custom_id"] for s in sections] == ["ttr:details:7",
                                                                        "ttr:hand:7"]
            checked += 1
        g.apply(rng.choice(g.legal_actions(seat)))
    assert checked > 50
