"""The turn card: one Components V2 message per turn (discord.py's `ui.LayoutView`).

    ┌ Container (the colour of the player to move) ─────────────┐
    │ TextDisplay   what happened: one line per move             │
    │ MediaGallery  the picture(s), only when the board changed  │
    │ Separator                                                  │
    │ TextDisplay   the standings, one line per player           │
    │ Separator                                                  │
    │ TextDisplay   since your last turn · the ping · deadline   │
    └────────────────────────────────────────────────────────────┘
    ActionRow…    the turn panel's own rows (components.turn_view), less "My hand"

Beside the standings (a Section's accessory) the card has "Details" (every standing in words,
answered privately), beside the ping "My hand": neither is a move, so the two action rows are
the turn's moves only, and "Destination tickets" is never next to "My hand". The previous
card loses all of them.

A `Card` is plain data (text and pictures); `layout(card, panel)` makes the LayoutView, taking
the rows of whatever View the panel is (so a new button there is a new button here). A V2
message has no `content` and no embeds: the ping is in a TextDisplay (allowed_mentions still
decides who is notified), and its text is at most 4,000 characters, so each part is cut to its
share. The previous card loses its buttons by being edited to the same card without the rows
(`stripped`); a picture is referenced as `attachment://name`, and an edit that sends no
`attachments` keeps the message's files, so the picture is not uploaded again.
"""
import io
from dataclasses import dataclass, replace
from typing import Any

import discord

from ...render.palette import STANDARD, player_rgb
from ..controls.components import DetailsButton, HandButton
from ..text.format import fit

TEXT_LIMIT = 4000           # Discord: characters of text in all a V2 message's TextDisplays
COMPONENTS_LIMIT = 40       # Discord: components in a V2 message, nested ones included
SHARES = {"moves": 2000, "standings": 900, "tail": 1000}    # of TEXT_LIMIT, in that order


@dataclass(frozen=True)
class Picture:
    png: bytes
    name: str
    alt: str                # Discord's attachment description (<= 1024 characters)

    def file(self):
        return discord.File(io.BytesIO(self.png), filename=self.name, description=self.alt)


@dataclass(frozen=True)
class Card:
    moves: tuple = ()       # lines: what happened
    standings: tuple = ()   # lines: the standings as text
    tail: tuple = ()        # lines: since your last turn, the ping, the deadline, a note
    pictures: tuple = ()    # Picture…
    accent: int | None = None
    game_id: int | None = None  # set: "Details" beside the standings, "My hand" beside the tail
    loc: str = "en"

    def files(self):
        return [p.file() for p in self.pictures]

    def text(self):
        """The card's text as Discord will show it (what a late post is recognised by)."""
        return "\n".join(_texts(self))

    def without_pictures(self):
        """The card as remembered after posting: its pictures' names and alt text, no bytes."""
        return replace(self, pictures=tuple(replace(p, png=b"") for p in self.pictures))


def accent_of(seat, palette=STANDARD):
    """The card's edge in the colour the picture draws the player to move in."""
    if seat is None:
        return None
    r, g, b = player_rgb(seat, palette)
    return (r << 16) | (g << 8) | b


def _texts(card):
    out = []
    for part in ("moves", "standings", "tail"):
        lines = [line for line in getattr(card, part) if line]
        if lines:
            out.append(fit("\n".join(lines), SHARES[part]))
    return out


def panel_rows(panel, leave=()):
    """The rows of a classic View (the turn panel), in order, as V2 action rows, less the
    items of the classes in `leave`."""
    if panel is None:
        return []
    rows: dict[int, list[discord.ui.Item[Any]]] = {}    # row number -> its items
    for item in panel.children:
        if isinstance(item, leave):
            continue
        rows.setdefault(item._rendered_row or 0, []).append(item)   # View's own row grouping
    out = []
    for index in sorted(rows):
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for item in rows[index]:
            panel.remove_item(item)
            row.add_item(item)
        out.append(row)
    return out


def layout(card, panel=None):
    """The LayoutView of `card`, with the rows of `panel` (a View, or None: no buttons)."""
    view = discord.ui.LayoutView(timeout=None)
    texts = _texts(card)
    body: list[discord.ui.Item[discord.ui.LayoutView]] = []
    if texts and card.moves:
        body.append(discord.ui.TextDisplay(texts.pop(0)))
    if card.pictures:
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery()
        for p in card.pictures:
            gallery.add_item(media=f"attachment://{p.name}", description=p.alt or None)
        body.append(gallery)
    # beside the standings "Details" (every standing in words), beside the ping "My hand":
    # neither is a move, so neither sits in the rows of the turn's buttons
    beside = [DetailsButton(card.game_id, card.loc), HandButton(card.game_id, card.loc)] \
        if card.game_id is not None and panel is not None else []
    beside = beside[-len(texts):] if texts else []
    for i, text in enumerate(texts):
        if body:
            body.append(discord.ui.Separator())
        accessory = beside[i] if i < len(beside) else None
        # discord.py types every DynamicItem as Item[View | LayoutView], which a Section's
        # accessory (Item[LayoutView]) refuses; a dynamic button is a valid accessory all the same
        body.append(discord.ui.Section(discord.ui.TextDisplay(text),
                                       accessory=accessory)  # type: ignore[arg-type]
                    if accessory is not None else discord.ui.TextDisplay(text))
    view.add_item(discord.ui.Container(*body, accent_colour=card.accent))
    for row in panel_rows(panel, leave=(HandButton,) if beside else ()):
        view.add_item(row)
    return view


def with_note(card, note):
    """The card with `note` as its last line (where the ping was: the turn went on)."""
    return replace(card, tail=card.tail + (note,))


def stripped(card):
    """The card without its buttons: what the previous card becomes."""
    return layout(card, None)


def stripped_message(message):
    """A posted V2 message (read back after a restart) without its action rows, or None if
    it is not a V2 message (then `edit(view=None)` takes its buttons off, as before)."""
    if not message.flags.components_v2:
        return None
    view = discord.ui.LayoutView.from_message(message, timeout=None)
    for item in list(view.children):
        if isinstance(item, discord.ui.ActionRow):
            view.remove_item(item)
        elif isinstance(item, discord.ui.Container) and \
                any(isinstance(p, discord.ui.Section) for p in item.children):
            parts = []      # "Details", "My hand" go, the text beside them stays
            for part in item.children:
                parts += list(part.children) if isinstance(part, discord.ui.Section) else [part]
            view.remove_item(item)
            view.add_item(discord.ui.Container(*parts, accent_colour=item.accent_colour))
    return view
