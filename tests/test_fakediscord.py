"""End-to-end checks of testkit/fakediscord with a tiny, real discord.py bot.

Everything runs offline on 127.0.0.1: the unmodified discord.py client logs in over REST,
connects to the fake gateway, syncs its command tree and answers interactions.
"""
from __future__ import annotations

import asyncio
import io
from typing import Optional

import discord
import jsonschema
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from testkit.fakediscord import FakeDiscord, ManualClock, limits
from testkit.fakediscord import spec as spec_module
from testkit.fakediscord.spec import SpecValidator
from testkit.fakediscord.state import EVERYONE_PERMISSIONS, PRIVATE_THREAD, P

PNG = b"\x89PNG\r\n\x1a\n" + b"fake map bytes" * 10
RULES = b"Claim routes, complete tickets."
CITIES = ["Atlanta", "Boston", "Calgary", "Chicago", "Charleston", "Denver"]


# --------------------------------------------------------------------------- the tiny bot
class DrawView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Draw", custom_id="ttr:draw", style=discord.ButtonStyle.primary)
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"{interaction.user.name} drew a card", view=self)


class ColourView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(custom_id="ttr:colour", placeholder="Pick a colour",
                       options=[discord.SelectOption(label=c, value=c.lower()) for c in ("Red", "Blue", "Green")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()  # on a component: DEFERRED_UPDATE_MESSAGE (6)
        await interaction.edit_original_response(content=f"{interaction.user.name} plays {select.values[0]}",
                                                 view=None)


class NameModal(discord.ui.Modal, title="Name your game"):
    game_name = discord.ui.TextInput(label="Game name", custom_id="ttr:game-name", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Game named {self.game_name.value}",
                                                file=discord.File(io.BytesIO(RULES), "rules.txt"))


class JoinView(discord.ui.View):
    """Persistent: timeout=None and a fixed custom_id, re-registered with add_view() at startup."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="ttr:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        generation = interaction.client.generation  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{interaction.user.name} joined (bot #{generation})", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, generation: int = 1, sync_guild: Optional[int] = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.generation = generation
        self.sync_guild = sync_guild
        self.gate = asyncio.Event()  # /ttr slow waits for it
        self.late_followup_error: Optional[Exception] = None

    async def setup_hook(self) -> None:
        self.add_view(JoinView())
        ttr = app_commands.Group(name="ttr", description="Ticket to Ride")

        @ttr.command(name="ping", description="Check the bot answers")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @ttr.command(name="board", description="Show a board with a Draw button")
        async def board(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Board", description="5 face-up cards").add_field(name="Deck", value="105")
            await interaction.response.send_message("Your turn", embed=embed, view=DrawView())

        async def city_autocomplete(interaction: discord.Interaction, current: str):
            return [app_commands.Choice(name=c, value=c) for c in CITIES if c.lower().startswith(current.lower())]

        @ttr.command(name="route", description="Claim a route")
        @app_commands.autocomplete(city=city_autocomplete)
        async def route(interaction: discord.Interaction, city: str, cars: int = 1) -> None:
            await interaction.response.send_message(f"route to {city} with {cars} cars", ephemeral=True)

        @ttr.command(name="map", description="Render the map")
        async def map_(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.01)  # "rendering"
            await interaction.followup.send("the map", file=discord.File(io.BytesIO(PNG), "map.png"))
            await interaction.followup.send("only you see this", ephemeral=True)

        @ttr.command(name="lobby", description="Open a lobby")
        async def lobby(interaction: discord.Interaction) -> None:
            await interaction.channel.send("Lobby open", view=JoinView())  # type: ignore[union-attr]
            await interaction.response.send_message("lobby created", ephemeral=True)

        @ttr.command(name="dm", description="DM someone their tickets")
        async def dm(interaction: discord.Interaction, player: discord.User) -> None:
            try:
                await player.send("Your tickets: Boston - Miami")
            except discord.Forbidden as e:
                await interaction.response.send_message(f"cannot DM {player.name} (code {e.code})", ephemeral=True)
            else:
                await interaction.response.send_message(f"sent to {player.name}", ephemeral=True)

        @ttr.command(name="colour", description="Pick a colour")
        async def colour(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick your colour", view=ColourView())

        @ttr.command(name="new", description="Name a new game")
        async def new(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @ttr.command(name="boom", description="A command with a bug")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("boom: the bot has a bug")

        @ttr.command(name="slow", description="Answers when the test opens the gate")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await self.gate.wait()
            try:
                await interaction.followup.send("finally")
            except discord.HTTPException as e:
                self.late_followup_error = e

        self.tree.add_command(ttr)
        if self.sync_guild:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        await self.tree.sync()


# --------------------------------------------------------------------------- fixtures
class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Rails")
        self.general = fake.add_text_channel(self.guild, "general")
        self.alice = fake.add_user("alice", guild=self.guild)
        self.bob = fake.add_user("bob", guild=self.guild, dms_closed=True)


@pytest_asyncio.fixture
async def fake():
    f = FakeDiscord()
    await f.start()
    yield f
    await f.stop()


@pytest_asyncio.fixture
async def world(fake):
    return World(fake)


@pytest_asyncio.fixture
async def bot(fake, world):
    b = TinyBot()
    await fake.start_bot(b)
    yield b
    await fake.stop_bot(b)


# --------------------------------------------------------------------------- tests
@pytest.mark.asyncio
async def test_login_sync_and_slash_command(fake, world, bot):
    # discord.py really talked to the fake: REST login, gateway identify (zlib-stream), tree sync.
    assert Route.BASE == fake.base_url + "/api/v10"
    assert fake.gateway.identify_count == 1
    assert fake.gateway.connect_queries[0]["compress"] == "zlib-stream"
    assert fake.gateway.compressed_connections == 1
    assert bot.user.id == fake.bot_user.id and bot.application_id == fake.state.application_id
    assert any(f["op"] == 1 for f in fake.gateway.frames_received) and bot.latency < 1  # heartbeat ACKed
    guild = bot.get_guild(world.guild.id)
    assert guild.me is not None and guild.member_count == 4  # owner, bot, alice, bob
    ttr = fake.commands()["ttr"]
    assert {o["name"] for o in ttr["options"]} >= {"ping", "board", "route", "map", "lobby", "dm"}

    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")
    reply = await inter.response()
    assert (reply.type, reply.content, reply.ephemeral) == (4, "pong", False)
    assert reply.latency < 3
    assert [m.content for m in fake.messages_in(world.general)] == ["pong"]
    assert inter.original.interaction_metadata["user"]["id"] == str(world.alice.id)
    fake.assert_clean()


@pytest.mark.asyncio
async def test_slash_helper_checks_options_like_the_client(fake, world, bot):
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash(world.alice, world.general, "ttr", subcommand="route")
    with pytest.raises(ValueError, match="unknown option"):
        await fake.slash(world.alice, world.general, "ttr", subcommand="ping", options={"x": 1})
    with pytest.raises(LookupError, match="not registered"):
        await fake.slash(world.alice, world.general, "nope")


@pytest.mark.asyncio
async def test_button_click_edits_the_message(fake, world, bot):
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="board")
    await inter.response()
    board = inter.original
    assert board.custom_ids() == ["ttr:draw"] and board.custom_id_for("Draw") == "ttr:draw"
    assert board.embeds[0]["title"] == "Board" and "105" in board.text()
    # discord.py stores the message's view only after Discord has answered the send: until its
    # handler has ended, a click may arrive before the view is there to take it
    await fake.idle()

    click = await fake.click(world.alice, board, "ttr:draw")
    update = await click.response()
    assert update.type == 7  # UPDATE_MESSAGE
    assert board.content == "alice drew a card"
    assert board.buttons()[0]["disabled"] is True
    assert board.history[0]["content"] == "Your turn"
    assert len(fake.messages_in(world.general)) == 1  # edited in place, nothing new
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(world.alice, board, "ttr:draw")
    fake.assert_clean()


@pytest.mark.asyncio
async def test_select_with_deferred_update_then_edit_original(fake, world, bot):
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="colour")
    await inter.response()
    msg = inter.original
    await fake.idle()       # the view is stored once the handler has ended (see above)
    with pytest.raises(ValueError, match="not among the options"):
        await fake.select(world.alice, msg, "ttr:colour", ["purple"])
    pick = await fake.select(world.alice, msg, "ttr:colour", ["blue"])
    assert (await pick.response()).type == 6  # DEFERRED_UPDATE_MESSAGE
    await fake.idle()
    assert msg.content == "alice plays blue" and msg.components == []
    fake.assert_clean()


@pytest.mark.asyncio
async def test_modal_then_response_with_file(fake, world, bot):
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="new")
    shown = await inter.response()
    assert shown.type == 9 and inter.modal["title"] == "Name your game"
    submit = await fake.submit_modal(world.alice, inter, {"ttr:game-name": "Rails & Sails"})
    reply = await submit.response()
    assert reply.type == 4 and reply.content == "Game named Rails & Sails"
    assert reply.files == {"rules.txt": RULES} and submit.original.files == {"rules.txt": RULES}
    fake.assert_clean()


@pytest.mark.asyncio
async def test_guild_sync_and_threads(fake, world):
    bot = TinyBot(sync_guild=world.guild.id)
    await fake.start_bot(bot)
    assert "ttr" in fake.commands(world.guild) and fake.commands() == {}
    channel = bot.get_channel(world.general.id)
    thread = await channel.create_thread(name="game-1", type=discord.ChannelType.public_thread)
    await thread.send("All aboard")
    fake_thread = fake.state.channels[thread.id]
    assert fake_thread.parent_id == world.general.id
    assert [m.content for m in fake.messages_in(fake_thread)] == ["All aboard"]
    assert (await bot.fetch_channel(thread.id)).name == "game-1"
    inter = await fake.slash(world.alice, fake_thread, "ttr", subcommand="ping")
    assert inter.payload["data"]["guild_id"] == str(world.guild.id)
    assert (await inter.response()).content == "pong"
    assert [m.content for m in fake.messages_in(fake_thread)] == ["All aboard", "pong"]

    temp = await thread.send("typo")
    await temp.edit(content="fixed")
    assert fake.messages_in(fake_thread)[-1].content == "fixed"
    await temp.delete()
    assert [m.content for m in fake.messages_in(fake_thread)] == ["All aboard", "pong"]
    assert [m.content async for m in thread.history(limit=10)] == ["pong", "All aboard"]

    # A user writes: MESSAGE_CREATE reaches the bot, without content (no message_content intent).
    waiter = asyncio.create_task(bot.wait_for("message", check=lambda m: m.author.id == world.alice.id))
    await asyncio.sleep(0)
    await fake.post_message(world.alice, world.general, "hello bot")
    seen = await asyncio.wait_for(waiter, 2)
    assert seen.channel.id == world.general.id and seen.content == ""
    await fake.stop_bot(bot)
    fake.assert_clean()


@pytest.mark.asyncio
async def test_a_thread_without_the_permission_is_refused_with_50013(fake):
    """Without Create Public Threads (on the bot's roles and @everyone), a public thread gets
    403 50013 and none is made; a private one needs Create Private Threads instead."""
    no_threads = EVERYONE_PERMISSIONS & ~P["create_public_threads"]
    guild = fake.add_guild("Strict", everyone_permissions=no_threads,
                           bot_permissions=no_threads | P["create_private_threads"])
    general = fake.add_text_channel(guild, "general")
    bot = TinyBot()
    await fake.start_bot(bot)
    channel = bot.get_channel(general.id)
    with pytest.raises(discord.Forbidden) as err:
        await channel.create_thread(name="game-1", type=discord.ChannelType.public_thread)
    assert err.value.status == 403 and err.value.code == 50013
    assert [c for c in fake.state.channels.values() if c.parent_id == general.id] == []
    private = await channel.create_thread(name="quiet", type=discord.ChannelType.private_thread)
    assert fake.state.channels[private.id].type == PRIVATE_THREAD
    await fake.stop_bot(bot)
    fake.assert_clean()


@pytest.mark.asyncio
async def test_dm_to_user_with_closed_dms_raises_forbidden_50007(fake, world, bot):
    bob = await bot.fetch_user(world.bob.id)
    with pytest.raises(discord.Forbidden) as err:
        await bob.send("hello")
    assert err.value.status == 403 and err.value.code == 50007
    assert err.value.text == "Cannot send messages to this user"

    # The same through a command: the bot catches it and tells the invoker.
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="dm", options={"player": world.bob})
    reply = await inter.response()
    assert reply.ephemeral and "code 50007" in reply.content
    assert fake.dms_to(world.bob) == [] and len(fake.blocked_dms) == 2

    inter = await fake.slash(world.bob, world.general, "ttr", subcommand="dm", options={"player": world.alice})
    assert (await inter.response()).content == "sent to alice"
    assert [m.content for m in fake.dms_to(world.alice)] == ["Your tickets: Boston - Miami"]
    assert [m.content for m in fake.ephemeral_replies_to(world.bob)] == ["sent to alice"]

    # Commands work in the bot's DM channel too (payload carries `user`, not `member`).
    inter = await fake.slash(world.alice, fake.dm_channel(world.alice), "ttr", subcommand="ping")
    assert "member" not in inter.payload and (await inter.response()).content == "pong"
    assert [m.content for m in fake.dms_to(world.alice)] == ["Your tickets: Boston - Miami", "pong"]
    fake.assert_clean()


@pytest.mark.asyncio
async def test_autocomplete_then_command(fake, world, bot):
    ac = await fake.autocomplete(world.alice, world.general, "ttr", subcommand="route",
                                 options={"city": "ch"}, focused="city")
    result = await ac.response()
    assert result.type == 8
    assert [c["name"] for c in result.choices] == ["Chicago", "Charleston"]

    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="route",
                             options={"city": "Chicago", "cars": 4})
    reply = await inter.response()
    assert reply.content == "route to Chicago with 4 cars" and reply.ephemeral
    assert fake.messages_in(world.general) == []  # ephemeral: not visible in the channel
    assert [m.content for m in fake.ephemeral_replies_to(world.alice)] == ["route to Chicago with 4 cars"]
    fake.assert_clean()


@pytest.mark.asyncio
async def test_deferred_response_then_followup_with_file(fake, world, bot):
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="map")
    first = await inter.response()
    assert first.type == 5  # deferred ("thinking")
    filled = await inter.followup(0)
    assert filled.id == inter.original_message_id  # first follow-up fills the thinking message
    assert not filled.loading and filled.content == "the map"
    assert filled.files == {"map.png": PNG}
    second = await inter.followup(1)
    assert second.ephemeral and second.content == "only you see this"
    assert [m.content for m in fake.messages_in(world.general)] == ["the map"]
    # The attachment is downloadable from the URL the bot was given.
    msg = await bot.get_channel(world.general.id).fetch_message(filled.id)
    assert await msg.attachments[0].read() == PNG
    fake.assert_clean()


@pytest.mark.asyncio
async def test_restart_new_client_identifies_and_persistent_view_still_works(fake, world):
    bot1 = TinyBot(generation=1)
    await fake.start_bot(bot1)
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="lobby")
    await inter.response()
    lobby = fake.last_message(world.general)
    assert lobby.content == "Lobby open" and lobby.custom_ids() == ["ttr:join"]
    ids_before = {c.name: c.id for c in fake.state.commands.values()}
    await fake.stop_bot(bot1)

    bot2 = TinyBot(generation=2)
    await fake.start_bot(bot2)
    assert fake.gateway.identify_count == 2 and fake.sync_count == 2
    assert {c.name: c.id for c in fake.state.commands.values()} == ids_before  # re-sync keeps ids
    click = await fake.click(world.bob, lobby, "ttr:join")
    reply = await click.response()
    assert reply.content == "bob joined (bot #2)" and reply.ephemeral
    await fake.stop_bot(bot2)
    fake.assert_clean()


@pytest.mark.asyncio
async def test_server_side_disconnect_resume_and_gateway_restart(fake, world, bot):
    async with fake.outage():  # sockets drop, sessions survive, the gateway stays silent meanwhile
        inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")  # queued
        await asyncio.sleep(0.05)
        assert not inter.acknowledged
    assert (await inter.response()).content == "pong"  # replayed after RESUME
    assert fake.gateway.resume_count == 1 and fake.gateway.identify_count == 1

    await fake.disconnect()  # plain drop: the client resumes at once
    await asyncio.sleep(0.05)
    await fake.wait_connected()
    assert fake.gateway.resume_count == 2
    await fake.gateway.send_reconnect()  # op 7: the client reconnects and resumes
    await asyncio.sleep(0.05)
    await fake.wait_connected()
    assert fake.gateway.resume_count == 3

    await fake.restart()  # Discord forgets sessions: RESUME is refused, the client identifies again
    await asyncio.sleep(0.05)
    await fake.wait_connected()
    assert fake.gateway.identify_count == 2
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")
    assert (await inter.response()).content == "pong"
    fake.assert_clean()


@pytest.mark.asyncio
async def test_uncompressed_gateway_is_tolerated():
    async with FakeDiscord(compression=False) as fake:
        world = World(fake)
        bot = TinyBot()
        await fake.start_bot(bot)
        assert fake.gateway.compressed_connections == 0
        inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")
        assert (await inter.response()).content == "pong"


@pytest.mark.asyncio
async def test_spec_and_limit_violations_are_detected(fake, world, bot):
    assert fake.spec_violations == []
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.general.id)
    await bot.http.request(route, json={"content": "ok", "embeds": "not-a-list"})
    assert len(fake.spec_violations) == 1
    assert "$['embeds']" in fake.spec_violations[0].message

    channel = bot.get_channel(world.general.id)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x" * 2001)
    assert err.value.status == 400 and err.value.code == 50035
    assert any("2001 chars" in v.message for v in fake.limit_violations)
    with pytest.raises(AssertionError, match="fake Discord saw problems"):
        fake.assert_clean()


@pytest.mark.asyncio
async def test_late_response_and_expired_token_are_recorded():
    clock = ManualClock()
    async with FakeDiscord(clock=clock) as fake:
        world = World(fake)
        bot = TinyBot()
        await fake.start_bot(bot)
        # On time: deferred immediately (fake time does not move), no timing violation.
        inter = await fake.slash(world.alice, world.general, "ttr", subcommand="slow")
        assert (await inter.response()).type == 5
        assert fake.timing_violations == []
        # The token dies after 15 minutes: the follow-up is refused with 401 50027.
        clock.advance(16 * 60)
        bot.gate.set()
        await fake.idle()
        assert isinstance(bot.late_followup_error, discord.HTTPException)
        assert bot.late_followup_error.code == 50027
        assert "15 min" in fake.timing_violations[0].message

        # An initial response more than 3 s after the interaction is recorded too (not refused,
        # unless FakeDiscord(strict_timing=True)).
        inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")
        clock.advance(4)  # no await since the dispatch: the bot cannot have answered yet
        reply = await inter.response()
        assert reply.latency == 4 and reply.content == "pong"
        assert "after 4.00s (limit 3s)" in fake.timing_violations[-1].message

        # strict_timing: refused like real Discord does (404 Unknown interaction).
        fake.strict_timing = True
        inter = await fake.slash(world.alice, world.general, "ttr", subcommand="ping")
        clock.advance(4)
        await fake.idle()
        assert not inter.acknowledged
        assert any("Unknown interaction" in e for e in fake.bot_errors())


@pytest.mark.asyncio
async def test_idle_is_counted_not_timed(fake, world, bot):
    """idle() waits for what the bot is still doing, however quiet it is meanwhile: a deferred
    command's handler still runs (no request for a long while), so it is not idle until the
    follow-up is in."""
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="slow")
    assert (await inter.response()).type == 5
    with pytest.raises(TimeoutError, match="CommandTree-invoker"):
        await fake.idle(timeout=0.3)
    assert fake.busy() and fake.in_flight == 0
    bot.gate.set()
    await fake.idle()
    assert fake.busy() == [] and inter.followups[0].content == "finally"
    fake.assert_clean()


@pytest.mark.asyncio
async def test_bot_errors_surface_in_timeouts(fake, world, bot):
    inter = await fake.slash(world.alice, world.general, "ttr", subcommand="boom")
    with pytest.raises(TimeoutError, match="boom: the bot has a bug"):
        await inter.response(timeout=0.3)
    with pytest.raises(AssertionError, match=r"\[bot error\]"):
        fake.assert_clean()


def test_spec_validator_unit(monkeypatch):
    v = SpecValidator()
    assert v.operation("PATCH", "/api/v10/webhooks/1/tok/messages/@original")[0] == \
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert v.validate("POST", "/api/v10/channels/1/messages",
                      {"content": "hi", "attachments": [{"id": 0, "filename": "a.png"}]}) == []
    assert v.validate("POST", "/api/v10/users/@me/channels", {"recipient_id": 123}) == []  # int snowflake ok
    assert v.validate("POST", "/api/v10/users/@me/channels", {"recipient_id": "12x"}) != []
    errors = v.validate("POST", "/api/v10/interactions/1/t/callback", {"type": 4, "data": {"content": "x" * 2001}},
                        query={"with_response": "1"})
    assert len(errors) == 1 and "$['data']['content']" in errors[0] and "maxLength" in errors[0]
    assert v.validate("POST", "/api/v10/interactions/1/t/callback", {"type": 8, "data": {"choices": [
        {"name": "a", "value": "a"}] * 26}}) != []
    assert v.validate("GET", "/api/v10/no/such/route", None) == ["path not in the API spec"]
    card = {"flags": 1 << 15, "components": [{"type": 17, "components": [
        {"type": 10, "content": "turn"},
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "go", "custom_id": "a"}]}]}]}
    assert v.validate("POST", "/api/v10/channels/1/messages", card) == []
    card["components"][0]["components"][1]["components"][0]["style"] = 9   # no such style
    errors = v.validate("POST", "/api/v10/channels/1/messages", card)
    assert len(errors) == 1 and errors[0].startswith("$['components'][0]['components'][1]"), errors
    # were the explaining validator to find nothing wrong, the fast one's verdict still stands
    key = (v.path, "/channels/{channel_id}/messages", "POST", "application/json")
    monkeypatch.setitem(spec_module._COMPILED, key, (spec_module._COMPILED[key][0],
                                                     jsonschema.Draft202012Validator({})))
    errors = v.validate("POST", "/api/v10/channels/1/messages", card)
    assert len(errors) == 1 and errors[0].startswith("jsonschema-rs: "), errors
    assert v.validate("POST", "/api/v10/channels/1/messages", {"content": "x"}, query={"bogus": "1"}) != []


def test_limits_unit():
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"}
                                     for i in range(6)]}
    assert any("6 buttons" in p for p in limits.check_message({"components": [row]}))
    assert any("action rows" in p for p in limits.check_message(
        {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": f"r{i}"}]}
                        for i in range(6)]}))
    assert any("custom_id" in p for p in limits.check_components(
        [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "x" * 101}]}]))
    assert any("26 autocomplete" in p for p in limits.check_autocomplete(
        {"choices": [{"name": "a", "value": "a"}] * 26}))
    assert any("11 embeds" in p for p in limits.check_message({"embeds": [{"title": "t"}] * 11}))
    assert any("fields" in p for p in limits.check_message({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}))
    assert any("name" in p for p in limits.check_commands([{"name": "Bad Name", "description": "d"}], is_global=True))
    assert limits.check_message({"content": "fine", "components": [row | {"components": row["components"][:5]}]}) == []
