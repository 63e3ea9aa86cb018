"""The colour-blind palette: every two player colours stay apart to normal eyes and under
simulated deuteranopia, protanopia and tritanopia (Machado et al. 2009, severity 1.0), by
CIEDE2000; the standard palette's red/green players do not. `python -m ttr_bot.render.vision`
prints the figures."""
import io

import pytest
from PIL import Image

from testkit.sample_games import PLAYERS, greedy_game
from ttr_bot.render import palette as P
from ttr_bot.render import render_board, render_map
from ttr_bot.render import vision as V
from ttr_bot.render.draw import page_layout
from ttr_bot.render.geometry import along

# The least distances the palettes keep (measured: colour-blind 25.8, standard 4.7)
COLOURBLIND_MIN = 25.0


def players(scheme):
    return [P.player_rgb(s, scheme) for s in range(len(P.SCHEMES[scheme].players))]


def test_ciede2000_matches_the_published_test_pairs():
    """Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17, 25 and 34."""
    pairs = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373)]
    for a, b, want in pairs:
        assert V.ciede2000(a, b) == pytest.approx(want, abs=1e-4)
        assert V.ciede2000(b, a) == pytest.approx(want, abs=1e-4)


def test_the_simulations_are_machados():
    """Grey stays grey for every kind (the matrices' rows sum to 1), and a deuteranope sees
    the red and green cards as two olives a few units apart (what the issue saw)."""
    for kind in V.MACHADO:
        assert all(abs(sum(row) - 1) < 1e-3 for row in V.MACHADO[kind])
        grey = V.simulate((128, 128, 128), kind)
        assert all(abs(v - 128) < 0.5 for v in grey)
    red, green = P.CARD_RGB[7], P.CARD_RGB[4]
    assert V.delta_e(red, green) > 40
    assert V.delta_e(red, green, "deuteranopia") < 10


@pytest.mark.parametrize("eye", V.EYES)
def test_every_two_colourblind_player_colours_stay_apart(eye):
    d, i, j = V.least_distance(players(P.COLOURBLIND), eye)
    assert d >= COLOURBLIND_MIN, (eye, i, j, d)
    # and the board: each player's colour apart from the map under it
    for rgb in players(P.COLOURBLIND):
        assert V.delta_e(rgb, P.BOARD_BG, eye) >= 25


def test_the_colourblind_palette_is_far_better_for_red_green_blindness():
    """Protanopia and deuteranopia (the common ones) gain 16-22 units; the standard palette
    already did well under tritanopia (27.5) and the colour-blind one keeps 25.8 there."""
    for eye in ("protanopia", "deuteranopia"):
        cb = V.least_distance(players(P.COLOURBLIND), eye)[0]
        std = V.least_distance(players(P.STANDARD), eye)[0]
        assert cb > std + 10, eye
    # the standard palette's weak pair: its green and yellow players, to a protanope
    d, i, j = V.least_distance(players(P.STANDARD), "protanopia")
    assert d < 10 and {i, j} == {2, 3}


def test_the_marks_differ_by_shape_in_both_palettes():
    for scheme in P.SCHEMES.values():
        assert len({shape for _, _, shape in scheme.players}) == len(scheme.players)
        for fill, ink, _ in scheme.players:          # the mark shows on its car
            assert V.delta_e(fill, ink) > 40


def car_margins(kind, scheme, eye):
    """The picture of a mid-game Europe board (or the public phone map) shown 800 px wide: for
    every claimed car, beside its mark, how much nearer (CIEDE2000, as this eye sees it) its
    colour is to its owner's than to any other player's."""
    g = greedy_game("europe", PLAYERS["europe"], seed=7, until=0.5)
    draw = render_board if kind == "board" else render_map
    img = Image.open(io.BytesIO(draw(g, ["a"] * g.n, palette=scheme))).convert("RGB")
    lay = page_layout(g.board, kind)
    f = 800 / img.width
    small = img.resize((800, round(img.height * f)), Image.Resampling.LANCZOS)
    seen = [V.lab(V.simulate(P.player_rgb(s, scheme), eye)) for s in range(g.n)]
    out = []
    for r, seat in enumerate(g.owner):
        if seat < 0:
            continue
        for x, y, a in g.board.routes[r].slots:
            px, py = lay.pt(*along(x, y, a, 17))
            lab = V.lab(V.simulate(small.getpixel((round(px * f), round(py * f))), eye))
            own = V.ciede2000(lab, seen[seat])
            out.append(min(V.ciede2000(lab, seen[s]) for s in range(g.n) if s != seat) - own)
    return out


@pytest.mark.parametrize("kind", ["board", "map"])
@pytest.mark.parametrize("eye", V.EYES)
def test_at_800_px_every_car_reads_as_its_owner_to_every_eye(eye, kind):
    margins = car_margins(kind, P.COLOURBLIND, eye)
    assert len(margins) > 100 and min(margins) >= 20, (eye, min(margins))


def test_at_800_px_the_standard_palette_fails_a_protanope():
    """What the colour-blind palette is for: the standard one's green and yellow cars are
    under 5 units apart to a protanope on the same picture."""
    assert min(car_margins("map", P.STANDARD, "protanopia")) < 10


def test_the_vision_command_prints_both_palettes(capsys):
    assert V.main([]) == 0
    out = capsys.readouterr().out
    for scheme in P.SCHEMES:
        assert scheme in out
    for eye in V.EYES:
        assert eye in out
    row = next(line for line in out.splitlines() if line.startswith(P.COLOURBLIND))
    figures = [float(cell) for cell in row.split()[1::2]]
    assert len(figures) == len(V.EYES) and min(figures) >= COLOURBLIND_MIN


def test_the_film_of_a_colour_blind_game_is_in_its_colours():
    """The end's film follows the game's palette like its other public pictures: the last
    frame's cars are in the colour-blind players' colours."""
    from testkit.sample_games import film_input, greedy_record
    from ttr_bot.render.film import HALF, film_layout, render_film
    rec, end = greedy_record("usa", 3, 4)
    game, names, actions = film_input(rec)
    data = render_film(game, names, actions, "en", palette=P.COLOURBLIND)
    im = Image.open(io.BytesIO(data))
    im.seek(im.n_frames - 1)
    last = im.convert("RGB")
    lay, f = film_layout(end.board), 1 / HALF          # the frames are the page halved
    hits = {P.COLOURBLIND: 0, P.STANDARD: 0}
    for r, seat in enumerate(end.owner):
        if seat < 0:
            continue
        for x, y, a in end.board.routes[r].slots:
            px, py = lay.pt(*along(x, y, a, 17))
            rgb = last.getpixel((round(px * f), round(py * f)))
            for scheme in hits:
                want = P.player_rgb(seat, scheme)
                hits[scheme] += all(abs(u - v) <= 12 for u, v in zip(rgb, want))
    assert hits[P.COLOURBLIND] > 30 and hits[P.STANDARD] == 0, hits
