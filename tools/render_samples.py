"""Write the sample pictures of docs/images.

    python -m tools.render_samples [OUT_DIR]   (default docs/images)

writes `<map>-mid.png` (the public board half-way) and `<map>-final.png` for every map,
`<map>-private.png` (the mid-game moment as the first player sees it) for Europe and Nordic, and
`usa-mid-ja.png` (the USA mid-game board in Japanese, with Japanese player names),
`europe-choosing.png` (the private board of the player to move right after drawing tickets:
the offer numbered on the map) and `europe-mid-colourblind.png` (the colour-blind palette).
"""
import io
import sys
from pathlib import Path

from PIL import Image

from ttr_bot.bench.sample_games import greedy_game, names_for
from ttr_bot.engine.actions import DrawTickets
from ttr_bot.maps import available_maps
from ttr_bot.render import render_board, render_final

# (file, map, locale, player names): the pictures in another language
LOCALIZED = (("usa-mid-ja.png", "usa", "ja", ("山田太郎", "さくら", "Amélie", "佐藤ケンジ")),)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    for map_id in available_maps():
        mid = greedy_game(map_id, seed=7, until=0.5)
        end = greedy_game(map_id, seed=7)
        files = {f"{map_id}-mid.png": render_board(mid, names_for(mid)),
                 f"{map_id}-final.png": render_final(end, names_for(end))}
        if map_id in ("europe", "nordic"):
            files[f"{map_id}-private.png"] = render_board(mid, names_for(mid), viewer=0)
        for name, data in files.items():
            _save(out, name, data)
    localized(out)
    choosing(out)
    return 0


def choosing(out):
    """The ticket choice on the private board, and the colour-blind palette's public board."""
    mid = greedy_game("europe", seed=7, until=0.5)
    g = mid.copy()
    seat = g.to_move()[0]
    g.apply(DrawTickets(seat))
    _save(Path(out), "europe-choosing.png", render_board(g, names_for(g), viewer=seat))
    _save(Path(out), "europe-mid-colourblind.png",
          render_board(mid, names_for(mid), palette="colourblind"))


def localized(out):
    """The LOCALIZED pictures (mid-game boards) into the folder `out`."""
    for name, map_id, locale, names in LOCALIZED:
        mid = greedy_game(map_id, seed=7, until=0.5)
        _save(Path(out), name, render_board(mid, list(names[:mid.n]), locale=locale))


def _save(out, name, data):
    # the bot sends the fast encoding; the documentation keeps a smaller file
    buf = io.BytesIO()
    Image.open(io.BytesIO(data)).save(buf, "PNG", optimize=True)
    (out / name).write_bytes(buf.getvalue())
    print(f"{out / name}: {len(data) // 1024} KiB as sent, {len(buf.getvalue()) // 1024} KiB here")


if __name__ == "__main__":
    sys.exit(main())
