"""The six maps of issue 32 draw what makes each special (render/marks.py, render/extras.py):
a pixel test per mark, Japan's insets and Italy's countries clear of the city names, the bonus
cards' box, India's Grand Tour loops, and alt text that says what the picture shows."""
import io
from types import SimpleNamespace

import pytest
from PIL import Image

from testkit.sample_games import drawn_state, random_game
from tests.render.test_film import played
from ttr_bot.discord.text.card_text import board_alt, closeup_alt, final_alt
from ttr_bot.engine.mechanics.grand_tour import disjoint_paths
from ttr_bot.maps import load_board
from ttr_bot.render import closeup_contents, render_board, render_closeup, render_final
from ttr_bot.render import draw as D
from ttr_bot.render import extras as EX
from ttr_bot.render import film as F
from ttr_bot.render import marks as M
from ttr_bot.render import palette as P
from ttr_bot.render import static as S
from ttr_bot.render import text as T


def _colours(img):
    return {rgb for _, rgb in img.getcolors(1 << 20)}


@pytest.mark.parametrize("map_id, colour", [
    ("legendary_asia", M.MOUNTAIN_INK), ("japan", M.BULLET_INK), ("italy", M.WAVE_INK),
    ("italy", M.region_rgb(1)), ("pennsylvania", M.COMPANY_RGB[15]),
    ("pennsylvania", M.COMPANY_RGB[2])])
def test_each_special_mark_is_drawn_on_its_map_and_on_no_old_map(map_id, colour):
    img, _ = D.map_picture(drawn_state(map_id), None)
    assert colour in _colours(img)
    usa, _ = D.map_picture(drawn_state("usa"), None)
    assert colour not in _colours(usa)



MARKED = {M.MOUNTAIN_INK: lambda r: r.mountain, M.BULLET_INK: lambda r: r.bullet,
          M.WAVE_INK: lambda r: r.waves, M.COMPANY_RGB[15]: lambda r: 15 in r.shares,
          M.COMPANY_RGB[2]: lambda r: 2 in r.shares, M.BADGE_FILL: lambda r: r.draw_bonus}


@pytest.mark.parametrize("map_id, colour", [
    ("legendary_asia", M.MOUNTAIN_INK), ("japan", M.BULLET_INK), ("italy", M.WAVE_INK),
    ("pennsylvania", M.COMPANY_RGB[15]), ("pennsylvania", M.COMPANY_RGB[2]),
    ("northern_lights", M.BADGE_FILL)])
def test_the_close_up_the_private_board_and_the_final_picture_draw_the_marks_too(map_id, colour):
    """Beyond the map: a close-up of a marked route, a player's own board and the final
    picture (palette PNGs: solid colours come out exact)."""
    mid = random_game(map_id, 3, seed=4, until=0.5)
    names = ["Ann", "Bo", "Cy"]
    route = next(r for r in mid.board.routes if MARKED[colour](r))
    pages = {"close-up": render_closeup(mid, names, [route.index]),
             "private board": render_board(mid, names, viewer=0),
             "final": render_final(random_game(map_id, 3, seed=4), names)}
    for page, data in pages.items():
        assert colour in _colours(Image.open(io.BytesIO(data)).convert("RGB")), page


def test_a_mountain_x_is_drawn_on_a_mountain_route_s_middle_slot():
    board = load_board("legendary_asia")
    route = next(r for r in board.routes if r.mountain)
    img, _ = D.map_picture(drawn_state("legendary_asia", 0), None)
    lay = D.page_layout(board, "map")
    x, y, _ = route.slots[M.marked_slots(route, route.mountain)[0]]
    px, py = lay.pt(x, y)
    near = img.crop((round(px) - 6, round(py) - 6, round(px) + 7, round(py) + 7))
    assert M.MOUNTAIN_INK in _colours(near)


def test_a_draw_bonus_badge_stands_beside_each_marked_route():
    board = load_board("northern_lights")
    img, _ = D.map_picture(drawn_state("northern_lights", 0), None)
    lay = D.page_layout(board, "map")
    marked = [r for r in board.routes if r.draw_bonus]
    assert len(marked) == 18
    for route in marked:
        px, py = lay.pt(*M.badge_spot(route))
        ring = img.crop((round(px) - 9, round(py) - 9, round(px) + 10, round(py) + 10))
        cols = _colours(ring)
        assert M.BADGE_FILL in cols and any(sum(c) < 150 for c in cols), route.index


