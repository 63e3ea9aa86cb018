"""One renderer per kind of owed post (posting/renderers.py): every message type the service
can owe has exactly one, registered with `Delivery.on` as the service's features register their
timer kinds; a second registration of a type is refused; every renderer class in posting/ is in
the list the bot gives its Delivery."""
import ast
import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from ttr_bot.discord.posting import renderers
from ttr_bot.discord.posting.delivery import Delivery
from ttr_bot.discord.posting.renderers import RENDERERS
from ttr_bot.service.messages import KINDS, OwedMessage, Unreadable
from ttr_bot.service.owed import channel_lane

POSTING = Path(renderers.__file__).parent


def delivery(makers=RENDERERS):
    return Delivery(SimpleNamespace(clock=time.time), renderers=makers)


def test_every_kind_the_service_owes_has_one_renderer():
    d = delivery()
    assert d.kinds == frozenset(KINDS.values())
    # and each is the method of one renderer object, not a shared catch-all
    owners = {type(d._renderers[k].__self__).__name__ for k in d.kinds}
    assert owners == {r.__name__ for r in RENDERERS}


def test_a_kind_registered_twice_is_refused():
    with pytest.raises(ValueError, match="TurnPost already has a renderer"):
        delivery((*RENDERERS, RENDERERS[1]))


def test_nothing_renders_without_a_registered_renderer():
    d = delivery(())
    assert d.kinds == frozenset()
    row = OwedMessage(id=7, lane=channel_lane(1), message=Unreadable("x", {}, "unknown kind"),
                      game_id=None, seq=None, held=False, due_at=0.0, created_at=0.0,
                      attempts=0)
    with pytest.raises(ValueError, match="outbox row 7 cannot be read"):
        asyncio.run(d.handle(row))


def test_every_renderer_class_in_posting_is_listed():
    """A class in posting/ that registers with `delivery.on` but is not in RENDERERS would
    never be constructed: its posts would fail as unreadable."""
    registering = set()
    for path in POSTING.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                    and c.func.attr == "on" and isinstance(c.func.value, ast.Name)
                    and c.func.value.id == "delivery"
                    for c in ast.walk(node)):
                registering.add(node.name)
    assert registering == {r.__name__ for r in RENDERERS}
