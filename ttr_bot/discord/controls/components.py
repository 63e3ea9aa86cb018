"""Buttons and menus: how each control looks, and the layouts other modules attach to messages.

Every control is a persistent `DynamicItem` whose custom id carries the game (and the game's
sequence number), so it keeps working after a restart without any stored view. What a click
does is not here: the item hands it to the controller registered for its kind (clicks.py), and
every exception goes to the one error handler (`errors.handle`), because discord.py only logs
what a dynamic item's callback raises.
"""
from collections.abc import Callable

import discord

from ...engine.actions import DrawFerryCard
from ...engine.cards import CARD_NAMES, LOCO
from ...i18n import t
from ...render.tickets import offer_tag
from ...service import LEVELS
from .. import errors
from ..text.format import EMOJI, cards_text, clip, payment_text, ticket_text
from . import clicks, ids
from .payment_choices import station_options

DECK_TWICE = "decktwice"    # a draw button's source: two cards from the deck in one click
FERRY = "ferry"             # a draw button's source: Italy's ferry card, the whole turn


class PersistentItem:
    """Mixin: rebuild the item from its custom id's fields (`FIELDS`, in the order `__init__`
    takes them) and hand a click to the controller of its `KIND`, errors to the one handler."""
    KIND = ""
    FIELDS: tuple[str, ...] = ("game", "seq")

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        f = ids.fields(match)
        # the mixin has no __init__ of its own: each item's takes its FIELDS, then item=
        make: Callable[..., PersistentItem] = cls
        return make(*(f[k] for k in cls.FIELDS), item=item)

    async def interaction_check(self, interaction):
        return not await errors.refuse_other_shard(interaction)

    async def callback(self, interaction):
        try:
            await clicks.dispatch(self.KIND, interaction, self)
        except Exception as exc:
            await errors.handle(interaction, exc)


# ----- lobby ------------------------------------------------------------------------------------
class LobbyButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=ids.TEMPLATES["lobby"]):
    KIND = "lobby"
    FIELDS = ("game", "op")
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary}

    def __init__(self, game_id, op, loc="en", item=None):
        self.game_id, self.op = game_id, op
        super().__init__(item or discord.ui.Button(
            label=t(f"bot.btn.{op}", loc), style=self.STYLES[op], row=0,
            custom_id=ids.make("lobby", game_id, op)))


class AddBotSelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                   template=ids.TEMPLATES["addbot"]):
    KIND = "addbot"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Select(
            custom_id=ids.make("addbot", game_id), placeholder=t("bot.btn.addbot", loc), row=1,
            options=[discord.SelectOption(label=t(f"bot.level.{lv}", loc), value=lv) for lv in LEVELS]))


class UnseatSelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                   template=ids.TEMPLATES["unseat"]):
    """The host's "Remove a seat…" menu: every seat but the host's (values: seat numbers)."""
    KIND = "unseat"
    FIELDS = ("game",)

    def __init__(self, game_id, seats=(), loc="en", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Select(
            custom_id=ids.make("unseat", game_id), placeholder=t("bot.menu.unseat", loc), row=2,
            options=[discord.SelectOption(label=clip(f"{i}. {name}"), value=str(number))
                     for i, number, name in seats]))


def lobby_view(hosted, loc):
    """Join / Leave / Start, the computer players' levels, and the host's "Remove a seat…"."""
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start"):
        view.add_item(LobbyButton(hosted.id, op, loc))
    view.add_item(AddBotSelect(hosted.id, loc))
    others = [(i + 1, s.number, s.name) for i, s in enumerate(hosted.seats)
              if s.user_id != hosted.host_id]
    if others:
        view.add_item(UnseatSelect(hosted.id, others[:25], loc))
    return view


# ----- the turn -----------------------------------------------------------------------------------
class DrawButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=ids.TEMPLATES["draw"]):
    KIND = "draw"
    FIELDS = ("game", "seq", "src")

    def __init__(self, game_id, seq, src, loc="en", count=1, row=0, item=None):
        self.game_id, self.seq, self.src = game_id, seq, src
        if item is None:
            if src == "deck":
                label, emoji = t("bot.btn.deck", loc), "🂠"
            elif src == DECK_TWICE:
                label, emoji = t("bot.btn.deck2", loc), "🂠"
            elif src == FERRY:
                label, emoji = t("bot.btn.ferry_card", loc), "⛴️"
            else:
                label = t("bot.card." + src, loc) + (f" ×{count}" if count > 1 else "")
                emoji = EMOJI[src]
            item = discord.ui.Button(label=clip(label, 80), emoji=emoji, row=row,
                                     style=discord.ButtonStyle.primary
                                     if src in ("deck", DECK_TWICE)
                                     else discord.ButtonStyle.secondary,
                                     custom_id=ids.make("draw", game_id, seq, src))
        super().__init__(item)


class ClaimButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=ids.TEMPLATES["claim"]):
    KIND = "claim"

    def __init__(self, game_id, seq, loc="en", item=None):
        self.game_id, self.seq = game_id, seq
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.claim", loc), emoji="🛤️", style=discord.ButtonStyle.success, row=1,
            custom_id=ids.make("claim", game_id, seq)))


class RouteSelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                  template=ids.TEMPLATES["route"]):
    KIND = "route"

    def __init__(self, game_id, seq, choices=(), loc="en", item=None):
        self.game_id, self.seq = game_id, seq
        super().__init__(item or discord.ui.Select(
            custom_id=ids.make("route", game_id, seq), placeholder=t("bot.menu.route", loc),
            options=[discord.SelectOption(label=label, value=value) for label, value in choices]))


class CitySelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                 template=ids.TEMPLATES["rcity"]):
    """One of the menus of cities to claim a route from (values: node indices)."""
    KIND = "rcity"
    FIELDS = ("game", "seq", "part")

    def __init__(self, game_id, seq, part, choices=(), placeholder="", item=None):
        self.game_id, self.seq, self.part = game_id, seq, part
        super().__init__(item or discord.ui.Select(
            custom_id=ids.make(self.KIND, game_id, seq, part), placeholder=clip(placeholder, 150),
            options=[discord.SelectOption(label=label, value=value) for label, value in choices]))


class StationButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=ids.TEMPLATES["station"]):
    KIND = "station"

    def __init__(self, game_id, seq, loc="en", item=None):
        self.game_id, self.seq = game_id, seq
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.station", loc), emoji="🚉", style=discord.ButtonStyle.secondary,
            row=1, custom_id=ids.make("station", game_id, seq)))


class StationCitySelect(CitySelect, template=ids.TEMPLATES["stcity"]):
    """One of the menus of cities to build a station in (values: node indices)."""
    KIND = "stcity"


class PayButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                template=ids.TEMPLATES["pay"]):
    """One way to pay for a route ('r') or a station ('s') when several make sense."""
    KIND = "pay"
    FIELDS = ("game", "seq", "what", "target", "cards")

    def __init__(self, game_id, seq, what, target, cards, loc="en", item=None, confirm=False,
                 ferry=0):
        self.game_id, self.seq, self.what, self.target, self.cards = game_id, seq, what, target, cards
        label = payment_text(cards, ferry, loc)
        super().__init__(item or discord.ui.Button(
            label=clip(t("bot.btn.pay_go", loc, cards=label) if confirm else label, 80),
            style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.secondary,
            custom_id=ids.make("pay", game_id, seq, f"{what}{target}", ids.encode_cards(cards))))


class ShareButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=ids.TEMPLATES["share"]):
    """Pennsylvania: claim route `target` paying `cards`, taking a share of company `share`
    (and giving the dummy one of company `dummy`, 0: none), when the route offers a choice."""
    KIND = "share"
    FIELDS = ("game", "seq", "target", "cards", "share", "dummy")

    def __init__(self, game_id, seq, target, cards, share, dummy, label="", item=None):
        self.game_id, self.seq, self.target, self.cards = game_id, seq, target, cards
        self.share, self.dummy = share, dummy
        super().__init__(item or discord.ui.Button(
            label=clip(label, 80), style=discord.ButtonStyle.success,
            custom_id=ids.make("share", game_id, seq, target, ids.encode_cards(cards), share,
                               dummy)))


class ShareSelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                  template=ids.TEMPLATES["sharesel"]):
    """The shares of `ShareButton` as one menu, when they are more than 20 (a route of five
    companies in a 2-player game: 25). A value is share * 100 + dummy."""
    KIND = "sharesel"
    FIELDS = ("game", "seq", "target", "cards")

    def __init__(self, game_id, seq, target, cards, choices=(), item=None):
        self.game_id, self.seq, self.target, self.cards = game_id, seq, target, cards
        super().__init__(item or discord.ui.Select(
            custom_id=ids.make("sharesel", game_id, seq, target, ids.encode_cards(cards)),
            options=[discord.SelectOption(label=clip(label, 100), value=str(share * 100 + dummy))
                     for share, dummy, label in choices[:25]]))


class TicketsButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=ids.TEMPLATES["tickets"]):
    """'Destination tickets' on the card; `op` "go": the confirmation's 'Draw tickets'."""
    KIND = "tickets"
    FIELDS = ("game", "seq", "op")

    def __init__(self, game_id, seq, op=None, loc="en", row=1, item=None):
        self.game_id, self.seq, self.op = game_id, seq, op
        if item is None:
            label = t("bot.btn.tickets_go" if op == "go" else "bot.btn.tickets", loc)
            item = discord.ui.Button(
                label=label, emoji="🎫", row=row, style=discord.ButtonStyle.success
                if op == "go" else discord.ButtonStyle.secondary,
                custom_id=ids.make("tickets", game_id, seq, *(("go",) if op == "go" else ())))
        super().__init__(item)


class CancelButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=ids.TEMPLATES["cancel"]):
    """A confirmation's Cancel: nothing is played, the question goes away."""
    KIND = "cancel"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.cancel", loc), style=discord.ButtonStyle.secondary,
            custom_id=ids.make("cancel", game_id)))


class DetailsButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=ids.TEMPLATES["details"]):
    """The card's 'Details': every standing in words, the face-up row and the piles, answered
    privately to whoever asks (players and spectators alike: it is all public)."""
    KIND = "details"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.details", loc), emoji="📋", style=discord.ButtonStyle.secondary,
            custom_id=ids.make("details", game_id)))


class KeepSelect(PersistentItem, discord.ui.DynamicItem[discord.ui.Select],
                 template=ids.TEMPLATES["keep"]):
    """Which offered tickets to keep: min_values is the least the rules allow."""
    KIND = "keep"

    def __init__(self, game_id, seq, offer=(), minimum=1, board=None, loc="en", item=None):
        self.game_id, self.seq = game_id, seq
        if item is None:
            options = [discord.SelectOption(   # lettered as the private board tags them
                label=clip(f"{offer_tag(i)}. {ticket_text(board.tickets[tid])}"), value=str(tid))
                for i, tid in enumerate(offer, 1)]
            item = discord.ui.Select(custom_id=ids.make("keep", game_id, seq),
                                     placeholder=t("bot.menu.keep", loc, min=minimum),
                                     min_values=minimum, max_values=len(options), options=options)
        super().__init__(item)


class TunnelButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=ids.TEMPLATES["tunnel"]):
    KIND = "tunnel"
    FIELDS = ("game", "seq", "op", "cards")

    def __init__(self, game_id, seq, op, cards=None, loc="en", item=None):
        self.game_id, self.seq, self.op, self.cards = game_id, seq, op, cards
        if item is None:
            if op == "pay":
                label = t("bot.btn.tunnel_pay", loc, cards=cards_text(cards, loc))
                cid = ids.make("tunnel", game_id, seq, "pay", ids.encode_cards(cards))
                style = discord.ButtonStyle.success
            else:
                label, cid = t("bot.btn.tunnel_decline", loc), ids.make("tunnel", game_id, seq, "decline")
                style = discord.ButtonStyle.danger
            item = discord.ui.Button(label=clip(label, 80), style=style, custom_id=cid)
        super().__init__(item)


class HandButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=ids.TEMPLATES["hand"]):
    """'My hand': always current (no sequence number), so it is also the way back to a panel."""
    KIND = "hand"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", row=2, item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.hand", loc), emoji="🃏", style=discord.ButtonStyle.secondary, row=row,
            custom_id=ids.make("hand", game_id)))


class QuitButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=ids.TEMPLATES["quit"]):
    """'Leave the game', under the private question /ttr leave asks during a game. The seq only
    records when it was asked: the others play on while the player decides, and leaving does
    not depend on whose turn it is; `mode` is what the player was told leaving would do."""
    KIND = "quit"
    FIELDS = ("game", "seq", "mode")

    def __init__(self, game_id, seq, mode, loc="en", item=None):
        self.game_id, self.seq, self.mode = game_id, seq, mode
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.leave_game", loc), emoji="🚪", style=discord.ButtonStyle.danger,
            custom_id=ids.make("quit", game_id, seq, mode)))


# ----- a server's game life -------------------------------------------------------------------------
class RematchButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=ids.TEMPLATES["rematch"]):
    """'Rematch', on the final post: a lobby for the same table (cogs/lobby.py)."""
    KIND = "rematch"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=t("bot.btn.rematch", loc), emoji="🔁", style=discord.ButtonStyle.success,
            custom_id=ids.make("rematch", game_id)))


class RecordButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=ids.TEMPLATES["record"]):
    """A finished game's record (/ttr server export) from the history, one click away."""
    KIND = "record"
    FIELDS = ("game",)

    def __init__(self, game_id, loc="en", row=0, item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=clip(t("bot.history.record", loc, game=game_id), 80), emoji="📜", row=row,
            style=discord.ButtonStyle.secondary, custom_id=ids.make("record", game_id)))


class RanksPageButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=ids.TEMPLATES["ranks"]):
    """Another page of the leaderboard (of one map, or "-": all)."""
    KIND = "ranks"
    FIELDS = ("guild", "page", "map")

    def __init__(self, guild_id, page, map_id, label="", disabled=False, item=None):
        self.guild_id, self.page, self.map_id = guild_id, page, map_id
        super().__init__(item or discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=ids.make("ranks", guild_id, page, map_id)))


class HistoryPageButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                        template=ids.TEMPLATES["hist"]):
    """Another page of the history (of one user, or 0: everyone)."""
    KIND = "hist"
    FIELDS = ("guild", "page", "user")

    def __init__(self, guild_id, page, user_id, label="", disabled=False, row=2, item=None):
        self.guild_id, self.page, self.user_id = guild_id, page, user_id
        super().__init__(item or discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=disabled, row=row,
            custom_id=ids.make("hist", guild_id, page, user_id)))


class VoteButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=ids.TEMPLATES["vote"]):
    """Yes or no in a vote (/ttr vote)."""
    KIND = "vote"
    FIELDS = ("game", "vote", "op")

    def __init__(self, game_id, vote_id, op, loc="en", item=None):
        self.game_id, self.vote_id, self.op = game_id, vote_id, op
        super().__init__(item or discord.ui.Button(
            label=t(f"bot.btn.vote_{op}", loc), emoji="✅" if op == "yes" else "❌",
            style=discord.ButtonStyle.success if op == "yes" else discord.ButtonStyle.danger,
            custom_id=ids.make("vote", game_id, vote_id, op)))


class HelpButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=ids.TEMPLATES["help"]):
    """/ttr help's "All commands" and "How ratings work" (the final post has the latter)."""
    KIND = "help"
    FIELDS = ("game", "topic")
    EMOJI = {"commands": "📋", "ratings": "📈"}

    def __init__(self, game_id, topic, loc="en", item=None):
        self.game_id, self.topic = game_id, topic
        super().__init__(item or discord.ui.Button(
            label=t(f"bot.btn.help_{topic}", loc), emoji=self.EMOJI[topic],
            style=discord.ButtonStyle.secondary, custom_id=ids.make("help", game_id, topic)))


class CupButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                template=ids.TEMPLATES["cup"]):
    """Join / Withdraw on a cup's post while its sign-up is open (cogs/cups.py)."""
    KIND = "cup"
    FIELDS = ("game", "op")
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary}

    def __init__(self, cup_id, op, loc="en", item=None):
        self.cup_id, self.op = cup_id, op
        super().__init__(item or discord.ui.Button(
            label=t(f"bot.cup.btn_{op}", loc), style=self.STYLES[op],
            custom_id=ids.make("cup", cup_id, op)))


def cup_view(cup_id, loc="en"):
    view = discord.ui.View(timeout=None)
    view.add_item(CupButton(cup_id, "join", loc))
    view.add_item(CupButton(cup_id, "leave", loc))
    return view


class BoardJoinButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=ids.TEMPLATES["bjoin"]):
    """Join on the live board: a seat in that lobby, from the board's channel."""
    KIND = "bjoin"
    FIELDS = ("game",)

    def __init__(self, game_id, label="", item=None):
        self.game_id = game_id
        super().__init__(item or discord.ui.Button(
            label=clip(label or str(game_id), 80), style=discord.ButtonStyle.success,
            custom_id=ids.make("bjoin", game_id)))


def board_view(lobbies):
    """The live board's Join buttons ([(game id, label)], five at most: one row), or None."""
    if not lobbies:
        return None
    view = discord.ui.View(timeout=None)
    for game_id, label in lobbies[:5]:
        view.add_item(BoardJoinButton(game_id, label))
    return view


DYNAMIC_ITEMS = (LobbyButton, AddBotSelect, UnseatSelect, DrawButton, ClaimButton, RouteSelect,
                 CitySelect, StationButton, StationCitySelect, PayButton, ShareButton, ShareSelect, TicketsButton, KeepSelect, TunnelButton, HandButton, QuitButton,
                 CancelButton, DetailsButton, RematchButton, RecordButton, RanksPageButton,
                 HistoryPageButton, VoteButton, HelpButton, BoardJoinButton, CupButton)


# ----- layouts --------------------------------------------------------------------------------------
def _draw_buttons(view, game_id, seq, faceup, loc, second, limit_locos):
    """Row 0: the deck and each face-up colour once (Discord: 5 a row); the deck moves to the
    front of row 1 when five colours fill row 0. "2 from the deck" opens row 1."""
    counts: dict[int, int] = {}     # card index -> face-up cards of it
    for c in faceup:
        if not (second and limit_locos and c == LOCO):
            counts[c] = counts.get(c, 0) + 1
    view.add_item(DrawButton(game_id, seq, "deck", loc, row=0 if len(counts) < 5 else 1))
    for c in sorted(counts):
        view.add_item(DrawButton(game_id, seq, CARD_NAMES[c], loc, count=counts[c], row=0))
    if not second:
        view.add_item(DrawButton(game_id, seq, DECK_TWICE, loc, row=1))


def station_offered(game, viewer=None):
    """Whether the panel of the player to move offers "Station…": the map has stations, they
    have one left and a city is free, and they can pay for it. The public panel knows only
    how many cards they hold (a public figure), so it asks that there are enough; the
    private one (`viewer`: their PlayerView) asks whether they can actually pay."""
    seat = game.current
    if not game.station_sites(seat):
        return False
    cost = game.station_cost(seat)
    if viewer is None:
        return sum(game.hands[seat]) >= cost
    return bool(station_options(viewer.hand, cost))


def turn_view(game_id, seq, game, loc, *, step="idle", viewer=None):
    """The panel of the player to move (`viewer`: the mover's PlayerView, for a panel only
    they see): row 0 the cards to take, row 1 the other moves (2 from the deck, claim…,
    station…, tickets), row 2 "My hand" alone, which the turn card shows beside its text
    instead (turn_card.layout): "Destination tickets" is never beside "My hand"."""
    view = discord.ui.View(timeout=None)
    limit = game.board.rules.faceup_locomotive_limit
    _draw_buttons(view, game_id, seq, game.faceup, loc, step == "second_card", limit)
    if step == "idle":
        view.add_item(ClaimButton(game_id, seq, loc))
        if station_offered(game, viewer):
            view.add_item(StationButton(game_id, seq, loc))
        view.add_item(TicketsButton(game_id, seq, loc=loc))
        if game.check(DrawFerryCard(game.current)) is None:     # Italy, fewer than 2 held
            row = 1 if sum(1 for i in view.children if i._rendered_row == 1) < 5 else 2
            view.add_item(DrawButton(game_id, seq, FERRY, loc, row=row))
    view.add_item(HandButton(game_id, loc))
    return view


def confirm_tickets_view(game_id, seq, loc):
    view = discord.ui.View(timeout=None)
    view.add_item(TicketsButton(game_id, seq, "go", loc, row=0))
    view.add_item(CancelButton(game_id, loc))
    return view


