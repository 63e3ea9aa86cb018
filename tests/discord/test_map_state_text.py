"""The turn card's line for a map's own public state (discord/map_state_text.py): shares held,
the bullet track, ferry cards in hand, the game's bonus cards — and nothing hidden (the dummy's
companies) nor any line on a map without such state."""
from ttr_bot.ai import make_agent
from ttr_bot.discord.text.card_text import mark
from ttr_bot.discord.text.map_state_text import map_state_line
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.i18n import LOCALES
from ttr_bot.maps import load_board


def played(map_id, n=2, turns=60, seed=3):
    game = Game(load_board(map_id), n, Dealer(seed))
    agents = [make_agent("medium", seed * 10 + s) for s in range(n)]
    for _ in range(turns):
        if game.over:
            break
        for seat in game.to_move():
            game.apply(agents[seat].act(view(game, seat)))
    return game


def test_the_four_first_maps_have_no_extra_line():
    assert map_state_line(Game(load_board("usa"), 2, Dealer(1)), "en") is None


def test_pennsylvania_shows_each_players_shares_and_only_the_dummys_count():
    game = played("pennsylvania")
    line = map_state_line(game, "en")
    held = [sum(len(n) for n in h.values()) for h in game.extra["shares"]["held"]]
    dummy = sum(len(n) for n in game.extra["shares"]["dummy"].values())
    assert sum(held) > 0
    assert line == f"Shares: {mark(0)} {held[0]} {mark(1)} {held[1]} (dummy: {dummy})"


def test_japan_italy_northern_lights_show_their_state_in_every_language():
    japan, italy, north = played("japan"), played("italy"), played("northern_lights", turns=1)
    supply = japan.extra["bullet"]["supply"]
    assert f"Bullet Trains left: {supply})" in map_state_line(japan, "en")
    assert map_state_line(italy, "en").startswith("Ferry cards: ")
    cards = north.extra["bonus_cards"]["cards"]
    assert map_state_line(north, "en") == "Bonus cards: " + ", ".join(cards)
    for loc in LOCALES:
        for game in (japan, italy, north):
            line = map_state_line(game, loc)
            assert line and "{" not in line


def test_a_colour_blind_game_marks_each_seat_as_its_standings_do():
    """The line sits under the standings: each seat after the mark the standings give it in
    the game's palette (🟫 for the colour-blind palette's brown seat, never the standard 🟦)."""
    from ttr_bot.discord.text.card_text import standings_lines
    from ttr_bot.render.palette import COLOURBLIND
    for game in (played("pennsylvania"), played("japan"), played("italy")):
        line = map_state_line(game, "en", COLOURBLIND)
        names = ["Ann", "Bea"]
        standings = "\n".join(standings_lines(game, names, "en", COLOURBLIND))
        for seat in range(game.n):
            assert mark(seat, COLOURBLIND) in line and mark(seat, COLOURBLIND) in standings
        assert mark(1) not in line and mark(1) != mark(1, COLOURBLIND)
