"""The game as a film (ttr_bot/render/film.py): the frame rule for a short game and for a long
five-player Europe game, the size bound, an empty first frame and a last frame with every
claimed route in its owner's colour, the durations, and the frames drawn by parts equal to the
frames drawn whole."""
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from testkit.sample_games import film_input, greedy_game, greedy_record
from ttr_bot.engine.actions import ClaimRoute
from ttr_bot.engine.errors import Illegal
from ttr_bot.render import film as F
from ttr_bot.render import palette as P
from ttr_bot.render.geometry import along

RECORDS = Path(__file__).resolve().parents[1] / "records"
MiB = 1 << 20
_CACHE = {}


def played(map_id, n, seed):
    """(the game as dealt, names, actions, the game at its end) of a greedy sample game, through
    its record (as the service would give them)."""
    key = (map_id, n, seed)
    if key not in _CACHE:
        rec, end = greedy_record(map_id, n, seed)
        _CACHE[key] = film_input(rec) + (end,)
    return _CACHE[key]


def film(map_id, n, seed, locale="en", **kw):
    key = (map_id, n, seed, locale, tuple(sorted(kw.items())))
    if key not in _CACHE:
        game, names, actions, _ = played(map_id, n, seed)
        _CACHE[key] = F.render_film(game, names, actions, locale, **kw)
    return _CACHE[key]


def plan(map_id, n, seed, **kw):
    game, names, actions, _ = played(map_id, n, seed)
    return F.film_plan(game, names, actions, **kw)


def frames(data):
    """(frames composited as a viewer shows them, RGB; durations)."""
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    out, durations = [], []
    for frame in ImageSequence.Iterator(im):
        out.append(frame.convert("RGB"))
        durations.append(frame.info["duration"])
    return out, durations


