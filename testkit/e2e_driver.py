"""Drives the real bot through the fake Discord the way players would.

A `Table` owns the fake world (guild, channel, users) and the running bot; `Player.move()`
asks a computer player *what* a human would do (from that human's own view), then does it
through Discord: a slash command, or a click on the button or menu the bot showed — alternating
between the two so both paths are exercised. Nothing here calls the service to act: every
move goes through an interaction.

`Player(style=...)` picks the path: "mixed" (the default) alternates as above; "slash" does
every action by `/ttr ...` commands alone (claims with the value the route autocomplete
offers); "buttons" uses the button or menu the bot showed whenever one exists for the action
and falls back to a slash command only where none does (`Player.used` counts which path each
action took). A player whose agent would draw a second card blind after a first one draws both
with "2 from the deck" (one click or command; `twice=False`: one card at a time).
`open_game` opens a game the way people do (`/ttr new`, Join, Add a computer player, `/ttr
start`).

Used by the end-to-end tests (tests/discord/test_e2e*.py) and by the tools that run the real bot
over the fake Discord (tools/turn_card_sample.py, tools/bench/cards.py, channel.py, finale.py).
`tools.bench cards` and `channel` also play on older commits with that commit's driver (before
testkit/, tests/discord/e2e_driver.py): what they call of it (Table, Player, find_cid) keeps
its shape.
"""
import asyncio
import copy
import os
from collections import Counter

from ttr_bot.ai import make_agent
from ttr_bot.discord.bot import TTRBot
from ttr_bot.discord.config import Config
from ttr_bot.discord.controls import ids
from ttr_bot.discord.controls.components import DECK_TWICE
from ttr_bot.engine.actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawFerryCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
)
from ttr_bot.engine.cards import CARD_NAMES, LOCO
from ttr_bot.engine.view import view
from ttr_bot.service.clock import ManualClock

BAD_WORDS = ("Traceback", "Sorry, something went wrong")