def test_japan_draws_tokyo_and_kokura_twice_and_routes_reach_the_inset():
    board = load_board("japan")
    names = [name for _, _, name, _, _ in S.labels(board, D.MAP_SCALE)]
    assert names.count("Tokyo") == 2 and names.count("Kokura") == 2
    tokyo = next(n for n in board.nodes if n.name == "Tokyo")
    ginza = next(r for r in board.routes if {board.nodes[r.a].name, board.nodes[r.b].name}
                 == {"Ginza", "Tokyo"})
    line = S._route_line(board, ginza)
    assert tokyo.inset in (line[0], line[-1])        # not a line across the map to Tokyo


@pytest.mark.parametrize("map_id", ["italy", "pennsylvania", "switzerland"])
def test_country_names_stay_inside_the_map_and_off_the_city_names(map_id):
    board = load_board(map_id)
    s = D.MAP_SCALE
    cities = [(x, y, x + T.width(nm, sz, True), y + 0.78 * sz)
              for x, y, nm, _, sz in S.labels(board, s)]
    for x, y, text, size in S.country_labels(board, s):
        w, h = T.width(text, size, True), size * 0.8
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        assert box[0] >= 0 and box[2] <= board.width * s, text
        assert not any(box[0] < c[2] and c[0] < box[2] and box[1] < c[3] and c[1] < box[3]
                       for c in cities), text


def test_northern_lights_shows_its_four_bonus_cards_on_the_map_and_in_words():
    g = random_game("northern_lights", 3, seed=3, until=0.2)
    cards = EX.bonus_cards(g)
    assert len(cards) == 4
    plain, _ = D.map_picture(drawn_state("northern_lights"), None)
    img, _ = D.map_picture(g, ["A", "B", "C"])
    assert img.tobytes() != plain.tobytes()
    alt = board_alt(g, ["A", "B", "C"], "en")
    assert all(EX.t(f"render.bonus_card.{c}", "en") in alt for c, _ in cards)
    assert "+1 or +2" in alt


def test_alt_text_names_the_map_s_marks():
    g = random_game("legendary_asia", 2, seed=2, until=0.2)
    assert "X marks" in board_alt(g, ["A", "B"], "en")
    assert "X" in board_alt(g, ["A", "B"], "ja")


def test_a_grand_tour_loop_is_two_paths_sharing_no_route_and_nothing_more():
    board = load_board("india")
    tk = board.tickets[0]
    g = SimpleNamespace(board=board, tickets=[[tk.id]], network_routes=lambda s: range(len(board.routes)))
    loop = EX.grand_tour_routes(g, 0, {"tickets": [{"completed": True}]})
    a, b = board.place_nodes[tk.origin], board.place_nodes[tk.dests[0]]
    assert disjoint_paths(board, loop, a, b) == 2
    assert all(disjoint_paths(board, [r for r in loop if r != x], a, b) < 2 for x in loop)
    assert EX.grand_tour_routes(g, 0, {"tickets": [{"completed": False}]}) == []


def test_the_final_picture_draws_the_grand_tour_loop_and_its_alt_text_says_whose():
    g = random_game("india", 2, seed=13)          # the second player makes one Grand Tour
    players, _ = g.scores()
    assert [pl["grand_tours"] for pl in players] == [0, 1]
    assert EX.grand_tour_routes(g, 0, players[0]) == []
    loop = EX.grand_tour_routes(g, 1, players[1])
    assert loop
    img, _ = D.final_picture(g, ["A", "B"])
    lay = D.page_layout(g.board, "final")
    ends = [g.board.nodes[g.board.routes[r].a] for r in loop]
    assert any(EX.LOOP_RGB in _colours(img.crop((round(lay.pt(n.x, n.y)[0]) - 20,
                                                  round(lay.pt(n.x, n.y)[1]) - 20,
                                                  round(lay.pt(n.x, n.y)[0]) + 20,
                                                  round(lay.pt(n.x, n.y)[1]) + 20)))
               for n in ends)
    assert "Grand Tours in teal: B." in final_alt(g, ["A", "B"], "en")


def test_the_close_up_s_alt_text_says_a_route_s_own_marks():
    g = drawn_state("legendary_asia", 0)
    board = g.board
    route = next(r for r in board.routes if r.mountain == 2)
    alt = closeup_alt(closeup_contents(g, [route.index]), ["A", "B", "C"], "en")
    assert "X marks: 2" in alt
    g = drawn_state("pennsylvania", 0)
    route = next(r for r in g.board.routes if len(r.shares) >= 2)
    alt = closeup_alt(closeup_contents(g, [route.index]), ["A", "B", "C"], "en")
    assert " ".join(map(str, route.shares)) in alt


