"""Write the sample pictures of docs/images.

    python -m tools.render_samples [OUT_DIR]   (default docs/images)

For every map, from a computer-played game half-way and then a round or more:
- `<map>-map-400.png` of each map of issue 32 (`--new`: only those), mid-game with its own marks,
  `pennsylvania-private-800.png` (each player's shares in the players table),
  `pennsylvania-map-800.png` (the shares in a strip under the public map) and
  `pennsylvania-final-800.png` (at the end of each score card);
- `<map>-map-800.png` and `<map>-map-400.png`: the public picture (`render_map`, the map alone)
  with the routes claimed in those rounds highlighted, scaled to 800 and 400 px wide as a phone
  shows it (the bot sends it at full size: `europe-map.png`);
- `<map>-closeup.png` (as sent, 600 x 450) and `<map>-closeup-400.png`: the close-up of the
  round's last claim;
- `<map>-final.png`: the final picture; `<map>-private.png` (Europe and Nordic): the mid-game
  moment as the first player sees it;
and `usa-closed-lane-400.png` (a three-player game: the other lane of a claimed double route
drawn closed), `usa-map-ja-800.png` (the USA map in Japanese), `europe-choosing.png` and
`europe-choosing-800.png` and `-400.png` (the private board of the player to move right after
drawing tickets: the offer lettered on the map as in the choice menu, the kept tickets
numbered), `europe-map-colourblind-800.png` and `-400.png` (the public picture in the
colour-blind palette) and `europe-private-colourblind-800.png` (that ticket choice in it), and
`usa-private-cjk-800.png` and `-400.png` (players named in Korean, Chinese, rare kanji, emoji),
`usa-private-rtl-800.png` and `-400.png` (an English board whose player to move has a Persian
name, "پریسا رضایی to play", and a player named with CJK Extension B's 𠮷), and
`usa-final-many-failed-800.png` and `-400.png` (a random game's end: most tickets failed, drawn
thin, dashed and faded under the made ones).
"""
import io
import random
import sys
from pathlib import Path

from PIL import Image

from testkit.sample_games import _greedy, drawn_state, greedy_game, names_for, random_game
from ttr_bot.engine.actions import DrawTickets
from ttr_bot.maps import available_maps, ready
from ttr_bot.render import render_board, render_closeup, render_final, render_map
from ttr_bot.render.draw import closed_lanes
from ttr_bot.render.stats_card import render_stats
from ttr_bot.stats import player_stats
from ttr_bot.store import ResultRecord

# players' names in the scripts Discord display names are written in (any_names)
ANY_NAMES = ("پریسا رضایی", "김민준", "🚂TrainFan🚂", "齋藤 髙橋", "张伟")
CJK_NAMES = ("김민준", "张伟 王芳", "齋藤 髙橋", "🚂TrainFan🚂")
# (file, map, locale, player names): the pictures in another language
LOCALIZED = (("usa-map-ja-800.png", "usa", "ja", ("山田太郎", "さくら", "Amélie", "佐藤ケンジ")),)
WIDTHS = (800, 400)          # a phone's width in device pixels (2x) and in CSS pixels


def one_round_more(game, seed=7):
    """(the game after a round or more of greedy play: until two routes are claimed, at most
    three rounds; [routes claimed since], the last claim) — a player's view of the board when
    their turn comes again."""
    game = game.copy()
    rng = random.Random(seed)
    before = list(game.owner)
    start = game.turn
    last = None
    while not game.over and game.turn < start + 3 * game.n and (
            game.turn < start + game.n
            or sum(a != b for a, b in zip(before, game.owner)) < 2
            or (game.turn - start) % game.n):
        seat = game.to_move()[0]
        game.apply(_greedy(game, seat, game.legal_actions(seat), rng))
        if game.last_move and game.last_move[1] == "claim_route":
            last = game.last_move[2]
    new = [r for r, (a, b) in enumerate(zip(before, game.owner)) if a != b]
    return game, new, last


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    only_new = "--new" in argv
    argv = [a for a in argv if a != "--new"]
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    new_maps(out)
    if only_new:
        return 0
    for map_id in available_maps():
        mid = greedy_game(map_id, seed=7, until=0.5)
        end = greedy_game(map_id, seed=7)
        g, since, last = one_round_more(mid)
        names = names_for(g)
        public = render_map(g, names, highlight=since)
        if map_id == "europe":
            _save(out, f"{map_id}-map.png", public)
        for w in WIDTHS:
            _save(out, f"{map_id}-map-{w}.png", public, width=w)
        close = render_closeup(g, names, [last] if last is not None else since[:1])
        _save(out, f"{map_id}-closeup.png", close)
        _save(out, f"{map_id}-closeup-400.png", close, width=400)
        _save(out, f"{map_id}-final.png", render_final(end, names_for(end)))
        if map_id in ("europe", "nordic"):
            _save(out, f"{map_id}-private.png", render_board(mid, names_for(mid), viewer=0))
    closed_lane(out)
    localized(out)
    any_names(out)
    cjk_names(out)
    choosing(out)
    rtl_and_failed(out)
    return 0