class Table:
    """`clock` is the bot's: by default a `ManualClock` of the table's own (`self.clock`), so
    no game time passes unless a test advances it; computer players then move at once (a
    pause of `bot_delay`, 0 by default), on their timers, and a deadline is days of `advance`
    away. `real_time=True` gives the bot the wall clock (and computer players a 0.02 s pause),
    for the tests that are about real waiting."""

    def __init__(self, fake, db_path, *, bot_delay=None, clock=None, real_time=False, workers=0,
                 threads=False,
                 **bot_options):
        import time
        self.fake = fake
        # the bot's worker processes (TTR_WORKERS): none by default, so the many bots these
        # tests start do not each spawn a pool (tests/workers and test_e2e_pictures use one)
        self.workers = workers
        self.db_path = str(db_path)
        if clock is None:
            clock = time.time if real_time else ManualClock()
        self.clock = clock
        if bot_delay is None:
            bot_delay = 0.0 if isinstance(clock, ManualClock) else 0.02
        self.bot_delay = bot_delay
        self.bot_options = bot_options
        # `/ttr new` opens a thread by default; a table stays in its channel unless `threads`
        # (then it follows the game into its thread, as players do)
        self.threads = threads
        self.parent = None
        self.guild = fake.add_guild("Rails")
        self.channel = fake.add_text_channel(self.guild, "ticket-to-ride")
        self.bot = None
        self.generation = 0
        self.answers = []          # every ephemeral answer seen: (user, Message)

    async def start_bot(self, sync=False):
        self.generation += 1
        self.bot = TTRBot(Config(token=self.fake.token, db_path=self.db_path,
                                 workers=self.workers),
                          bot_delay=self.bot_delay, clock=self.clock, **self.bot_options)
        await self.fake.start_bot(self.bot)
        if sync:
            await self.bot.tree.sync()
        return self.bot

    async def restart_bot(self):
        await self.settle()
        self.last_id_before_restart = max(m.id for m in self.fake.messages_in(self.channel))
        await self.fake.stop_bot(self.bot)
        return await self.start_bot()

    async def settle(self, timeout=20.0):
        """Until the bot has finished reacting: every event reached it, no request or
        interaction is open at the fake Discord, discord.py's handlers have ended, and the
        bot is not `busy` (its timers due by now have fired, what it owes and is due by now is
        sent). Counted, not timed (FakeDiscord.idle)."""
        await self.bot.wait_until_ready()
        await self.fake.idle(timeout=timeout)

    async def game(self):
        """The channel's game; once it is over, the last one played here."""
        loaded = await self.bot.service.game_in_channel(self.channel.id)
        if loaded is not None:
            self.game_id = loaded.id
        elif getattr(self, "game_id", None) is not None:
            loaded = await self.bot.service.load(self.game_id)
        return loaded

    async def wait_for_humans(self, timeout=30.0):
        """Until a human is to move (computer players move on their timers) or the game ends.
        On a manual clock a computer's pause (`bot_delay`) is let pass; on the real clock it
        passes by itself."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            await self.settle()
            loaded = await self.game()
            if loaded is None or loaded.game.over or any(
                    loaded.seats[s].user_id for s in loaded.game.to_move()):
                return loaded
            if isinstance(self.clock, ManualClock):
                if not self.bot_delay:
                    raise AssertionError("a computer player is to move and nothing is due")
                self.clock.advance(self.bot_delay)
            else:
                await asyncio.sleep(self.bot_delay / 2)
        raise TimeoutError("computer players did not move")

    # ----- interactions -------------------------------------------------------------------------
    async def reply(self, handle):
        """The (first) ephemeral answer of an interaction, inline or after a deferral (checked
        for error texts)."""
        msg = await handle.answer(0, timeout=20)
        for bad in BAD_WORDS:
            assert bad not in msg.content, msg.content
        self.answers.append((handle.user, msg))
        return msg

    async def slash(self, user, sub, **options):
        known = set(self.fake.state.channels)
        follow = sub == "new" and "thread" not in options
        if follow and not self.threads:
            options["thread"] = False
        handle = await self.fake.slash(user, self.channel, "ttr", sub, options)
        reply = await self.reply(handle)
        if follow and self.threads:
            self._follow_into_thread(known)
        return reply

    def _follow_into_thread(self, known):
        """A game opens in a thread of its own by default: the table moves there, as the
        players do (`parent`: the channel, which keeps one line at the start and the end)."""
        made = [c for i, c in self.fake.state.channels.items()
                if i not in known and getattr(c, "parent_id", None) == self.channel.id]
        if made:
            self.parent, self.channel = self.channel, made[0]

    async def click(self, user, message, custom_id):
        handle = await self.fake.click(user, message, custom_id)
        return await self.reply(handle)

    async def select(self, user, message, custom_id, values):
        handle = await self.fake.select(user, message, custom_id, [str(v) for v in values])
        return await self.reply(handle)

    def public_messages(self):
        return [m for m in self.fake.messages_in(self.channel) if not m.ephemeral]

    def last_panel(self):
        """The latest public message with turn buttons."""
        for m in reversed(self.public_messages()):
            if any(c.startswith("ttr:draw:") for c in m.custom_ids()):
                return m
        return None


def find_cid(message, prefix):
    return next((c for c in message.custom_ids() if c.startswith(prefix)), None)


async def open_game(table, host, others, map_id="europe", bots=1):
    """`host` opens a game of `map_id` (`/ttr new`), `others` join it from the lobby, `bots`
    computer players are added, and the host starts it: the game's id."""
    await table.slash(host, "new", map=map_id)
    lobby = table.public_messages()[-1]
    game = lobby_game(lobby)
    for user in others:
        await table.click(user, lobby, f"ttr:lobby:{game}:join")
    for _ in range(bots):
        await table.select(host, lobby, find_cid(lobby, "ttr:addbot:"), ["easy"])
    await table.slash(host, "start")
    await table.settle()
    return game


def lobby_game(lobby):
    """The game id a lobby message's buttons name."""
    return int(find_cid(lobby, "ttr:lobby:").split(":")[2])


