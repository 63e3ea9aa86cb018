"""Write docs/images/turn-card.md: a real turn card, as the bot posted it in a real game.

    python -m tools.turn_card_sample [OUT_DIR] [--seed N]   (default docs/images, seed 1)

The bot itself (TTRBot, unmodified discord.py) plays a Europe game of two people and two
computer players over the repository's fake Discord (testkit/fakediscord; the people are driven
through buttons and commands by testkit/e2e_driver.py). Mid-game, the first card that has a
close-up, the map and since-your-last-turn lines is taken as Discord received it: its text
displays in order (mentions shown as Discord shows them, @name; a timestamp as its relative
time), its buttons by row, each picture's alt text, and the two pictures scaled to a phone's
width (`turn-card-closeup-400.png`, `turn-card-map-400.png`, `turn-card-map-800.png`); and the
whole card drawn as a phone shows it in Discord's dark theme (tools/card_picture.py:
`turn-card-800.png`, `turn-card-400.png`), the README's picture.
"""
import argparse
import asyncio
import logging
import os
import random
import re
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from tools.card_picture import draw_card
from tools.render_samples import _save

MIN_TURN = 30           # mid-game: enough on the board to show
MAX_ACTIONS = 2000


async def play(out, seed=1):
    import ttr_bot.service.core as core
    from testkit.e2e_driver import Player, Table, open_game
    from testkit.fakediscord import FakeDiscord
    from ttr_bot.i18n import t

    deal = random.Random(seed)      # the game's deal: the same card every run with one seed
    core.random.SystemRandom = lambda: deal

    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            table = Table(fake, os.path.join(tmp, "sample.sqlite"))
            await table.start_bot(sync=True)
            users = [fake.add_user(name, guild=table.guild) for name in ("Ann", "Bea")]
            players = {u.id: Player(table, u, seed=i + 1) for i, u in enumerate(users)}
            await open_game(table, users[0], users[1:], map_id="europe", bots=2)
            card, since = None, t("bot.since.short", mention="", moves="").split(",")[0]
            for _ in range(MAX_ACTIONS):
                loaded = await table.wait_for_humans()
                if loaded.game.over:
                    break
                last = table.last_panel()
                if loaded.game.turn >= MIN_TURN and last is not None and \
                        {"closeup.png", "map.png"} <= set(last.files) and since in last.body():
                    card = last
                    break
                seat = next(s for s in loaded.game.to_move() if loaded.seats[s].user_id)
                await players[loaded.seats[seat].user_id].move()
            if card is None:
                raise SystemExit("no card with a close-up, the map and since lines came")
            names = {u.id: u.username for u in users}
            now = table.clock()
            text = []       # each text display, with the button beside it (a Section's)
            for part in card.components[0].get("components", []):
                if part.get("type") == 10:
                    text.append(_readable(part["content"], names, now))
                elif part.get("type") == 9:
                    b = part.get("accessory", {})
                    label = f"{b.get('emoji', {}).get('name', '')} {b.get('label', '')}".strip()
                    text.append("\n".join(_readable(c["content"], names, now)
                                          for c in part.get("components", []))
                                + f"\n`[{label}]`")
            rows = [[(f"{b.get('emoji', {}).get('name', '')} {b.get('label', '')}".strip(),
                      b.get("style", 2))
                     for b in row.get("components", [])]
                    for row in card.components if row.get("type") == 1]
            accent = next((c.get("accent_color") for c in card.components
                           if c.get("type") == 17), None)
            alts = {a.filename: a.description for a in card.attachments}
            files = card.files
            await fake.stop_bot(table.bot)
    write(out, text, rows, alts, files, accent)


def _readable(text, names, now):
    """A text display as Discord shows it: <@id> as @name, <t:N:R> as its relative time,
    <t:N:f> as a date."""
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(int(m.group(1)), "someone"), text)

    def when(m):
        seconds = int(m.group(1)) - now
        if m.group(2) == "R":
            days = round(seconds / 86400)
            return f"in {days} days" if days >= 1 else f"in {round(seconds / 3600)} hours"
        # a full date, in the reader's own time zone (here UTC)
        return datetime.fromtimestamp(int(m.group(1)), timezone.utc).strftime(
            "%A %d %B %Y %H:%M UTC")
    return re.sub(r"<t:(\d+):(\w)>", when, text)


def write(out, text, rows, alts, files, accent=None):
    out = Path(out)
    card = draw_card(text, rows, files, accent)
    _save(out, "turn-card-800.png", card)
    _save(out, "turn-card-400.png", card, width=400)
    _save(out, "turn-card-closeup-400.png", files["closeup.png"], width=400)
    _save(out, "turn-card-map-400.png", files["map.png"], width=400)
    _save(out, "turn-card-map-800.png", files["map.png"], width=800)
    quoted = []
    for i, block in enumerate(text):
        if i == 1:      # the gallery comes after what happened
            quoted += ["> *[the close-up] [the map]*", ">", "> ———", ">"]
        elif i:
            quoted += ["> ———", ">"]
        quoted += [f"> {line}" if line else ">" for line in block.splitlines()] + [">"]
    buttons = "\n".join("  " + " ".join(f"`[{label}]`" for label, _ in row) for row in rows)
    doc = f"""# A turn card

One card as the bot posted it, in a real Europe game between two people (Ann and Bea) and two
computer players, played over the repository's fake Discord (`python -m tools.turn_card_sample`
makes this page again; the game differs each time). A card is one Components V2 message
(`ttr_bot/discord/posting/turn_card.py`): a container in the colour of the player to move, with what
happened since the last card (a line per move, a turn's draws in one; the computers' turns fold
into the card of the next person to move), the pictures when the board changed, the standings
(one short line a player: points, 🚃 trains, 🃏 cards, 🎫 tickets, 🚉 stations; "Details" beside
them answers every standing in words, privately), what the others did since the pinged player's
last turn in one line, the ping with the deadline and "My hand" beside it; under it, the turn's
moves in two rows (the previous card has lost its buttons). `python -m tools.bench cards`
measures a whole game's cards on a 360-point phone.

The card as a phone shows it (drawn from what Discord received: `tools/card_picture.py`):
![the whole card at 400 px](turn-card-400.png)

{chr(10).join(quoted).rstrip('>').rstrip()}

{buttons}

The pictures, at a phone's width (Discord shows the close-up first; it sends the map 1408 px
wide and the close-up 600 x 450):

| the close-up at 400 px | the map at 400 px |
|---|---|
| ![the close-up, 400 px](turn-card-closeup-400.png) | ![the map, 400 px](turn-card-map-400.png) |

The map at 800 px, every route claimed since the pinged player's last move ringed in magenta:
![the map, 800 px](turn-card-map-800.png)

Their alt text (what a screen reader says):
- the close-up: {alts.get("closeup.png")}
- the map: {" / ".join(alts.get("map.png", "").splitlines())}
"""
    (out / "turn-card.md").write_text(doc, encoding="utf-8")
    print(f"{out / 'turn-card.md'}")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.turn_card_sample",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", nargs="?", default="docs/images",
                    help="where turn-card.md and its pictures go (default docs/images)")
    ap.add_argument("--seed", type=int, default=1, help="the game's deal (default 1)")
    args = ap.parse_args(argv)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(play(out, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
