"""Counts read as a speaker would say them: "1 station", "2 stations" (CLDR's plural forms,
ttr_bot.i18n), and a tunnel that needs no extra card says so instead of "0 more card(s)"."""
from ttr_bot.discord.text.card_text import details_lines
from ttr_bot.discord.text.format import event_lines, status_lines
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.i18n import LOCALES, t
from ttr_bot.maps import load_board

NAMES = ["Ann", "Bea"]


def game():
    return Game(load_board("europe", "base"), 2, Dealer(7))


def reveal(extra):
    g = game()
    route = next(r for r in g.board.routes if r.tunnel)
    e = {"type": "tunnel_reveal", "seat": 0, "route": route.index, "cards": [0] * 9,
         "revealed": [1, 2, 3], "extra": extra}
    e["cards"][route.color if route.color < 8 else 0] = route.length
    return {loc: event_lines([e], g.board, NAMES, loc)[0] for loc in LOCALES}


def test_a_tunnel_that_needs_nothing_more_says_so_in_every_language():
    none, one, two = reveal(0), reveal(1), reveal(2)
    assert none["en"].endswith("→ no extra card needed.")
    assert one["en"].endswith("→ 1 more card needed.") and two["en"].endswith("→ 2 more cards needed.")
    for loc in LOCALES:
        assert none[loc] != one[loc] and "0" not in none[loc].split("→")[-1], (loc, none[loc])


def test_counts_of_one_are_singular_in_english_and_the_same_word_elsewhere():
    g = game()
    g.stations_left[0], g.trains[0] = 1, 1
    # the card's short standings are figures beside emoji; the words are in Details
    en = next(line for line in details_lines(g, NAMES, "en") if line.startswith("Ann:"))
    assert "1 train" in en and "1 station" in en and "stations" not in en
    assert "0 points" in en                              # zero is "other" in English
    status = status_lines(g, NAMES, "en")
    ann = next(line for line in status if line.startswith("Ann:"))
    assert "1 train" in ann and "1 station" in ann and "1 trains" not in ann
    assert t("bot.unit.cards", "en", count=1) == "1 card" and t("bot.unit.cards", "en", count=2) == "2 cards"
    # Thai, Persian, Japanese: the counter does not change with the number
    for loc, one, many in (("th", "ตู้รถไฟ 1 ตู้", "ตู้รถไฟ 45 ตู้"), ("ja", "列車1両", "列車45両")):
        assert t("bot.unit.trains", loc, count=1) == one and t("bot.unit.trains", loc, count=45) == many
    assert t("bot.unit.trains", "fa", count=0) == t("bot.unit.trains", "fa", count=1).replace("1", "0")
