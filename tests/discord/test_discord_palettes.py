"""The colour palette of a picture, without Discord: the picture cache keeps a colour-blind
picture apart from the standard one of the same state (the key holds the palette), the game's
option and a user's setting are read as palettes.py says, and the service knows exactly the
palettes the renderer draws."""
import pytest
import pytest_asyncio

from tests.discord.adapter_kit import new_game
from ttr_bot.discord.palettes import game_palette
from ttr_bot.discord.posting.pictures import Pictures, picture_key
from ttr_bot.render import palette as P
from ttr_bot.render import render_board, render_final, render_map
from ttr_bot.service import GAME_PALETTE, PALETTES, ServiceError
from ttr_bot.service.lobby import game_options
from ttr_bot.workers import WorkerPool

NAMES = ["Ann", "Bo", "Cy"]


@pytest_asyncio.fixture
async def pool():
    p = WorkerPool(1, preload=("ttr_bot.render",))
    await p.start()
    yield p
    await p.close()


def play(game, moves):
    for _ in range(moves):
        seat = game.to_move()[0]
        game.apply(game.legal_actions(seat)[0])
    return game


def test_the_service_offers_the_renderers_palettes():
    assert set(PALETTES) == set(P.SCHEMES) and PALETTES[0] == P.STANDARD


def test_the_cache_key_holds_the_palette():
    game = play(new_game("usa"), 3)
    standard = picture_key(game, NAMES, 0)
    assert picture_key(game, NAMES, 0, palette="standard") == standard    # the old keys stay
    assert picture_key(game, NAMES, 0, palette="colourblind") != standard
    assert (picture_key(game, NAMES, None, kind="map", palette="colourblind")
            != picture_key(game, NAMES, None, kind="map"))
    assert (picture_key(game, NAMES, final=True, palette="colourblind")
            != picture_key(game, NAMES, final=True))


@pytest.mark.asyncio
async def test_each_palette_is_drawn_and_cached_apart(pool):
    pictures = Pictures(pool)
    game = play(new_game("usa"), 3)
    std = await pictures.render(game, NAMES, viewer=0)
    cb = await pictures.render(game, NAMES, viewer=0, palette="colourblind")
    assert std == render_board(game, NAMES, 0)
    assert cb == render_board(game, NAMES, 0, palette="colourblind") != std
    assert pictures.stats["drawn"] == 2
    assert await pictures.render(game, NAMES, viewer=0, palette="colourblind") == cb
    assert pictures.stats == {"drawn": 2, "reused": 1, "failed": 0}
    public = await pictures.map(game, NAMES, palette="colourblind")
    assert public == render_map(game, NAMES, palette="colourblind")
    final = await pictures.render(game, NAMES, final=True, palette="colourblind")
    assert final == render_final(game, NAMES, palette="colourblind")


def test_the_games_option_is_checked_and_read():
    assert game_options({GAME_PALETTE: "colourblind"})[GAME_PALETTE] == "colourblind"
    with pytest.raises(ServiceError):
        game_options({GAME_PALETTE: "sepia"})

    class Hosted:
        options = {}
    assert game_palette(Hosted) == "standard"
    Hosted.options = {GAME_PALETTE: "colourblind"}
    assert game_palette(Hosted) == "colourblind"
    Hosted.options = {GAME_PALETTE: "no longer offered"}      # an old game: standard
    assert game_palette(Hosted) == "standard"
