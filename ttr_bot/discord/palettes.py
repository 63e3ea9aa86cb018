"""Which colours a picture is drawn in (render/palette.py SCHEMES): a player's own pictures
(their private board, in "My hand", /ttr hand and the hand DM) in their /ttr me colours choice;
a game's public pictures (the turn posts, /ttr status, the final picture) in the game's
colours option (/ttr new colours:), which everyone in the channel sees alike."""
from ..service import GAME_PALETTE, PALETTES

STANDARD = "standard"


def game_palette(hosted):
    """The palette of the game's public pictures."""
    chosen = (getattr(hosted, "options", None) or {}).get(GAME_PALETTE)
    return chosen if chosen in PALETTES else STANDARD


async def user_palette(bot, user_id):
    """The palette of a user's own pictures (standard for a computer seat or no choice)."""
    if user_id is None:
        return STANDARD
    chosen = await bot.service.adapter_state.user_palette(user_id)
    return chosen if chosen in PALETTES else STANDARD


async def seat_palette(bot, hosted, seat):
    """The palette of the private board of `seat`: its player's own choice."""
    seats = getattr(hosted, "seats", None) or ()
    return await user_palette(bot, seats[seat].user_id if 0 <= seat < len(seats) else None)
