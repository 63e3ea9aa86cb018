"""Tickets on the map, checked on the decoded pixels: on a private board both cities of each
kept ticket carry a badge with the ticket's number (filled green once the engine says it is
done, hollow orange while open), the offer being chosen is lettered as the choice menu (never
a kept ticket's number) and joined by a line, the key explains both, nobody else's tickets are drawn, and the final picture draws every player's
tickets made and failed between their two cities."""
import io

import pytest
from PIL import Image

from testkit.sample_games import PLAYERS, _way, greedy_game, random_game
from ttr_bot.engine.actions import DrawTickets
from ttr_bot.render import palette as P
from ttr_bot.render import render_board, render_final
from ttr_bot.render import text as T
from ttr_bot.render import tickets as TK
from ttr_bot.render.draw import page_layout

NAMES = ["Amélie", "Bjørn", "Chidi", "Dörte", "Emeka"]

_GAMES = {}


def game(map_id, until=0.5, seed=7):
    key = (map_id, until, seed)
    if key not in _GAMES:
        _GAMES[key] = greedy_game(map_id, PLAYERS[map_id], seed=seed, until=until)
    return _GAMES[key]


def png(data):
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def names(g):
    return NAMES[:g.n]


def choosing(map_id):
    """A mid-game copy in which the player to move has just drawn tickets: (game, seat)."""
    g = game(map_id).copy()
    seat = g.to_move()[0]
    g.apply(DrawTickets(seat))
    assert g.offers[seat]
    return g, seat


def inside(img, x, y, r):
    """The pixels of the disc of radius r at (x, y), as bytes (a badge's face)."""
    x, y = round(x), round(y)
    crop = img.crop((x - r, y - r, x + r + 1, y + r + 1))
    mask = Image.new("L", crop.size, 0)
    from PIL import ImageDraw
    ImageDraw.Draw(mask).ellipse((0, 0, 2 * r, 2 * r), fill=255)
    return Image.composite(crop, Image.new("RGB", crop.size), mask).tobytes()


def reference_badge(number, state):
    """A badge drawn alone on a plain page, its face as bytes: what the map's must look like."""
    img = Image.new("RGB", (80, 80), P.BOARD_BG)
    TK.badge(img, 40, 40, number, state)
    return inside(img, 40, 40, TK.BADGE_R - 3)


def same(face, want):
    """Whether a badge's face on the map is the reference one (the palette encoding moves an
    edge shade by a few levels at most)."""
    return len(face) == len(want) and sum(abs(a - b) for a, b in zip(face, want)) / len(want) < 2


def spots_of(g, seat, lay):
    rows, marks = TK.private_marks(g, seat)
    return rows, marks, TK.badge_spots(g.board, lay, marks)


def count(img, x, y, r, rgb):
    x, y = round(x), round(y)
    return sum(img.getpixel((x + dx, y + dy)) == rgb for dx in range(-r, r + 1)
               for dy in range(-r, r + 1) if dx * dx + dy * dy <= r * r)


# ----- the private board ------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", ["usa", "europe", "nordic", "switzerland"])
def test_both_cities_of_each_kept_ticket_carry_its_number(map_id):
    g = game(map_id)
    board = g.board
    img = png(render_board(g, names(g), viewer=0))
    lay = page_layout(board, "private")
    rows, marks, spots = spots_of(g, 0, lay)
    assert len(marks) == len(g.tickets[0]) >= 2
    for i, (m, tid) in enumerate(zip(marks, g.tickets[0])):
        ticket = board.tickets[tid]
        assert m.number == i + 1 and rows[i].label == ticket.label()
        want = reference_badge(m.number, m.state)
        nodes = {n for pair in m.ends for n in pair}
        places = {board.nodes[n].name for n in nodes}
        assert ticket.origin in places or any(board.nodes[n].country for n in nodes)
        assert len(nodes) >= 2
        for node in nodes:                    # the same number at both ends: the pair
            x, y = spots[(i, node)]
            assert same(inside(img, x, y, TK.BADGE_R - 3), want), (ticket.label(), node)
        # and it is not just any badge: another number's face differs
        assert not same(reference_badge(m.number + 1, m.state), want)
        assert not same(reference_badge(m.number, TK.OPEN if m.state == TK.DONE else TK.DONE),
                        want)


