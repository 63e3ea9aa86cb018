"""Cups: a server's Swiss tournaments (docs/cups.md). A collaborator of the service's core with
its own store subject (`CupStore`), given the lobby (which opens a round's tables as games);
registers its typed timers, `CupSignup`, `CupCheck` and `CupRoundEnd`, with the scheduler.

A cup is made in sign-up (its post, with Join / Withdraw, and its sign-up timer owed with it);
when sign-up closes, round 1 is paired (cup_pairing.py, in a worker process: `_pair`) and each
table is owed as a `CupTableOpen`: the adapter opens a thread, has it kept with the table
(`table_thread`, so a retry makes no second one) and asks `open_table`, which starts the table's
game there with the cup's settings (its deadline, hints off, rated like any game played to its
end) exactly once. Manage Server, or the role a server names (`set_organiser_role`), organises. A
round ends when every table's game has ended (a `CupCheck` looks every CHECK_EVERY seconds) or
when its deadline passes (`CupRoundEnd`): a game still going is then closed and scored as it
stood (cup_state.py states the points and tie-breaks); the next round is paired in the same
write, or the cup ends with its final post (`CupFinal`). Every change is the cup's whole state,
written at the version it was read together with what it owes (store/subjects/cups.py), and only then
said; every timer handler checks the cup is still where its timer says, so one firing twice or
late does nothing, and `resume` re-arms a lost one.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ..bounded import KeyedLocks
from ..store import CupRow, CupStore, Owed, Timer, cup_store
from ..workers import WorkerError, WorkerLost
from .core_contract import CoreContract
from .cup_pairing import Entrant, Pairing, pair_round
from .cup_rounds import CHECK_EVERY, next_round, post_row
from .cup_rules import CupCheck, CupRoundEnd, CupSignup, check_settings, timer
from .cup_state import Cup, CupSettings, standings
from .effects import ServiceError
from .finish import finished_results
from .hints import GAME_HINTS
from .hosted import HostedGame
from .lobby import Lobby

log = logging.getLogger(__name__)
HOUR = 3600.0
OPEN_CUPS = 5                # cups a server may have in sign-up or running at once
MAX_PLAYERS = 256
NAME_LIMIT = 60
PAIR_TIMEOUT = 120.0         # seconds a worker may take to pair a round


def cup_of(row: CupRow) -> Cup:
    s = row.state
    settings = CupSettings.of(s["settings"])
    return Cup(row.id, row.guild_id, row.channel_id, row.message_id, row.created_by, row.name,
               row.status, row.version, settings, tuple(s["players"]), tuple(s["rounds"]),
               standings(s["players"], s["rounds"], settings.seats))


Change = Callable[[Cup, dict[str, Any], float], Awaitable[tuple[str, Owed] | None]]


class Cups:
    def __init__(self, core: CoreContract, lobby: Lobby, store: CupStore | None = None) -> None:
        self.core, self.lobby = core, lobby
        self.store = store or cup_store(core.store)
        self._locks = KeyedLocks()
        core.scheduler.on(CupSignup.KIND, self._on_signup)
        core.scheduler.on(CupCheck.KIND, self._on_check)
        core.scheduler.on(CupRoundEnd.KIND, self._on_round_end)

    # ----- reading --------------------------------------------------------------------------
    async def get(self, cup_id: int) -> Cup | None:
        row = await self.store.get_cup(cup_id) if 0 < cup_id < 2 ** 63 else None
        return cup_of(row) if row else None

    async def cups_of(self, guild_id: int, *, open_only: bool = True) -> list[Cup]:
        return [cup_of(r) for r in await self.store.cups_in_guild(guild_id,
                                                                   open_only=open_only)]

    async def board_items(self, guild_id: int) -> tuple[dict[str, Any], ...]:
        """The live board's "cups" section (board.py): each open cup as plain values: its
        name, round, next deadline (sign-up's close or the round's end) and top three."""
        items = []
        for cup in reversed(await self.cups_of(guild_id)):
            deadline = cup.settings.signup_close if cup.status == "signup" else \
                cup.rounds[-1]["ends_at"]
            items.append({"cup": cup.id, "name": cup.name, "status": cup.status,
                          "channel": cup.channel_id, "message": cup.message_id,
                          "round": cup.round, "rounds": cup.settings.rounds,
                          "players": len(cup.active()), "deadline": round(deadline),
                          "top": [[x.name, x.points] for x in cup.standings[:3]]
                          if cup.status == "running" else []})
        return tuple(items)

    async def _cup(self, cup_id: int, guild_id: int | None = None) -> Cup:
        cup = await self.get(cup_id)
        if cup is None or guild_id is not None and cup.guild_id != guild_id:
            raise ServiceError("service.cup_none")
        return cup

    # ----- who organises ----------------------------------------------------------------------
    async def organiser_role(self, guild_id: int) -> int | None:
        """The role the server names for cups (/ttr server cup_role), None without one."""
        return await self.store.get_cup_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Name the role whose members create and cancel cups (None: Manage Server only)."""
        await self.store.set_cup_role(guild_id, role_id, now=self.core.clock())

    async def may_organise(self, guild_id: int, role_ids: Sequence[int],
                           manage_server: bool) -> bool:
        """Whether a member creates and cancels any of the server's cups: Manage Server, or
        the role the server names."""
        if manage_server:
            return True
        role = await self.organiser_role(guild_id)
        return role is not None and role in role_ids

    # ----- the organiser's ------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, user_id: int, name: str,
                     maps: list[str], variant: str, seats: int, rounds: int, deadline: int,
                     signup_hours: float, round_hours: int, fill: str = "computer",
                     level: str = "easy") -> Cup:
        """A new cup in sign-up; its post and its sign-up timer are owed with it."""
        name = " ".join(name.split())[:NAME_LIMIT]
        check_settings(maps, variant, seats, rounds, deadline, signup_hours, round_hours,
                       fill, level, name)
        if len(await self.store.cups_in_guild(guild_id)) >= OPEN_CUPS:
            raise ServiceError("service.cup_cap", limit=OPEN_CUPS)
        now = self.core.clock()
        settings = CupSettings(tuple(maps), variant, seats, rounds, deadline, round_hours,
                               now + signup_hours * HOUR, fill, level)
        state: dict[str, Any] = {"settings": settings.to_dict(), "players": [], "rounds": [],
                 "seed": self.core.seeds.randrange(2 ** 62)}

        def owed_for(cup_id: int) -> Owed:
            return Owed((post_row(cup_id, channel_id, 0),),
                        (timer(CupSignup(cup_id), settings.signup_close),))
        cup_id = await self.store.create_cup(guild_id=guild_id, channel_id=channel_id,
                                             created_by=user_id, name=name, state=state,
                                             now=now, owed_for=owed_for)
        self.core.committed(owed_for(cup_id))
        return await self._cup(cup_id)

    async def add_computer(self, cup_id: int, user_id: int, *, is_admin: bool = False) -> Cup:
        """The organiser enters a computer player (at the cup's level) during sign-up."""
        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed]:
            self._organiser(cup, user_id, is_admin)
            self._signing_up(cup, state)
            n = sum(1 for p in state["players"] if p["id"] < 0) + 1
            state["players"].append({"id": -n, "name": f"Bot {n} ({cup.settings.level})",
                                     "level": cup.settings.level, "rating": 0.0,
                                     "withdrawn": False})
            return cup.status, Owed((post_row(cup.id, cup.channel_id, cup.version + 1),))
        return await self._change(cup_id, change)

    async def cancel(self, cup_id: int, user_id: int, *, guild_id: int | None = None,
                     is_admin: bool = False) -> Cup:
        """Close the cup (the organiser or an admin): its running games go on as ordinary
        games; nothing more is paired."""
        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed]:
            self._organiser(cup, user_id, is_admin)
            if cup.status not in ("signup", "running"):
                raise ServiceError("service.cup_over")
            return "cancelled", Owed((post_row(cup.id, cup.channel_id, cup.version + 1),))
        await self._cup(cup_id, guild_id)
        return await self._change(cup_id, change)

    async def posted(self, cup_id: int, message_id: int | None) -> None:
        """The adapter sent the cup's post (None: it is gone; the next edit posts it anew)."""
        await self.store.set_cup_message(cup_id, message_id)

    # ----- players' ---------------------------------------------------------------------------
    async def join(self, cup_id: int, user_id: int, name: str, *,
                   guild_id: int | None = None) -> Cup:
        await self._cup(cup_id, guild_id)
        rating = 0.0
        cup = await self._cup(cup_id)
        found = await self.store.get_ratings(cup.guild_id, [user_id])
        if user_id in found:
            rating = float(found[user_id].value)

        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed]:
            self._signing_up(cup, state)
            if any(p["id"] == user_id for p in state["players"]):
                raise ServiceError("service.cup_joined")
            if len(state["players"]) >= MAX_PLAYERS:
                raise ServiceError("service.cup_full", limit=MAX_PLAYERS)
            state["players"].append({"id": user_id, "name": name[:32], "level": None,
                                     "rating": rating, "withdrawn": False})
            return cup.status, Owed((post_row(cup.id, cup.channel_id, cup.version + 1),))
        return await self._change(cup_id, change)

    async def withdraw(self, cup_id: int, user_id: int, *, guild_id: int | None = None) -> Cup:
        """Leave the cup: during sign-up the entry is gone; once it runs, the player keeps their
        points and is not paired again (a game they are in goes on as any game)."""
        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed]:
            me = next((p for p in state["players"] if p["id"] == user_id), None)
            if me is None or me["withdrawn"]:
                raise ServiceError("service.cup_not_in")
            if cup.status == "signup":
                state["players"].remove(me)
            elif cup.status == "running":
                me["withdrawn"] = True
            else:
                raise ServiceError("service.cup_over")
            return cup.status, Owed((post_row(cup.id, cup.channel_id, cup.version + 1),))
        await self._cup(cup_id, guild_id)
        return await self._change(cup_id, change)

    # ----- a round's tables -----------------------------------------------------------------
    async def table_thread(self, cup_id: int, round_no: int, table_no: int,
                           channel_id: int) -> None:
        """Keep the thread the adapter made for a table (before its game opens there), so a
        retry of the table's opening makes no second one."""
        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed] | None:
            t = state["rounds"][round_no - 1]["tables"][table_no - 1] \
                if round_no <= len(state["rounds"]) else None
            if t is None or t.get("channel") is not None:
                return None
            t["channel"] = channel_id
            return cup.status, Owed()
        await self._change(cup_id, change)

    async def open_table(self, cup_id: int, round_no: int, table_no: int,
                         channel_id: int) -> HostedGame | None:
        """Open the table's game in `channel_id` (the thread the adapter made for it), once:
        the table's game if it has one already, None if the round is over or the cup closed."""
        cup = await self._cup(cup_id)
        if cup.status != "running" or round_no != cup.round or cup.rounds[-1]["done"]:
            return None
        table = cup.rounds[-1]["tables"][table_no - 1]
        if table.get("game") is not None:
            return await self.core.load(int(table["game"]))
        s = cup.settings
        seats: list[tuple[int | None, str, str | None]] = []
        for pid in table["players"]:
            p: Any = cup.player(pid)
            seats.append((None, p["name"], p["level"]) if pid < 0 else (pid, p["name"], None))
        seats += [(None, f"Bot {i + 1} ({s.level})", s.level) for i in range(table["computers"])]
        options = {"deadline": s.deadline, GAME_HINTS: False, "cup": cup.id, "cup_round": round_no}
        try:
            hosted = await self.lobby.open_table(
                guild_id=cup.guild_id, channel_id=channel_id, host_id=cup.created_by,
                seats=seats, map_id=s.map_of(round_no), variant=s.variant, options=options)
        except ServiceError:
            found = await self.core.game_in_channel(channel_id)   # opened before a crash
            if found is None or found.options.get("cup") != cup.id:
                raise
            hosted = found

        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed] | None:
            t = state["rounds"][round_no - 1]["tables"][table_no - 1]
            if t.get("game") is not None:
                return None
            t["game"], t["channel"] = hosted.id, channel_id
            return cup.status, Owed((post_row(cup.id, cup.channel_id, cup.version + 1),))
        await self._change(cup_id, change)
        return hosted

    # ----- timers -----------------------------------------------------------------------------
    async def _on_signup(self, timer: Timer) -> None:
        t = CupSignup.from_payload(timer.payload)

        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed] | None:
            if cup.status != "signup":
                return None
            return await next_round(cup, state, now, self._pair)
        await self._change(t.cup, change)

    async def _on_check(self, timer: Timer) -> None:
        await self._end_round(CupCheck.from_payload(timer.payload), deadline=False)

    async def _on_round_end(self, timer: Timer) -> None:
        await self._end_round(CupRoundEnd.from_payload(timer.payload), deadline=True)

    async def _end_round(self, t: CupCheck, *, deadline: bool) -> None:
        cup = await self.get(t.cup)
        if cup is None or cup.status != "running" or cup.round != t.round or \
                cup.rounds[-1]["done"]:
            return
        results: dict[int, list[dict[str, Any]]] = {}
        for i, table in enumerate(cup.rounds[-1]["tables"]):
            game = table.get("game")
            if game is None:
                if not deadline:
                    return await self._recheck(t)
                continue                       # never opened: scores nothing
            result = await self._result(cup, table, int(game), close=deadline)
            if result is None:
                return await self._recheck(t)
            results[i] = result

        async def change(cup: Cup, state: dict[str, Any], now: float) -> tuple[str, Owed] | None:
            rnd = state["rounds"][-1]
            if cup.status != "running" or cup.round != t.round or rnd["done"]:
                return None
            for i, result in results.items():
                rnd["tables"][i]["result"] = result
            rnd["done"] = True
            return await next_round(cup, state, now, self._pair)
        await self._change(t.cup, change)

    async def _recheck(self, t: CupCheck) -> None:
        """The round goes on: look again in CHECK_EVERY (the round's deadline timer stays)."""
        now = self.core.clock()
        owed = Owed(timers=(timer(CupCheck(t.cup, t.round), now + CHECK_EVERY),))
        await self.store.write_owed(owed, None, now)
        self.core.committed(owed)

    async def _result(self, cup: Cup, table: dict[str, Any], game_id: int,
                      *, close: bool) -> list[dict[str, Any]] | None:
        """The table's result (rows {"id", "rank", "score"} by seat), None while its game goes
        on and `close` is False; with `close` a game still going is closed first."""
        hosted: Any = await self.core.load(game_id)
        if hosted is None or hosted.game is None:
            return []
        if hosted.is_active:
            if not close:
                return None
            await self.lobby.cancel(hosted.channel_id, cup.created_by, is_admin=True)
        if hosted.is_finished:
            rows = await self.store.load_results(game_id)
            ranked = [(r.seat, r.rank, r.score) for r in rows]
        else:
            seat_results = finished_results(hosted, hosted.game)[0]
            ranked = [(r.seat, r.rank, r.score) for r in seat_results]
        ids = list(table["players"]) + [None] * int(table["computers"])
        return [{"id": ids[seat], "rank": rank, "score": score}
                for seat, rank, score in sorted(ranked)]

    async def _pair(self, players: Sequence[Entrant], seats: int, fill: str,
                    met: frozenset[tuple[int, int]], filled: Mapping[int, int],
                    seed: int) -> Pairing:
        """A round's pairing in a worker process (up to seconds for the largest cups), in a
        thread of this one should the pool fail: never on the event loop."""
        args = (list(players), seats, fill, met, dict(filled), seed)
        try:
            return await self.core.workers.run(pair_round, *args, timeout=PAIR_TIMEOUT)
        except (WorkerLost, WorkerError) as exc:
            log.warning("cup pairing: the worker pool failed (%s); pairing in a thread", exc)
            return await asyncio.to_thread(pair_round, *args)

    # ----- writing ----------------------------------------------------------------------------
    async def _change(self, cup_id: int, change: Change) -> Cup:
        """Apply `change` to the cup as stored and write it at that version with what it owes
        (read again and retried if another writer got there first); then wake the senders."""
        async with self._locks[cup_id]:
            for _ in range(5):
                row = await self.store.get_cup(cup_id)
                if row is None:
                    raise ServiceError("service.cup_none")
                cup = cup_of(row)
                state = {**row.state, "players": [dict(p) for p in row.state["players"]],
                         "rounds": _deep(row.state["rounds"])}
                now = self.core.clock()
                out = await change(cup, state, now)
                if out is None:
                    return cup
                status, owed = out
                if await self.store.save_cup(cup_id, row.version, status=status, state=state,
                                             now=now, owed=owed):
                    self.core.committed(owed)
                    return await self._cup(cup_id)
            raise ServiceError("service.stale")

    @staticmethod
    def _organiser(cup: Cup, user_id: int, is_admin: bool) -> None:
        if user_id != cup.created_by and not is_admin:
            raise ServiceError("service.cup_organiser")

    @staticmethod
    def _signing_up(cup: Cup, state: dict[str, Any]) -> None:
        if cup.status != "signup":
            raise ServiceError("service.cup_closed")

    # ----- start-up -----------------------------------------------------------------------------
    async def resume(self) -> int:
        """Re-arm what an open cup waits on if its timer was lost: the sign-up's close, the
        running round's end and its check. Returns how many were re-armed."""
        pending = {(t.kind, t.payload.get("cup"), t.payload.get("round"))
                   for t in await self.store.cup_timers()}
        now, armed = self.core.clock(), []
        for row in await self.store.open_cups():
            cup = cup_of(row)
            if cup.status == "signup" and (CupSignup.KIND, cup.id, None) not in pending:
                armed.append(timer(CupSignup(cup.id), cup.settings.signup_close))
            elif cup.status == "running" and not cup.rounds[-1]["done"]:
                n = cup.round
                if (CupRoundEnd.KIND, cup.id, n) not in pending:
                    armed.append(timer(CupRoundEnd(cup.id, n), cup.rounds[-1]["ends_at"]))
                if (CupCheck.KIND, cup.id, n) not in pending:
                    armed.append(timer(CupCheck(cup.id, n), now))
        if armed:
            owed = Owed(timers=tuple(armed))
            await self.store.write_owed(owed, None, now)
            self.core.committed(owed)
        return len(armed)


def _deep(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "tables": [dict(t) for t in r["tables"]]} for r in rounds]