def test_the_film_of_a_new_map_shows_its_marks():
    game, names, actions, _ = played("legendary_asia", 2, 3)
    gif = Image.open(io.BytesIO(F.render_film(game, names, actions)))
    first = gif.convert("RGB")
    assert any(sum(abs(a - b) for a, b in zip(rgb, M.MOUNTAIN_INK)) < 40
               for _, rgb in first.getcolors(1 << 20))


@pytest.mark.parametrize("map_id, words", [
    ("pennsylvania", "shares"), ("japan", "bullet track"), ("italy", "ferry cards")])
def test_each_player_s_map_state_is_in_the_box_and_the_alt_text(map_id, words):
    g = random_game(map_id, 3, seed=4, until=0.5)
    names = ["Ann", "Bo", "Cy"]
    said = EX.lines(g, names, "en")
    assert all(any(line.startswith(f"{T.isolate(n)}: ") and words in line for line in said)
               for n in names)   # a name isolated: "مریم: shares 7×2" reads in English order
    plain, _ = D.map_picture(SimpleNamespace(**{**vars(drawn_state(map_id, 0)), "owner": g.owner,
                                                "last_move": g.last_move}), names)
    img, _ = D.map_picture(g, names)
    assert img.tobytes() != plain.tobytes()
    assert words in board_alt(g, names, "en")


def test_pennsylvania_shares_are_read_from_the_engine_and_the_dummy_s_never():
    g = random_game("pennsylvania", 2, seed=4, until=0.6)
    held = g.extra["shares"]["held"]
    assert EX.shares_held(g) == [{int(c): len(v) for c, v in seat.items() if v} for seat in held]
    assert sum(len(v) for v in g.extra["shares"]["dummy"].values())      # the dummy holds some
    assert len(EX.lines(g, ["Ann", "Bo"], "en")) == 2                  # and is not shown


def test_a_bullet_route_taken_with_a_bullet_train_is_drawn_as_everyone_s():
    g = random_game("japan", 3, seed=4, until=0.5)
    shared = EX.shared_routes(g)
    assert shared
    img, _ = D.map_picture(g, ["Ann", "Bo", "Cy"])
    lay = D.page_layout(g.board, "map")
    for r in shared:
        x, y, _ = g.board.routes[r].slots[0]
        px, py = lay.pt(x, y)
        assert M.BULLET_INK in _colours(img.crop((round(px) - 3, round(py) - 3,
                                                  round(px) + 4, round(py) + 4)))


@pytest.mark.parametrize("map_id, items", [
    ("legendary_asia", {"mountain"}), ("japan", {"bullet"}), ("italy", {"waves"}),
    ("northern_lights", {"draw_bonus"}), ("pennsylvania", {"shares"}), ("usa", set())])
def test_the_key_explains_the_map_s_own_marks(map_id, items):
    from ttr_bot.render.panel import legend_items
    board = load_board(map_id)
    own = {"mountain", "bullet", "waves", "draw_bonus", "shares", "loop"}
    assert own & set(legend_items(board, "private")) == items
    assert ("loop" in legend_items(board, "final")) == (map_id == "india")
    assert "loop" in legend_items(load_board("india"), "final")


def test_the_film_draws_bullet_routes_as_everyone_s():
    game, names, actions, end = played("japan", 2, 3)
    _, states = F.replay_states(game, actions)
    assert set(states[-1].shared) == EX.shared_routes(end) != set()


def test_japan_s_inset_names_overlap_no_other_name():
    board = load_board("japan")
    boxes = [(x, y, x + T.width(nm, sz, True), y + 0.78 * sz, nm)
             for x, y, nm, _, sz in S.labels(board, D.MAP_SCALE)]
    for a in boxes:
        if a[4] not in ("Tokyo", "Kokura"):
            continue
        assert not any(a is not b and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                       for b in boxes), a[4]


def test_a_right_to_left_name_leaves_an_english_state_row_in_english_order():
    from ttr_bot.render import bidi
    g = random_game("italy", 3, seed=4, until=0.5)
    rows = EX.lines(g, ["Ann", "مریم", "Cy"], "en")
    row = next(r for r in rows if "مریم" in r)
    assert bidi.resolve(row)[0] == 0            # left to right: "مریم: ferry cards 0"