def test_a_done_ticket_is_filled_green_an_open_one_ringed_orange():
    g = random_game("usa", 4, seed=5, until=0.5)      # random play: most tickets open
    board = g.board
    t = board.tickets[g.tickets[0][0]]
    for r in _way(g, 0, set(board.place_nodes[t.origin]), set(board.place_nodes[t.dests[0]])) or []:
        g.owner[r] = 0
        g.routes_of[0].append(r)
    img = png(render_board(g, names(g), viewer=0))
    lay = page_layout(board, "private")
    _, marks, spots = spots_of(g, 0, lay)
    states = {m.state for m in marks}
    assert marks[0].state == TK.DONE and TK.OPEN in states
    for i, m in enumerate(marks):
        for node in {n for pair in m.ends for n in pair}:
            x, y = spots[(i, node)]
            if m.state == TK.DONE:     # a green face
                assert count(img, x, y, TK.BADGE_R - 2, P.TICKET_DONE) > 200
                assert count(img, x, y, TK.BADGE_R, P.TICKET_OPEN) == 0
            else:                      # an orange ring round a white face
                assert count(img, x, y, TK.BADGE_R, P.TICKET_OPEN) > 100
                assert count(img, x, y, TK.BADGE_R - 6, P.WHITE) > 100


def test_the_done_state_is_the_engines():
    """The badges are done exactly where the engine's final scoring (stations borrowed at
    best) says so; without the player's routes every one is open."""
    from ttr_bot.engine.final_scores import final_scores
    g = game("europe").copy()
    ends = [tk["completed"] for tk in final_scores(g)[0][0]["tickets"]]
    assert True in ends
    _, marks = TK.private_marks(g, 0)
    assert [m.state == TK.DONE for m in marks] == ends
    for r in g.routes_of[0]:
        g.owner[r] = -1
    g.routes_of[0] = []
    g.stations_of[0] = []
    _, marks = TK.private_marks(g, 0)
    assert {m.state for m in marks} == {TK.OPEN}


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_the_offer_is_lettered_as_the_menu_and_joined_by_a_line(map_id):
    g, seat = choosing(map_id)
    board = g.board
    img = png(render_board(g, names(g), viewer=seat))
    lay = page_layout(board, "private")
    rows, marks, spots = spots_of(g, seat, lay)
    offer = g.offers[seat]
    assert [r.label for r in rows[:len(offer)]] == [board.tickets[t].label() for t in offer]
    for i, tid in enumerate(offer):          # the menu's "A. X – Y", "B. ...": same order
        m = marks[i]
        assert m.state == TK.OFFER and m.number == "ABCDE"[i]
        want = reference_badge("ABCDE"[i], TK.OFFER)
        # a letter, not the number a kept ticket of that place carries
        assert not same(reference_badge(i + 1, TK.OFFER), want)
        for a, b in m.ends:
            pa, pb = spots[(i, a)], spots[(i, b)]
            assert same(inside(img, *pa, TK.BADGE_R - 3), want)
            assert same(inside(img, *pb, TK.BADGE_R - 3), want)
            # the line between them: violet along the middle of the way (a later badge, or a
            # city name drawn over the line, may sit on it: most of the points, not all)
            pts = [(pa[0] + (pb[0] - pa[0]) * f / 20, pa[1] + (pb[1] - pa[1]) * f / 20)
                   for f in range(4, 17)]
            hits = sum(count(img, x, y, 1, P.TICKET_OFFER) >= 3 for x, y in pts)
            assert hits >= 9, (board.tickets[tid].label(), hits)
    # the kept tickets are still tagged while choosing
    kept = marks[len(offer):]
    assert [m.number for m in kept] == list(range(1, len(g.tickets[seat]) + 1))


def test_a_city_name_an_offer_line_crosses_still_reads():
    """The offer's lines run straight from city to city, over other cities' names: each name
    they cross is drawn again over them, haloed, so that its letters keep their ink."""
    from ttr_bot.render import static as S
    g, seat = choosing("europe")
    board = g.board
    lay = page_layout(board, "private")
    offered = png(render_board(g, names(g), viewer=seat))
    plain = g.copy()
    plain.offers[seat] = None
    kept = png(render_board(plain, names(g), viewer=seat))

    def ink(img, box):                 # the letters' near-black pixels (violet is not)
        return sum(max(p) < 70 for p in img.crop(box).get_flattened_data())
    crossed = 0
    for x, y, name, _, size in S.labels(board, lay.scale):
        box = (lay.ox + x, lay.oy + y, lay.ox + x + T.width(name, size, True), lay.oy + y + size)
        crossed += P.TICKET_OFFER in offered.crop(box).get_flattened_data()
        assert ink(offered, box) >= 0.97 * ink(kept, box), name
    assert crossed >= 2                           # this offer does run over names