def confirm_pay_view(game_id, seq, what, target, cards, loc, ferry=0):
    """One tap to claim (or build) as chosen, or Cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(PayButton(game_id, seq, what, target, cards, loc, confirm=True, ferry=ferry))
    view.add_item(CancelButton(game_id, loc))
    return view


def vote_view(game_id, vote_id, loc):
    view = discord.ui.View(timeout=None)
    for op in ("yes", "no"):
        view.add_item(VoteButton(game_id, vote_id, op, loc))
    return view


def quit_view(game_id, seq, mode, loc):
    view = discord.ui.View(timeout=None)
    view.add_item(QuitButton(game_id, seq, mode, loc))
    return view


def hand_view(game_id, loc):
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, loc, row=0))
    return view


def keep_view(game_id, seq, board, offer, minimum, loc):
    view = discord.ui.View(timeout=None)
    view.add_item(KeepSelect(game_id, seq, offer, minimum, board, loc))
    return view


def tunnel_view(game_id, seq, options, loc):
    view = discord.ui.View(timeout=None)
    for cards in options[:4]:
        view.add_item(TunnelButton(game_id, seq, "pay", cards, loc))
    view.add_item(TunnelButton(game_id, seq, "decline", None, loc))
    return view


def route_view(game_id, seq, choices, loc):
    """A menu of routes to claim (`choices`: [(label, value)], menus.route_choices)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RouteSelect(game_id, seq, choices[:25], loc))
    return view


def city_menus_view(kind, game_id, seq, menus, routes=(), loc="en"):
    """Menus of cities in one message (`menus`: [(placeholder, [(label, value)])], 25 choices
    each), after a menu of `routes` if given: five menus at most, so a map's cities fit."""
    view = discord.ui.View(timeout=None)
    if routes:
        view.add_item(RouteSelect(game_id, seq, routes[:25], loc))
    cls = StationCitySelect if kind == "stcity" else CitySelect
    for part, (placeholder, choices) in enumerate(menus[:5 - bool(routes)]):
        view.add_item(cls(game_id, seq, part, choices, placeholder))
    return view


def pay_view(game_id, seq, what, target, options, loc, ferry=None):
    """A button per payment (`ferry`: the ferry cards each spends, Italy)."""
    view = discord.ui.View(timeout=None)
    for i, cards in enumerate(options[:20]):
        view.add_item(PayButton(game_id, seq, what, target, cards, loc,
                                ferry=ferry[i] if ferry else 0))
    return view


def share_view(game_id, seq, target, cards, choices, loc):
    """A button per share a claim may take (`choices`: [(share, dummy, label)]; a menu when
    they are more than 20), and Cancel."""
    view = discord.ui.View(timeout=None)
    if len(choices) > 20:
        view.add_item(ShareSelect(game_id, seq, target, cards, choices))
    else:
        for share, dummy, label in choices:
            view.add_item(ShareButton(game_id, seq, target, cards, share, dummy, label))
    view.add_item(CancelButton(game_id, loc))
    return view


def rematch_view(game_id, loc, ratings=False):
    """The final post's Rematch, and "How ratings work" when the game was rated."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, loc))
    if ratings:
        view.add_item(HelpButton(0, "ratings", loc))
    return view


def help_view(loc, topics=("commands", "ratings")):
    view = discord.ui.View(timeout=None)
    for topic in topics:
        view.add_item(HelpButton(0, topic, loc))
    return view


def _pager(make, page, pages, loc):
    """Previous / next buttons (none when there is one page); a button that would lead off
    the ends is disabled, and each names a different page, so their ids differ."""
    if pages <= 1:
        return []
    return [make(max(1, page - 1), t("bot.btn.prev", loc), page <= 1),
            make(min(pages, page + 1), t("bot.btn.next", loc), page >= pages)]


def leaderboard_view(guild_id, page, pages, map_id, loc):
    buttons = _pager(lambda p, label, off: RanksPageButton(guild_id, p, map_id or "-", label, off),
                     page, pages, loc)
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for b in buttons:
        view.add_item(b)
    return view


def history_view(guild_id, page, pages, user_id, game_ids, loc):
    """A record button per game (five a row), then the pages."""
    view = discord.ui.View(timeout=None)
    for i, game_id in enumerate(game_ids[:10]):
        view.add_item(RecordButton(game_id, loc, row=i // 5))
    for b in _pager(lambda p, label, off: HistoryPageButton(guild_id, p, user_id or 0, label, off),
                    page, pages, loc):
        view.add_item(b)
    return view if view.children else None
