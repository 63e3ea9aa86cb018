"""How a card's text reads on a phone: a line's display width (an emoji or a wide character
counts two), the text as a phone shows it (a mention as "@player0", a timestamp as its words,
no bold marks) and the lines it takes on a phone 360 points wide (a line wraps every CPL
characters: 360 pt less Discord's avatar gutter and the card's padding leaves about 270 pt of
text, about 40 characters of Discord's 16 px font).

The one measure of "one screen": `python -m tools.bench cards` reports it (on older commits
too: it carries this file there) and tests/discord/test_e2e_cards.py holds the cards to it.
The standard library only."""
import math
import re
import unicodedata

CPL = 40                # characters a phone line holds at 360 pt


def width(text):
    """Display width in Latin characters: an emoji or a wide character counts two."""
    w = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u2068\u2069\u200c\ufe0f":
            continue
        wide = unicodedata.east_asian_width(ch) in "WF" or ord(ch) >= 0x1F000
        w += 2 if wide else 1
    return w


def readable(text):
    """The text as a phone shows it: mentions as @player0, timestamps as words, no bold."""
    text = re.sub(r"<@!?\d+>", "@player0", text)
    text = re.sub(r"<t:\d+:R>", "in 2 days", text)
    text = re.sub(r"<t:\d+:\w>", "Thursday 16 November 2023 22:13", text)
    return text.replace("**", "")


def phone_lines(lines):
    """The lines `lines` take on a 360-point phone."""
    return sum(max(1, math.ceil(width(line) / CPL)) for line in lines)