def test_at_the_start_each_player_sees_only_their_own_offer():
    from ttr_bot.engine.dealer import Dealer
    from ttr_bot.engine.game import Game
    from ttr_bot.maps import load_board
    g = Game(load_board("europe"), 3, Dealer(3))
    assert all(g.offers)
    lay = page_layout(g.board, "private")
    boards = {s: png(render_board(g, names(g), viewer=s)) for s in range(3)}
    public = png(render_board(g, names(g)))
    publay = page_layout(g.board, "board")
    for seat in range(3):
        _, marks, spots = spots_of(g, seat, lay)
        mine = {node for (_, node) in spots}
        for (_, node), (x, y) in spots.items():
            assert count(boards[seat], x, y, TK.BADGE_R - 2, P.TICKET_OFFER) > 150
            n = g.board.nodes[node]
            px, py = publay.pt(n.x, n.y)
            assert count(public, px, py, TK.BADGE_R, P.TICKET_OFFER) == 0
            for other in range(3):
                if other == seat:
                    continue
                theirs = {nd for (_, nd) in spots_of(g, other, lay)[2]}
                if node not in theirs:       # a city only this seat's offer has: no badge
                    face = inside(boards[other], x, y, TK.BADGE_R - 3)   # (a line may cross)
                    assert not any(same(face, reference_badge(k, TK.OFFER)) for k in "ABCDE")
                    assert count(boards[other], x, y, TK.BADGE_R - 2, P.TICKET_OFFER) < 150
        assert mine


def test_the_public_board_draws_no_tickets():
    g, seat = choosing("europe")
    img = png(render_board(g, names(g)))
    colours = {rgb for _, rgb in img.getcolors(1 << 16)}
    assert P.TICKET_OFFER not in colours and P.TICKET_OPEN not in colours


# ----- the final picture ------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_the_final_picture_draws_every_players_tickets_made_and_failed(map_id):
    g = game(map_id, until=None)
    board = g.board
    players, _ = g.scores()
    img = png(render_final(g, names(g)))
    lay = page_layout(board, "final")
    marks = TK.final_marks(g, players)
    assert len(marks) == sum(len(t) for t in g.tickets)
    assert {m.state for m in marks} == {TK.MADE, TK.FAILED}
    spots = TK.badge_spots(board, lay, marks, TK.END_R + 1)
    for i, m in enumerate(marks):
        rgb = P.player_rgb(m.seat)
        for node in {n for pair in m.ends for n in pair}:
            x, y = spots[(i, node)]
            if m.state == TK.MADE:           # a disc of the player's colour
                assert count(img, x, y, TK.END_R - 2, rgb) > 100, (m, node)
            else:                            # a ring of it round a white centre
                assert count(img, x, y, 2, P.WHITE) >= 9, (m, node)
                assert count(img, x, y, TK.END_R, rgb) > 60, (m, node)
    # nothing of the kind before the end: the public board has no ticket ends
    mid = game(map_id)
    pub = png(render_board(mid, names(mid)))
    for m in TK.final_marks(mid, mid.scores()[0]):
        for a, _ in m.ends:
            x, y = page_layout(board, "board").pt(board.nodes[a].x, board.nodes[a].y)
            assert count(pub, x, y, 2, P.player_rgb(m.seat)) < 9


def test_a_failed_ticket_is_drawn_thin_dashed_and_faded_under_the_made_ones():
    """With many tickets failed the final map must still show what was made: a failed line is
    a thin faded dash without the black casing, a made one a cased line in the full colour."""
    board = game("usa", until=None).board
    lay = page_layout(board, "final")
    node = {n.name: n.index for n in board.nodes}
    pair_made, pair_failed = (node["Seattle"], node["Miami"]), (node["Vancouver"], node["Boston"])

    def drawn(state, pair):
        img = Image.new("RGB", (2000, 1600), P.BOARD_BG)
        TK.draw_final_lines(img, board, lay, [TK.Mark(0, (pair,), state, 1)])
        inked = [p for p in img.get_flattened_data() if p != P.BOARD_BG]
        pa, pb = (lay.pt(board.nodes[n].x, board.nodes[n].y) for n in pair)
        length = ((pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2) ** 0.5
        return len(inked) / length, set(inked)
    made_w, made_ink = drawn(TK.MADE, pair_made)
    failed_w, failed_ink = drawn(TK.FAILED, pair_failed)
    blue = P.player_rgb(1)
    assert made_w >= 7 and {blue, P.CAR_LINE} <= made_ink
    assert failed_w <= 2.5                       # thin and dashed: a third of the made one's ink
    assert failed_ink == {P.failed_rgb(blue)}     # faded, uncased
    assert P.failed_rgb(blue) != blue


def test_a_final_picture_with_many_failed_tickets_keeps_their_faded_colour():
    g = random_game("usa", 4, seed=3)
    players, _ = g.scores()
    failed = {s for s, pl in enumerate(players) if any(not t["completed"] for t in pl["tickets"])}
    assert len(failed) == 4
    img = png(render_final(g, names(g)))
    colours = dict((rgb, n) for n, rgb in img.getcolors(1 << 16))
    for seat in failed:                          # exact in the PNG's palette, drawn at length
        assert colours.get(P.failed_rgb(P.player_rgb(seat)), 0) > 300, seat