def rtl_and_failed(out):
    """An English private board with a right-to-left name to play and an Extension B name, and
    a final picture where most tickets failed."""
    usa = greedy_game("usa", seed=7, until=0.5)
    names = ["Chidi", "𠮷田 花子", "Dörte", "Amélie"][:usa.n]
    names[usa.current] = "پریسا رضایی"
    board = render_board(usa, names, viewer=0)
    for w in WIDTHS:
        _save(Path(out), f"usa-private-rtl-{w}.png", board, width=w)
    end = random_game("usa", 4, seed=3)
    final = render_final(end, names_for(end))
    for w in WIDTHS:
        _save(Path(out), f"usa-final-many-failed-{w}.png", final, width=w)


NEW_MAPS = ("india", "legendary_asia", "pennsylvania", "japan", "italy", "northern_lights")


def new_maps(out):
    """`<map>-map-400.png` of each map of issue 32 mid-game, its own marks drawn (a map whose
    rules the engine does not play yet: a drawn state, a third of its routes claimed)."""
    for map_id in NEW_MAPS:
        g = greedy_game(map_id, seed=7, until=0.5) if ready(map_id) else drawn_state(map_id, 0.3)
        names = names_for(g) if ready(map_id) else ["A", "B", "C"]
        _save(out, f"{map_id}-map-400.png", render_map(g, names), width=400)
        if map_id == "pennsylvania":        # each player's shares beside the standings
            _save(out, f"{map_id}-private-800.png", render_board(g, names, viewer=0), width=800)
            _save(out, f"{map_id}-map-800.png", render_map(g, names), width=800)   # the strip
            end = greedy_game(map_id, seed=7)
            _save(out, f"{map_id}-final-800.png", render_final(end, names_for(end)), width=800)


def choosing(out):
    """The ticket choice on the private board (the offer lettered, the kept tickets numbered),
    and the colour-blind palette: the public map and a private board."""
    mid = greedy_game("europe", seed=7, until=0.5)
    g = mid.copy()
    seat = g.to_move()[0]
    g.apply(DrawTickets(seat))
    board = render_board(g, names_for(g), viewer=seat)
    _save(Path(out), "europe-choosing.png", board)
    for w in WIDTHS:
        _save(Path(out), f"europe-choosing-{w}.png", board, width=w)
    public = render_map(mid, names_for(mid), palette="colourblind")
    for w in WIDTHS:
        _save(Path(out), f"europe-map-colourblind-{w}.png", public, width=w)
    _save(Path(out), "europe-private-colourblind-800.png",
          render_board(g, names_for(g), viewer=seat, palette="colourblind"), width=800)


def cjk_names(out):
    """An English private board whose players are named in Korean, Chinese, rare kanji and
    emoji (CJK_NAMES), at 800 and 400 px."""
    usa = greedy_game("usa", seed=7, until=0.5)
    board = render_board(usa, list(CJK_NAMES[:usa.n]), viewer=0)
    for w in WIDTHS:
        _save(Path(out), f"usa-private-cjk-{w}.png", board, width=w)


def closed_lane(out):
    """The close-up of a claimed double route whose other lane a three-player game closes."""
    g = greedy_game("usa", 3, seed=7, until=0.6)
    shut = sorted(closed_lanes(g.board, g.n, g.owner))
    taken = g.board.routes[shut[0]].twin
    _save(Path(out), "usa-closed-lane-400.png", render_closeup(g, names_for(g), [taken]), width=400)


def localized(out):
    """The LOCALIZED pictures (mid-game maps) into the folder `out`."""
    for name, map_id, locale, names in LOCALIZED:
        mid = greedy_game(map_id, seed=7, until=0.5)
        _save(Path(out), name, render_map(mid, list(names[:mid.n]), locale=locale), width=800)


def any_names(out):
    """Persian pictures (mirrored panels, localized letters) with names in every script."""
    out = Path(out)
    mid = greedy_game("europe", seed=7, until=0.5)
    end = greedy_game("europe", seed=7)
    private = render_board(mid, list(ANY_NAMES[:mid.n]), viewer=0, locale="fa")
    for w in WIDTHS:
        _save(out, f"europe-private-fa-{w}.png", private, width=w)
    _save(out, "europe-final-fa-800.png", render_final(end, list(ANY_NAMES[:end.n]), locale="fa"),
          width=800)
    usa = greedy_game("usa", seed=7, until=0.5)
    _save(out, "usa-map-fa-800.png", render_map(usa, list(ANY_NAMES[:usa.n]), locale="fa"),
          width=800)
    rows = [ResultRecord(game_id=i, seat=0, user_id=7, score=60 + 7 * i, rank=1 + i % 3,
                         won=i % 3 == 0, tickets_completed=2 + i % 4,
                         map=("usa", "europe", "nordic", "switzerland")[i % 4],
                         variant="base", finished_at=float(i), tickets_failed=i % 2,
                         longest_bonus=i % 5 == 0) for i in range(12)]
    _save(out, "stats-fa.png", render_stats(player_stats(7, rows, name=ANY_NAMES[0]), "fa"))


def _save(out, name, data, width=None):
    # the bot sends the fast encoding; the documentation keeps a smaller file
    img = Image.open(io.BytesIO(data))
    if width is not None:
        img = img.convert("RGB")
        img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
        # as a phone shows it, in 256 colours: a quarter of the bytes, no visible difference
        img = img.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    (out / name).write_bytes(buf.getvalue())
    print(f"{out / name}: {len(data) // 1024} KiB as sent, {len(buf.getvalue()) // 1024} KiB here")


if __name__ == "__main__":
    sys.exit(main())