def _menu_with(message, prefix, value):
    """The custom id of the message's menu starting with `prefix` that offers `value`."""
    for cid in message.custom_ids():
        if cid.startswith(prefix) and str(value) in [
                o["value"] for o in message.component(cid).get("options", [])]:
            return cid
    return None


STYLES = ("mixed", "slash", "buttons")


class Player:
    """A human at the table, played by a computer player's judgement."""

    def __init__(self, table, user, level="easy", seed=0, style="mixed", twice=True):
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}")
        self.table = table
        self.user = user
        self.agent = make_agent(level, seed=seed)
        self.style = style
        self.count = 0
        self.pending = None        # the latest ephemeral answer with components (next step)
        self.used = Counter()      # (action kind, "slash" | "component") -> count
        self.twice = twice         # "2 from the deck" when the agent would draw blind twice

    def _buttons(self):
        if self.style == "mixed":
            return self.count % 2 == 0
        return self.style == "buttons"

    async def _slash(self, kind, sub, **options):
        self.used[kind, "slash"] += 1
        return await self.table.slash(self.user, sub, **options)

    async def _click(self, kind, message, cid):
        self.used[kind, "component"] += 1
        return await self.table.click(self.user, message, cid)

    async def _select(self, kind, message, cid, values):
        self.used[kind, "component"] += 1
        return await self.table.select(self.user, message, cid, values)

    async def view(self):
        loaded = await self.table.game()
        seat, v = await self.table.bot.service.moves.player_view(loaded.id, self.user.id)
        return loaded, v

    async def move(self):
        loaded, v = await self.view()
        action = self.agent.act(v)
        self.count += 1
        use_buttons = self._buttons()
        t = self.table
        if isinstance(action, KeepTickets):
            msg = await self._keep(loaded, v, action, use_buttons)
        elif isinstance(action, DrawCard):
            msg = await self._draw(loaded, v, action, use_buttons)
        elif isinstance(action, ClaimRoute):
            msg = await self._share(await self._claim(loaded, v, action, use_buttons), loaded,
                                    action)
        elif isinstance(action, DrawFerryCard):
            panel = t.last_panel()
            cid = f"ttr:draw:{loaded.id}:{loaded.seq}:ferry"
            msg = await (self._click("ferry", panel, cid)
                         if use_buttons and panel is not None and cid in panel.custom_ids()
                         else self._slash("ferry", "draw", source="ferry"))
        elif isinstance(action, DrawTickets):
            panel = t.last_panel()
            cid = f"ttr:tickets:{loaded.id}:{loaded.seq}"
            if self.style == "mixed":
                cid = find_cid(panel, "ttr:tickets:") if panel else None
            msg = await (self._click("tickets", panel, cid)
                         if use_buttons and panel is not None and cid in panel.custom_ids()
                         else self._slash("tickets", "tickets"))
            go = find_cid(msg, f"ttr:tickets:{loaded.id}:{loaded.seq}:go")
            if go:      # asked first (/ttr me confirm): one more tap
                msg = await self._click("tickets", msg, go)
        elif isinstance(action, (TunnelPay, TunnelDecline)):
            msg = await self._tunnel(loaded, action)
        elif isinstance(action, BuildStation):
            msg = await self._station(loaded, action, use_buttons)
        elif isinstance(action, Pass):
            msg = await self._slash("pass", "pass")
        else:
            raise AssertionError(f"unexpected action {action!r}")
        self.pending = msg if msg.custom_ids() else None
        await t.settle()
        return action, msg

    async def _station(self, loaded, action, use_buttons):
        """"Build a station…" on the panel, then the city in its menus; else /ttr station."""
        panel = self.table.last_panel()
        cid = f"ttr:station:{loaded.id}:{loaded.seq}"
        msg = None
        if use_buttons and panel is not None and cid in panel.custom_ids():
            menu = await self._click("station", panel, cid)
            sel = _menu_with(menu, "ttr:stcity:", action.city)
            if sel is not None:
                msg = await self._select("station", menu, sel, [action.city])
        if msg is None:
            color = next((CARD_NAMES[c] for c in range(8) if action.cards[c]), "locomotive")
            msg = await self._slash("station", "station", city=str(action.city), color=color)
        if find_cid(msg, "ttr:pay:"):
            msg = await self._pay(msg, loaded, "s", action.city, action.cards, "station")
        return msg

    async def _pay(self, msg, loaded, what, target, cards, kind):
        """A payment asked for with buttons: the agent's one if offered, else the first (the
        buttons are the sensible payments; a slash command has no way to pick one)."""
        cid = f"ttr:pay:{loaded.id}:{loaded.seq}:{what}{target}:" + ids.encode_cards(cards)
        if self.style == "mixed" or cid not in msg.custom_ids():
            cid = find_cid(msg, "ttr:pay:")
        return await self._click(kind, msg, cid)

    async def _keep(self, loaded, v, action, use_buttons):
        t = self.table
        positions = [v.offer.index(x) + 1 for x in action.tickets]
        if use_buttons:
            source = self._keep_menu(loaded)
            if source is None:     # DMs closed or none yet: "My hand" gives the menu privately
                start = next(m for m in t.public_messages() if find_cid(m, "ttr:hand:"))
                source = await self._click("hand", start, find_cid(start, "ttr:hand:"))
            cid = find_cid(source, "ttr:keep:")
            if cid:
                return await self._select("keep", source, cid, action.tickets)
        return await self._slash("keep", "keep", tickets=",".join(map(str, positions)))

    def _keep_menu(self, loaded):
        """The current keep menu: from the last ephemeral answer, else the latest DM."""
        if self.pending is not None and find_cid(self.pending, "ttr:keep:"):
            return self.pending
        dms = self.table.fake.dms_to(self.user)
        for m in reversed(dms):
            cid = find_cid(m, "ttr:keep:")
            if cid and loaded.game.phase == "setup":
                return m
        return None

    async def _draw(self, loaded, v, action, use_buttons):
        src = "deck" if action.card < 0 else CARD_NAMES[action.card]
        twice = None
        if src == "deck" and v.step != "second_card" and self.twice:
            twice = self._blind_again(loaded, v)
            if twice is not None:
                src = DECK_TWICE
        if use_buttons:
            source = self.pending if v.step == "second_card" else self.table.last_panel()
            cid = f"ttr:draw:{loaded.id}:{loaded.seq}:{src}"
            if source is not None and cid in source.custom_ids():
                msg = await self._click("draw", source, cid)
                self.agent = twice or self.agent
                return msg
        msg = await self._slash("draw", "draw", source=src)
        self.agent = twice or self.agent
        return msg

    def _blind_again(self, loaded, v):
        """When the agent, having drawn a card from the deck, would draw another from the deck
        (asked of a copy, on the game after the first card): that copy, which then plays on;
        else None. Such a player clicks "2 from the deck": the same moves, one click."""
        game = loaded.game.copy()
        game.apply(DrawCard(v.seat, -1))
        if game.step != "second_card" or v.seat not in game.to_move():
            return None
        agent = copy.deepcopy(self.agent)
        after = agent.act(view(game, v.seat))
        return agent if isinstance(after, DrawCard) and after.card < 0 else None

    async def _share(self, msg, loaded, action):
        """Pennsylvania: the share's button the claim's answer asks for, the agent's choice;
        past 20 choices (five companies with the dummy's), the option of the share menu."""
        menu = find_cid(msg, "ttr:sharesel:")
        if menu:
            value = action.share * 100 + action.dummy_share
            assert str(value) in [o["value"] for o in msg.component(menu)["options"]]
            return await self._select("sharesel", msg, menu, [value])
        if not find_cid(msg, "ttr:share:"):
            return msg
        cid = (f"ttr:share:{loaded.id}:{loaded.seq}:{action.route}:"
               f"{ids.encode_cards(action.cards)}:{action.share}:{action.dummy_share}")
        assert cid in msg.custom_ids(), (cid, msg.custom_ids())
        return await self._click("share", msg, cid)

    async def _claim(self, loaded, v, action, use_buttons):
        t = self.table
        route = v.board.routes[action.route]
        used = v.payment_color(action.route, action.cards)
        color = "locomotive" if used < 0 else CARD_NAMES[used]
        if use_buttons:
            panel = t.last_panel()
            cid = f"ttr:claim:{loaded.id}:{loaded.seq}"
            if self.style == "mixed":
                cid = find_cid(panel, "ttr:claim:") if panel else None
            if panel is not None and cid in panel.custom_ids():
                menu = await self._click("claim", panel, cid)
                sel = find_cid(menu, "ttr:route:")
                if _menu_with(menu, "ttr:route:", action.route) is None:
                    # more than 25 payable routes, this one not among the first: its city first
                    route = v.board.routes[action.route]
                    city = next((c for c in (route.a, route.b)
                                 if _menu_with(menu, "ttr:rcity:", c)), None)
                    if city is not None:
                        self.used["claim", "city first"] += 1
                        menu = await self._select("claim", menu,
                                                  _menu_with(menu, "ttr:rcity:", city), [city])
                        sel = find_cid(menu, "ttr:route:")
                options = [o["value"] for o in menu.component(sel)["options"]] if sel else []
                if str(action.route) in options:
                    msg = await self._select("claim", menu, sel, [action.route])
                    pay = f"ttr:pay:{loaded.id}:{loaded.seq}:r{action.route}:" + \
                        ids.encode_cards(action.cards)
                    if pay in msg.custom_ids():
                        return await self._click("claim", msg, pay)
                    if not find_cid(msg, "ttr:pay:"):
                        return msg
                    if self.style == "buttons":
                        return await self._pay(msg, loaded, "r", action.route, action.cards,
                                               "claim")
                    # the agent wants a payment that is not among the sensible ones: say it
                else:   # the menu lists 25 routes at most: a route beyond them is typed
                    self.used["claim", "not in menu"] += 1
        value = str(action.route)
        if self.style == "slash":
            value = await self._route_choice(v.board, route)
        shares = {"share": action.share} if action.share else {}
        if action.dummy_share:
            shares["dummy_share"] = action.dummy_share
        return await self._slash("claim", "claim", route=value, color=color,
                                 locomotives=action.cards[LOCO], **shares)

    async def _route_choice(self, board, route):
        """Type the route's city names into /ttr claim's route option; the value of the
        choice the autocomplete offers for this route."""
        typed = f"{board.nodes[route.a].name} {board.nodes[route.b].name}"
        t = self.table
        handle = await t.fake.autocomplete(self.user, t.channel, "ttr", "claim", {"route": typed},
                                           focused="route")
        self.used["claim", "autocomplete"] += 1
        choices = (await handle.response()).choices
        values = [c["value"] for c in choices]
        assert str(route.index) in values, (typed, choices)
        return str(route.index)

    async def _tunnel(self, loaded, action):
        if isinstance(action, TunnelDecline):
            if self.style != "slash" and self.pending is not None and \
                    find_cid(self.pending, "ttr:tunnel:"):
                cid = f"ttr:tunnel:{loaded.id}:{loaded.seq}:decline"
                if cid in self.pending.custom_ids():
                    return await self._click("tunnel", self.pending, cid)
            return await self._slash("tunnel", "tunnel", choice="decline")
        cid = f"ttr:tunnel:{loaded.id}:{loaded.seq}:pay:{ids.encode_cards(action.cards)}"
        if self.style != "slash" and self.pending is not None:
            if cid in self.pending.custom_ids():
                return await self._click("tunnel", self.pending, cid)
            other = find_cid(self.pending, f"ttr:tunnel:{loaded.id}:{loaded.seq}:pay:")
            if self.style == "buttons" and other:     # only the first four ways are buttons
                return await self._click("tunnel", self.pending, other)
        msg = await self._slash("tunnel", "tunnel", choice="pay")
        if cid in msg.custom_ids():
            return await self._click("tunnel", msg, cid)
        other = find_cid(msg, f"ttr:tunnel:{loaded.id}:{loaded.seq}:pay:")
        if self.style != "mixed" and other:
            # several ways to pay the extra cards: only the buttons can say which
            return await self._click("tunnel", msg, other)
        return msg


def db_file(tmp_path):
    return os.path.join(str(tmp_path), "ttr.sqlite3")
