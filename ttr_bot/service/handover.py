"""A computer player takes over a human's seat in a game in play.

`hand_to_bot` is the core and checks no permission (for the service's own decisions; today only
`leave_game` and `replace_player` reach it). On top of it, `leave_game` lets a player quit (a
medium computer player takes the seat) and `replace_player` lets the host or a server admin put
a computer player of their choice in someone's seat, as Board Game Arena lets a player quit and
an admin replace an absent one.

The seat keeps its cards, tickets, trains and score: only who decides changes, so nothing is
written to the action log (a record replays the same with or without the handover). The store
changes the seat in one transaction; only after it returns are Effects built and, if that seat
is to move (whatever it was in the middle of: a second card, a tunnel, a ticket choice), a
computer move scheduled as a durable timer, exactly as after any other change.

A game always keeps at least one human: a table of computers only would play on for nobody
(and fill the channel with their turns). So the core refuses to hand over the last human seat
(`service.last_human`); when the last human *leaves*, the game is cancelled instead, which is
what they asked for (they are told before they confirm).
"""
from __future__ import annotations

from dataclasses import replace

from ..store import Owed, SeatIsBot, SeatStore, WrongStatus
from .core_contract import CoreContract
from .effects import Effects, Handover, ServiceError
from .levels import BOT_LEVELS, LEAVE_LEVEL
from .messages import HandoverPost
from .owed import channel_row

NAME_LIMIT = 32     # display names are at most this long (see the adapter's player_name)


def bot_name(name, level):
    """The seat's name once a computer plays it: still recognisably the same seat."""
    return f"{name[:NAME_LIMIT]} (bot, {level})"


class SeatHandover:
    """The handover operations: a collaborator of the service's core (its lock, loading,
    closing a game, what a seat change owes). Absence and votes call `hand_over`."""

    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: SeatStore = core.store

    async def hand_to_bot(self, game_id: int, seat: int, level: str, *, reason: str = "replaced",
                          by: int | None = None) -> Effects:
        """A computer player of `level` takes over seat `seat` (its index in the game). No
        permission check. Refuses (ServiceError) unless the game is in play and the seat is a
        human's, and never hands over the last human seat."""
        self._check_level(level)
        async with self.core.lock(game_id):
            hosted = await self.core.active(game_id)
            if not 0 <= seat < len(hosted.seats):
                raise ServiceError("service.no_such_seat", seat=seat + 1)
            return await self.hand_over(hosted, seat, level, reason=reason, by=by)

    async def leave_game(self, game_id: int, user_id: int, *,
                         ends: bool | None = None) -> Effects:
        """The player quits the game in play: a medium computer player takes their seat, or,
        if they are the last human, the game is cancelled. `ends` is what the player was told
        leaving would do (None: not asked); if that is no longer true, nothing happens and
        `service.leave_changed` says so."""
        async with self.core.lock(game_id):
            hosted = await self.core.active(game_id)
            seat = hosted.seat_of(user_id)
            if seat is None:
                raise ServiceError("service.not_a_player")
            last = hosted.humans() == [seat]
            if ends is not None and ends != last:
                raise ServiceError("service.leave_changed")
            if not last:
                return await self.hand_over(hosted, seat, LEAVE_LEVEL, reason="left", by=None)
            return await self.core.cancel(hosted, handover=Handover(
                seat=seat, name=hosted.seats[seat].name, user_id=user_id, level=None,
                reason="left"))

    async def replace_player(self, game_id: int, user_id: int, target_id: int, level: str, *,
                             is_admin: bool = False) -> Effects:
        """The host or a server admin (`is_admin`, decided by the adapter as for /ttr cancel)
        puts a computer player of `level` in the seat of `target_id`."""
        self._check_level(level)
        async with self.core.lock(game_id):
            hosted = await self.core.active(game_id)
            if user_id != hosted.host_id and not is_admin:
                raise ServiceError("service.replace_denied")
            seat = hosted.seat_of(target_id)
            if seat is None:
                raise ServiceError("service.replace_not_player")
            return await self.hand_over(hosted, seat, level, reason="replaced", by=user_id)

    # ----- under the game's lock ------------------------------------------------------------
    @staticmethod
    def _check_level(level):
        if level not in BOT_LEVELS:
            raise ServiceError("service.unknown_level", level=level)

    async def hand_over(self, hosted, seat, level, *, reason, by, allow_last=False):
        """`allow_last`: the last human may go too (their time ran out, or they left the
        server): the computers then finish the game by themselves."""
        held = hosted.seats[seat]
        if held.is_bot:
            raise ServiceError("service.seat_is_bot", name=held.name)
        humans = hosted.humans()
        if humans == [seat] and not allow_last:
            raise ServiceError("service.last_human")
        host_id = None
        others = [s for s in humans if s != seat]
        if held.user_id == hosted.host_id and others:   # the host's powers pass to the next human
            host_id = hosted.seats[others[0]].user_id
        handover = Handover(seat=seat, name=held.name, user_id=held.user_id, level=level,
                            reason=reason, by=by, host_id=host_id)
        now = self.core.clock()
        after = replace(hosted, seats=tuple(
            replace(s, user_id=None, level=level, name=bot_name(held.name, level),
                    former_user_id=held.user_id, handover=reason) if i == seat else s
            for i, s in enumerate(hosted.seats)))
        turn, _ = await self.core.owing.for_seat_change(after, seat, now)
        owed = Owed((channel_row(hosted, HandoverPost(handover)),), turn.timers,
                    turn.drop_timers)
        try:
            # the reason and the turns the player finished stay with the seat: the results
            # and the ratings tell a player who left from a stand-in (ratings.py)
            await self.core.write_game(hosted.id, self.store.hand_seat_to_bot(
                hosted.id, held.number, bot_level=BOT_LEVELS[level],
                display_name=bot_name(held.name, level), host_id=host_id, now=now,
                reason=reason, human_turns=hosted.game.turns_taken(seat), owed=owed), owed)
        except (WrongStatus, SeatIsBot):     # changed behind the cache's back: say it as it is
            hosted = await self.core.reload(hosted.id)
            if hosted is None or not hosted.is_active:
                raise ServiceError("service.not_active") from None
            raise ServiceError("service.seat_is_bot", name=hosted.seats[seat].name) from None
        hosted = await self.core.reload(hosted.id)
        return Effects(hosted.id, hosted.seq, to_move=hosted.game.to_move(), handover=handover)