def test_each_player_s_map_state_stands_beside_the_standings_on_the_board_pictures():
    import copy
    assert [k for k, _ in EX.seat_columns(load_board("pennsylvania"))] == ["shares"]
    assert [k for k, _ in EX.seat_columns(load_board("japan"))] == ["bullet"]
    assert [k for k, _ in EX.seat_columns(load_board("italy"))] == ["ferry_cards"]
    assert not any(EX.seat_columns(load_board(m)) for m in ("usa", "europe", "india"))
    g = random_game("pennsylvania", 5, seed=4, until=0.6)
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert EX.lines(g, names, "en", per_seat=False) == []        # no box over the map
    other = copy.deepcopy(g)
    held = other.extra["shares"]["held"]
    held[1], held[2] = held[2], held[1]                          # Bo and Cy swap their shares
    lay = D.page_layout(g.board, "board")
    for viewer in (None, 0):
        a, _ = D.board_picture(g, names, viewer=viewer)
        b, _ = D.board_picture(other, names, viewer=viewer)
        mx0, my0, mx1, my1 = lay.ox, lay.oy, lay.ox + lay.map_w, lay.oy + lay.map_h
        assert a.crop((mx0, my0, mx1, my1)).tobytes() == b.crop((mx0, my0, mx1, my1)).tobytes()
        assert a.crop(lay.panel).tobytes() != b.crop(lay.panel).tobytes()
    assert "shares" in board_alt(g, names, "en")                  # and in words


def test_each_player_s_map_state_is_in_a_strip_under_the_public_map_and_off_the_map():
    """The phone picture has no players table: Pennsylvania's shares stand in a strip under
    the map, a row per player with its colour, in words a phone can read (26 px on the
    1,400 px picture), and nothing of them is drawn over the map; a map without per-player
    state has no strip."""
    import copy

    from ttr_bot.render import seat_strip as SS
    g = random_game("pennsylvania", 5, seed=4, until=0.6)
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    rows = SS.rows(g, names, "en")
    assert [s for s, _ in rows] == [0, 1, 2, 3, 4]
    assert all(text.startswith(f"{T.isolate(n)}: shares ") for (_, text), n in zip(rows, names))
    other = copy.deepcopy(g)
    held = other.extra["shares"]["held"]
    held[1], held[2] = held[2], held[1]                          # Bo and Cy swap their shares
    a, _ = D.map_picture(g, names)
    b, _ = D.map_picture(other, names)
    lay = D.page_layout(g.board, "map")
    map_h = lay.oy + lay.map_h + lay.oy
    assert a.height > map_h and a.size == b.size
    assert a.crop((0, 0, a.width, map_h)).tobytes() == b.crop((0, 0, a.width, map_h)).tobytes()
    strip = a.crop((0, map_h, a.width, a.height))
    assert strip.tobytes() != b.crop((0, map_h, a.width, a.height)).tobytes()
    assert {P.player_rgb(s) for s in range(5)} <= _colours(strip)    # each player's swatch
    usa = random_game("usa", 3, seed=4, until=0.6)
    assert SS.rows(usa, names[:3], "en") == []
    assert D.map_picture(usa, names[:3])[0].height == D.page_layout(usa.board, "map").oy * 2 + \
        D.page_layout(usa.board, "map").map_h


def test_each_player_s_score_card_ends_with_its_map_state_on_the_final_picture():
    import copy
    g = random_game("pennsylvania", 5, seed=4, until=None)
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert g.over
    other = copy.deepcopy(g)
    held = other.extra["shares"]["held"]
    held[1], held[2] = held[2], held[1]
    lay = D.page_layout(g.board, "final")
    a, _ = D.final_picture(g, names)
    b, _ = D.final_picture(other, names)
    mx0, my0, mx1, my1 = lay.ox, lay.oy, lay.ox + lay.map_w, lay.oy + lay.map_h
    assert a.crop((mx0, my0, mx1, my1)).tobytes() == b.crop((mx0, my0, mx1, my1)).tobytes()
    assert a.crop(lay.panel).tobytes() != b.crop(lay.panel).tobytes()
    from ttr_bot.render.panel import Panel, final_rows
    panel = Panel(g.board, "final", False)
    assert panel.final_card_h() == panel.k(68) + panel.final_row * (
        len(final_rows(g.rules)) + 1)                            # one more row: the shares
    assert "shares" in final_alt(g, names, "en")
