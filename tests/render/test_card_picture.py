"""The README's picture of a turn card (tools/card_picture.py) draws what the card holds: the
container's accent in the player's colour, the text with its bold, both pictures of the
gallery, and a button per label in its style's colour, wrapped to a phone's width."""
import io

from PIL import Image

from tools.card_picture import BOLD_INK, BUTTON, W, draw_card


def _png(rgb, size):
    buf = io.BytesIO()
    Image.new("RGB", size, rgb).save(buf, "PNG")
    return buf.getvalue()


def test_the_card_picture_draws_the_cards_parts():
    files = {"closeup.png": _png((250, 0, 250), (600, 450)), "map.png": _png((0, 200, 0), (1408, 912))}
    rows = [[("Draw from the deck", 1), ("2 from the deck", 1)],
            [(f"colour {i}", 2) for i in range(6)], [("Claim a route…", 3)]]
    blocks = ["Ann claimed **Paris – Bruxelles** (2).", "**Standings**\nAnn · 12 pts",
              "-# small print"]
    img = Image.open(io.BytesIO(draw_card(blocks, rows, files, 0xE03C31))).convert("RGB")
    assert img.width == W
    colours = {rgb: n for n, rgb in img.getcolors(1 << 20)}
    assert colours.get((0xE0, 0x3C, 0x31), 0) > 4 * img.height    # the accent bar, all along
    assert colours.get((250, 0, 250), 0) > 10_000                 # the close-up
    assert colours.get((0, 200, 0), 0) > 10_000                   # and the map
    assert colours.get(BOLD_INK, 0) > 200                         # bold words
    assert colours.get(BUTTON[1], 0) > colours.get(BUTTON[3], 0) > 2_000
    # six secondary buttons do not fit one row at a phone's width: wrapped, none cut off
    grey = [y for y in range(img.height)
            if any(img.getpixel((x, y)) == BUTTON[2] for x in range(0, W, 4))]
    bands = sum(1 for a, b in zip(grey, grey[1:]) if b > a + 1) + 1
    assert bands >= 2
    assert not any(img.getpixel((x, y)) == BUTTON[2] for y in grey for x in range(W - 20, W))