def close(a, b, tol):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def points(board, route):
    """Film pixels inside the cars of a claimed route (and inside its free slots): 14 board
    units either side of each slot's centre, clear of the letter and the owner's mark."""
    lay = F.film_layout(board)
    out = []
    for x, y, a in board.routes[route].slots:
        for d in (-14, 14):
            px, py = lay.pt(*along(x, y, a, d))
            out.append((int(px) // F.HALF, int(py) // F.HALF))
    return out


# ----- the record it replays --------------------------------------------------------------------

def test_the_input_replays_the_greedy_game():
    game, names, actions, end = played("europe", 5, 2)
    ref = greedy_game("europe", 5, seed=2)
    assert end.owner == ref.owner and end.turn == ref.turn
    assert game.turn == 0 and all(o < 0 for o in game.owner)
    after, states = F.replay_states(game, actions)
    assert after.owner == ref.owner and after.station_owner == ref.station_owner
    assert all(o < 0 for o in game.owner)                       # the start is not changed
    assert len(states) == sum(1 for o in ref.owner if o >= 0) + len(ref.station_owner)


# ----- the frame rule -----------------------------------------------------------------------------

def test_short_game_has_a_frame_per_claim():
    game = played("usa", 2, 4)[3]
    p = plan("usa", 2, 4)
    claims = sum(1 for o in game.owner if o >= 0) + len(game.station_owner)
    assert claims <= F.MAX_FRAMES
    assert p.mode == "claim" and p.claims == claims
    got, durations = frames(film("usa", 2, 4))
    assert len(got) == p.frames == claims + 2
    assert durations == [F.DURATION_START] + [F.DURATION_CLAIM] * claims + [F.DURATION_FINAL]


def test_long_five_player_europe_game_has_a_frame_per_round():
    game, _, actions, _ = played("europe", 5, 2)
    _, states = F.replay_states(game, actions)
    assert len(states) > F.MAX_FRAMES                       # 79 claims and stations
    rounds = {(s.turn - 1) // 5 + 1 for s in states}       # rounds with at least one claim
    assert len(rounds) <= F.MAX_FRAMES
    p = plan("europe", 5, 2)
    assert p.mode == "round" and p.rounds_per_frame == 1
    data = film("europe", 5, 2)
    assert len(data) <= 8 * MiB
    got, durations = frames(data)
    assert len(got) == len(rounds) + 2
    assert durations[0] == F.DURATION_START and durations[-1] == F.DURATION_FINAL
    assert set(durations[1:-1]) == {F.DURATION_ROUND}
    assert durations[-1] > max(durations[:-1])              # the last frame is held
    width, height = got[0].size
    assert 800 <= width <= 1000 and height < width


def test_several_rounds_per_frame_when_there_are_too_many():
    p = plan("europe", 5, 2, max_frames=10)
    last_round = (p.final.turn - 1) // 5 + 1
    assert p.rounds_per_frame == -(-last_round // 10)
    assert p.mode == "round" and len(p.shots) <= 10
    got, _ = frames(film("europe", 5, 2, max_frames=10))
    assert len(got) == len(p.shots) + 2


def test_size_bound_drops_frames():
    full = film("usa", 2, 4)
    bound = len(full) * 3 // 4
    small = film("usa", 2, 4, max_bytes=bound)
    assert len(small) <= bound
    assert 2 <= len(frames(small)[0]) < len(frames(full)[0])
    # however small the bound, the first and the last frame remain
    tiny, _ = frames(film("usa", 2, 4, max_bytes=1000, max_frames=4))
    assert len(tiny) == 2


# ----- what the frames show ---------------------------------------------------------------------------

def test_first_frame_is_the_empty_board_and_last_shows_every_claim():
    game = played("europe", 5, 2)[3]
    got, _ = frames(film("europe", 5, 2))
    first, last = got[0], got[-1]
    claimed = [(r, seat) for r, seat in enumerate(game.owner) if seat >= 0]
    assert len(claimed) > 50
    for r, seat in claimed:
        rgb = P.player_rgb(seat)
        pts = points(game.board, r)
        in_first = sum(close(first.getpixel(p), rgb, 10) for p in pts)
        in_last = sum(close(last.getpixel(p), rgb, 10) for p in pts)
        assert in_first < len(pts) / 2, (game.board.route_label(r), seat)       # no car yet
        assert in_last > len(pts) / 2, (game.board.route_label(r), seat)        # its owner's car
    # and the map of the first frame is the static board: no player colour on it at all
    mw, mh = first.width, first.height - F.BAND
    colours = {c for _, c in first.crop((0, 0, mw, mh)).getcolors(1 << 16)}
    for seat in range(5):
        if seat != 4:          # near-black (40, 40, 40) is also a shade of the city names' ink
            assert P.player_rgb(seat) not in colours


def test_frames_drawn_by_parts_equal_the_board_drawn_whole():
    """Each frame redraws only what changed; a few frames against the whole map of the same
    state (after the palette: equal up to the nearest-colour mapping)."""
    p = plan("europe", 5, 2)
    got, _ = frames(film("europe", 5, 2))
    fr = F._Frames(p.board, p.names, "en")
    for i in (1, len(p.shots) // 2, len(p.shots)):
        state, _, _, routes, stations = p.shots[i - 1]
        want = fr.whole(state, routes=tuple(routes), stations=tuple(stations))
        have = got[i].crop((0, 0, want.width, want.height))
        diff = ImageChops.difference(have, want)
        assert max(ImageStat.Stat(diff).mean) < 1.5, i
        # nothing far off but the odd anti-aliased pixel
        hist = diff.convert("L").histogram()
        assert sum(hist[40:]) < 0.001 * want.width * want.height, i


def test_the_band_shows_the_turn_and_the_final_scores():
    got, _ = frames(film("usa", 2, 4))
    bands = [f.crop((0, f.height - F.BAND, f.width, f.height)) for f in got]
    assert len({b.tobytes() for b in bands}) == len(bands)      # every frame: a new turn or score
    # the winner's cell on the last frame: the highlighted background
    _, winners = played("usa", 2, 4)[3].scores()
    last = bands[-1]
    assert any(close(c, (255, 250, 225), 4) for _, c in last.getcolors(1 << 16))
    assert winners


def test_portrait_map_has_the_band_beside_it():
    got, _ = frames(film("nordic", 3, 4, "fa"))
    w, h = got[0].size
    assert 800 <= w <= 1000 and h > 800


@pytest.mark.parametrize("locale", ["th", "ja"])
def test_other_languages(locale):
    a = film("usa", 2, 4, locale)
    assert len(frames(a)[0]) == len(frames(film("usa", 2, 4))[0])
    assert a != film("usa", 2, 4)


def test_deterministic_and_thread_safe():
    game, names, actions, _ = played("usa", 2, 4)
    want = film("usa", 2, 4)
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda _: F.render_film(game, names, actions), range(2)))
    assert all(g == want for g in got)


def test_test_records():
    for name in ("europe_tunnels_stations", "nordic_ferries", "switzerland_countries",
                 "usa_final_round"):
        game, names, actions = film_input(json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8")))
        p = F.film_plan(game, names, actions)
        got, _ = frames(F.render_film(game, names, actions))
        assert len(got) == p.frames == p.claims + 2


def test_an_illegal_action():
    game, names, actions, _ = played("usa", 2, 4)
    claim = next(a for a in actions if isinstance(a, ClaimRoute))
    with pytest.raises(Illegal):
        F.render_film(game, names, [claim, claim])


def test_a_film_after_warming_is_the_film_without():
    """Warming a game's pages when it starts (render.warm, every worker) builds the film's page
    as the film itself would: the film drawn on a warmed page is byte for byte the one drawn on
    a page it built itself."""
    from ttr_bot.render import static as S
    from ttr_bot.render import warm
    game, names, actions, _ = played("switzerland", 2, 4)
    S.clear()
    cold = F.render_film(game, names, actions, "en")
    S.clear()
    warm(game.board, "en", pages=("film",))
    assert F.render_film(game, names, actions, "en") == cold
