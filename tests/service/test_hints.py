"""/ttr hint through the service: off unless the host allowed it, only for the asking player's
own decision, worked out from their own view; the hint's move is the move `expert` then plays in
that seat in the same position; a game that allowed hints is never rated."""
import random

import pytest

from tests.ai.aikit import LIGHT
from tests.service.svckit import make_service, play_one, play_to_end, users_for
from ttr_bot.ai import make_agent
from ttr_bot.game_record import action_to_json
from ttr_bot.service import GAME_HINTS, ServiceError
from ttr_bot.service.core import SEAT_NAMES

pytestmark = pytest.mark.asyncio


def light(level, seed=0):
    return make_agent(level, seed, **LIGHT.get(level, {}))


async def refused(key, coro):
    with pytest.raises(ServiceError) as caught:
        await coro
    assert caught.value.key == key, caught.value.key


async def game(svc, channel, hints=True, players=2):
    users = users_for(channel, players)
    options = {GAME_HINTS: True} if hints else None
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=users[0],
                                        name=f"P{users[0]}", map_id="usa", options=options)
    for u in users[1:]:
        await svc.lobby.join(channel, u, f"P{u}")
    await svc.lobby.start(channel, users[0])
    return loaded.id, users


async def test_hints_are_off_unless_the_host_allowed_them(store):
    svc = make_service(store, agents=light)
    game_id, users = await game(svc, 300, hints=False)
    await refused("service.hints_off", svc.hints.hint(game_id, users[0]))
    with pytest.raises(ServiceError):
        await svc.lobby.open_lobby(guild_id=1, channel_id=301, user_id=3010, name="x", map_id="usa",
                                   options={GAME_HINTS: "yes"})


async def test_a_hint_is_the_move_expert_then_plays_there(store):
    svc = make_service(store, agents=light)
    game_id, users = await game(svc, 302)
    await refused("service.not_a_player", svc.hints.hint(game_id, 999))
    rng = random.Random(4)
    while (await svc.load(game_id)).game.phase == "setup" or len((await svc.load(game_id)).game.to_move()) > 1:
        await play_one(svc, game_id, rng)
    for _ in range(12):             # into the game a little: a plan, claims, cards
        await play_one(svc, game_id, rng)
    hosted = await svc.load(game_id)
    seat = hosted.game.to_move()[0]
    other = users[1 - seat]
    await refused("service.hint_not_yours", svc.hints.hint(game_id, other))
    hint = await svc.hints.hint(game_id, users[seat])
    assert hint.seq == hosted.seq and hint.seat == seat
    assert hosted.game.check(hint.action) is None
    if hint.ticket is not None:
        assert hint.ticket in hosted.game.tickets[seat]
    if hint.feared is not None:
        assert hosted.game.owner[hint.feared] < 0
    # the player hands the seat to expert: it plays exactly the hinted move
    expected = action_to_json(hosted.game, hint.action, SEAT_NAMES[:hosted.game.n])
    await svc.handover.hand_to_bot(game_id, seat, "expert")
    assert (await svc.load(game_id)).seq == hint.seq
    assert await svc.moves.play_bot(game_id) is not None
    last = (await store.load_actions(game_id))[-1]
    assert last.seq == hint.seq + 1 and last.actor == seat and last.action == expected


async def test_a_game_that_allowed_hints_is_not_rated(store):
    svc = make_service(store, agents=light)
    game_id, users = await game(svc, 304)
    effects = await play_to_end(svc, game_id, random.Random(2))
    assert effects[-1].over
    rating = await svc.records.game_rating(game_id)
    assert not rating.rated and rating.reason == "bot.ratings.unrated.hints" and not rating.changes
    assert await svc.records.stored_ratings(1, users) == {}


async def test_the_hint_reads_as_one_line_in_every_language(store):
    """What the player reads: one line naming the move, and the ticket or route behind it."""
    from ttr_bot.discord.commands.hint import hint_line
    from ttr_bot.i18n import LOCALES
    svc = make_service(store, agents=light)
    game_id, users = await game(svc, 306)
    hosted = await svc.load(game_id)
    hint = await svc.hints.hint(game_id, users[0])            # the starting tickets to keep
    board = hosted.board
    for loc in LOCALES:
        line = hint_line(board, hint, loc)
        assert "\n" not in line and "{" not in line and len(line) < 400
        assert board.tickets[hint.action.tickets[0]].label() in line
