"""The core's public contract (service/core_contract.py): the core has every name of it, what a
change owes is an object the core holds (not a base class), and `write_game` writes in the one
transaction of the store method it is given, then wakes the outbox and drops the cached copy,
or, when that method refuses, does neither."""
import inspect

import pytest

from tests.service.svckit import lobby, make_service
from ttr_bot.service.core import Core
from ttr_bot.service.core_contract import CoreContract
from ttr_bot.service.owed import Owing
from ttr_bot.store import OutboxItem, Owed, SeatTaken

pytestmark = pytest.mark.asyncio


def _contract_names():
    return {n for n, v in vars(CoreContract).items()
            if not n.startswith("_") and (inspect.isfunction(v) or isinstance(v, property))}


async def test_the_core_has_every_name_of_its_contract_and_holds_its_owing(store):
    svc = make_service(store)
    names = _contract_names()
    assert {"apply", "cancel", "reload", "lock", "load", "write_game", "committed",
            "owing", "scheduler", "clock"} <= names
    missing = [n for n in names if not hasattr(svc.core, n)]
    assert not missing, missing
    assert Owing not in Core.__mro__
    assert isinstance(svc.core.owing, Owing)
    assert svc.core.owing.store is svc.core.store
    assert svc.core.owing.clock is svc.core.clock


async def test_write_game_wakes_the_outbox_and_drops_the_cached_copy(store):
    woken = []
    svc = make_service(store, on_outbox=lambda: woken.append(1))
    game_id = await lobby(svc, 4100, players=1)
    assert game_id in svc.core._cache
    woken.clear()
    owed = Owed((OutboxItem("notice", "channel:4100", {"key": "k"}),))
    await svc.core.write_game(game_id, store.write_owed(owed, game_id, 1.0), owed)
    assert woken == [1]
    assert game_id not in svc.core._cache

    # a write the store refuses: nothing woken, the cached copy kept
    hosted = await svc.core.load(game_id)
    with pytest.raises(SeatTaken):
        await svc.core.write_game(game_id, store.add_seat(
            game_id, 1, user_id=hosted.seats[0].user_id, display_name="again"), owed)
    assert woken == [1]
    assert game_id in svc.core._cache
