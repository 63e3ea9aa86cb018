"""What a click on a persistent button or menu does: a registry from the component's kind to the
controller function that handles it.

The components (components.py) only know how a control looks and which kind it is; the
controllers (moves.py, cogs/lobby.py, cogs/seats.py) register what a click of each kind does:

    @on_click("draw")
    async def draw_clicked(interaction, item): ...

so the controllers depend on the components, never the reverse.
"""
from collections.abc import Awaitable, Callable

from ..client_of import bot_of
from ..errors import UserFacing

HANDLERS: dict[str, Callable[..., Awaitable[object]]] = {}   # kind -> its controller


def on_click(kind):
    def register(handler):
        if kind in HANDLERS:
            raise ValueError(f"two handlers for clicks of {kind!r}")
        HANDLERS[kind] = handler
        return handler
    return register


async def dispatch(kind, interaction, item):
    """Run the handler of `kind` for a click on `item` (a component rebuilt from its custom
    id: its fields are attributes), once the clicking player is known to be still a member of
    the game's server when the click comes from a DM (membership.py)."""
    try:
        handler = HANDLERS[kind]
    except KeyError:
        raise LookupError(f"no handler registered for clicks of {kind!r}") from None
    membership = getattr(bot_of(interaction), "membership", None)
    if membership is not None:
        await membership.check_click(interaction, item)
    await handler(interaction, item)


def chosen(item):
    """The one value picked in a menu click. Discord's client always sends what the menu
    allows; a click with no value or several (an old or forged interaction) is refused like
    an out-of-date control, never an IndexError."""
    values = getattr(item.item, "values", None) or []
    if len(values) != 1 or not isinstance(values[0], str):
        raise UserFacing("bot.error.old_control")
    return values[0]
