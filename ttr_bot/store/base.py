"""The storage interface the service is written against.

The service only ever sees `Store`, the records in `models.py` and the errors in `errors.py`;
`sql.py` implements it once, in SQL, on the drivers `sqlite.py` and `postgres.py`;
`open_store()` (factory.py) picks one.

Contract every driver keeps:
- a method that returns has made its change durable (committed, synced to disk): the service
  reports an action done only after `append_action` returns;
- each method is one transaction: all of its changes, or none. A caller cancelled while a write
  is under way cannot tell which (the commit may have happened): reload before retrying, which
  `append_action`'s expected_seq makes safe;
- `now` (epoch seconds) is passed in by the caller; it defaults to the wall clock only for
  convenience, so tests and the service decide what time it is;
- JSON columns go in as Python mappings (or, for the action log and snapshot, as JSON text the
  engine produced) and come back decoded; the log's and the snapshot's text is stored as
  written, so an action's keys come back in the engine's order;
- ids, seeds and Discord snowflakes are signed 64-bit integers; times (epoch seconds, floats)
  come back equal to what was passed;
- loads validate: unreadable rows raise `CorruptData` subclasses, never get skipped;
- `owed` (an `Owed`: outbox rows and timers) is written in the same transaction as the change
  that owes it, so what the bot owes players is never lost nor recorded for a change that did
  not happen; outbox rows whose key was written before are skipped.
"""
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from .models import (
    ActionRecord,
    Away,
    FinishedGame,
    Game,
    GameVersion,
    LaneBlock,
    LeaderboardRow,
    MessageRef,
    OutboxRow,
    Owed,
    RatingChange,
    RatingRecord,
    RatingUpdate,
    ResultRecord,
    Seat,
    SeatResult,
    Snapshot,
    Timer,
    UserPrefs,
    Vote,
)
from .shards import Shards


class _Unset:
    """Marks an `update_seat` argument the caller did not pass (None is a real value there)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Store(ABC):
    # whether several processes may use this database at once (PostgreSQL): the service then
    # leases owed messages before sending them; one SQLite file serves one process
    shared = False

    # -- lifetime ------------------------------------------------------------------------------
    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date. Raises StoreError if the database is newer."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending work and disconnect. Safe to call twice."""

    async def __aenter__(self) -> "Store":
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- games ---------------------------------------------------------------------------------
    @abstractmethod
    async def create_game(
        self, *, guild_id: int | None, channel_id: int, map: str, variant: str,
        options: Mapping[str, Any], seed: int, host_id: int, now: float | None = None,
        host_name: str | None = None, owed: Owed | None = None,
    ) -> int:
        """Create a game in the lobby; return its id. ChannelBusy if the channel has an open game.
        `seed` must fit in a signed 64-bit integer. With `host_name`, the host also takes seat 0
        in the same transaction (a lobby is never left without its host)."""

    @abstractmethod
    async def get_game(self, game_id: int) -> Game | None: ...

    @abstractmethod
    async def find_open_game(self, channel_id: int) -> Game | None:
        """The channel's game in the lobby or in play, if any."""

    @abstractmethod
    async def lobbies_in_guild(self, guild_id: int) -> list[Game]:
        """The server's games still in the lobby (not started yet), oldest first: what the
        lobby caps count (a member's, the server's)."""

    @abstractmethod
    async def list_active_game_ids(
        self, *, include_lobbies: bool = False, shards: Shards | None = None,
    ) -> list[int]:
        """Ids of games in play (and lobbies if asked), oldest first: what to resume at startup.
        With `shards`, only games of guilds on those shards."""

    @abstractmethod
    def lock_game(self, game_id: int) -> AbstractAsyncContextManager[GameVersion | None]:
        """`async with store.lock_game(id) as version:` hold the game's database lock for the
        body, where one exists (PostgreSQL: an advisory lock held by a connection of its own,
        released at the end or when the process dies), so that two processes never change one
        game at once; SQLite has no such lock (its writes serialise on the file, and the seq
        check of `append_action` refuses a stale action). `version` is the game's stored
        (seq, status), read after the lock was taken, or None if there is no such game: what
        a process's cached copy is checked against."""

    @abstractmethod
    async def set_status(
        self, game_id: int, status: str, now: float | None = None, *, reason: str | None = None,
        owed: Owed | None = None,
    ) -> None:
        """Move a game along lobby -> active -> finished, or to cancelled from lobby/active.
        Any other move raises WrongStatus; NotFound if there is no such game. Prefer
        `start_game` (writes the first snapshot too) and `record_results` (writes the results).
        `reason` is kept as the game's end_reason. Closing a game deletes its timers."""

    @abstractmethod
    async def start_game(
        self, game_id: int, state_json: str, now: float | None = None, *,
        owed: Owed | None = None,
    ) -> None:
        """lobby -> active, and store the initial state as the snapshot at seq 0, atomically."""

    @abstractmethod
    async def set_host(self, game_id: int, host_id: int, now: float | None = None) -> None:
        """Make `host_id` the game's host (the host left the server)."""

    @abstractmethod
    async def games_of_user(self, user_id: int, guild_id: int | None) -> list[Game]:
        """The open games (lobby or active) of the guild where the user holds a seat, oldest
        first."""

    # -- seats ---------------------------------------------------------------------------------
    @abstractmethod
    async def add_seat(
        self, game_id: int, seat: int, *, user_id: int | None, display_name: str,
        bot_level: int | None = None, notify: Mapping[str, Any] | None = None,
    ) -> Seat:
        """A human (user_id, no bot_level) or a bot (bot_level, no user_id) takes a seat.
        SeatTaken if the seat or the user is already in the game; NotFound if no such game."""

    @abstractmethod
    async def remove_seat(self, game_id: int, seat: int) -> bool:
        """Free a seat; False if it was empty. Seat numbers are not compacted."""

    @abstractmethod
    async def list_seats(self, game_id: int) -> list[Seat]:
        """The game's seats in seat order."""

    @abstractmethod
    async def update_seat(
        self, game_id: int, seat: int, *, user_id: int | None = UNSET,
        display_name: str = UNSET, bot_level: int | None = UNSET,
        notify: Mapping[str, Any] = UNSET,
    ) -> Seat:
        """Change only the fields passed (names, preferences; a computer taking over a seat in
        play goes through `hand_seat_to_bot`, which also remembers the former player).
        Returns the updated seat; NotFound if the seat is empty; SeatTaken on a duplicate user."""

    @abstractmethod
    async def hand_seat_to_bot(
        self, game_id: int, seat: int, *, bot_level: int, display_name: str,
        host_id: int | None = None, now: float | None = None, reason: str | None = None,
        human_turns: int | None = None, owed: Owed | None = None,
    ) -> Seat:
        """A computer player takes over a human's seat in a game in play, in one transaction:
        bot_level and display_name are set, user_id cleared and kept as former_user_id, with
        `reason` ("left", "replaced", "timeout", ...) kept as the seat's handover and the turns
        the player had finished (`human_turns`) beside it for the results; with `host_id`, that
        user also becomes the game's host. WrongStatus unless the game is active; NotFound if
        the seat is empty; SeatIsBot if a computer already plays it."""

    @abstractmethod
    async def return_seat(
        self, game_id: int, seat: int, *, user_id: int, display_name: str,
        now: float | None = None, owed: Owed | None = None,
    ) -> Seat:
        """The player a computer replaced after their time ran out takes their seat back:
        user_id set again, bot_level, former_user_id and handover cleared, timeouts 0.
        WrongStatus unless the game is active; NotFound unless the seat is a computer's that
        `user_id` held and lost to timeouts."""

    # -- the action log and snapshot -------------------------------------------------------------
    @abstractmethod
    async def append_action(
        self, game_id: int, expected_seq: int, actor: int | None, action_json: str,
        state_json: str, now: float | None = None, *, results: Sequence[SeatResult] | None = None,
        ratings: RatingUpdate | None = None,
        seat_timeouts: Mapping[int, int] | None = None, end_reason: str | None = None,
        owed: Owed | None = None,
    ) -> int:
        """Record one applied action, in one transaction: check the game is active and at
        `expected_seq` (else WrongStatus / StaleSequence and nothing is written), append the
        action as seq expected_seq + 1, replace the snapshot with `state_json`, bump the game's
        seq. With `results`, the game is also finished (with `end_reason`), its results recorded
        and its timers deleted, in the same transaction, and with `ratings` the game is rated
        there too (see `record_results`). `seat_timeouts` sets seats' counts of turns that ran
        out of time ({seat number: count}). Returns the new seq. `action_json` must be a JSON
        object with a "type"."""

    @abstractmethod
    async def load_actions(self, game_id: int) -> list[ActionRecord]:
        """The whole log in order, validated: each row a JSON object with a "type", seqs 1..N
        without gaps, N equal to the game's seq. Anything else raises CorruptLog."""

    @abstractmethod
    async def last_acted_at(self, game_id: int, not_by: int) -> float | None:
        """When a seat other than `not_by` last acted itself (an action with an actor other than
        `not_by`; the bot's own, with none, do not count); None if none did."""

    @abstractmethod
    async def load_snapshot(self, game_id: int) -> Snapshot | None:
        """The latest state; None before the game started. CorruptSnapshot if it is unreadable
        or does not match the game's seq."""

    # -- results -------------------------------------------------------------------------------
    @abstractmethod
    async def record_results(
        self, game_id: int, results: Sequence[SeatResult], now: float | None = None, *,
        ratings: RatingUpdate | None = None,
    ) -> None:
        """Store the final standings and mark the game finished, atomically. WrongStatus unless
        the game is active (so results are never recorded twice). The results copy the game's
        guild, map and variant. With `ratings` (and at least one user in it), the game is rated
        in the same transaction: the users' ratings in each scope are locked, `ratings.rate`
        is called with them, the new ratings stored (a rated game more for each), the change
        logged (`rating_changes`) and the game appended to the order of rated games
        (`rating_log`). A game is thus rated exactly once, when it finishes, and two games
        with a player in common that finish at the same time are rated one after the other."""

    @abstractmethod
    async def load_results(self, game_id: int) -> list[ResultRecord]: ...

    @abstractmethod
    async def results_in_guild(self, guild_id: int, user_id: int) -> list[ResultRecord]:
        """A user's finished games in one server, newest first: their seats' results and the
        seats they left to a computer player (user_id None, former_user_id the user)."""

    @abstractmethod
    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0,
    ) -> tuple[int, list[FinishedGame]]:
        """(how many, one page) of a server's finished games, newest first; with `user_id`,
        only the games that user played (or left)."""

    # -- ratings -------------------------------------------------------------------------------
    @abstractmethod
    async def get_ratings(self, scope: int, user_ids: Sequence[int]) -> dict[int, RatingRecord]:
        """The stored ratings of these users in the scope; users without one are missing."""

    @abstractmethod
    async def leaderboard(
        self, scope: int, *, min_games: int, limit: int = 10, offset: int = 0,
        map: str | None = None,
    ) -> tuple[int, list[LeaderboardRow]]:
        """(how many, one page) of the scope's players with at least `min_games` rated games,
        by value (highest first; ties by user id). With `map`, only those with a rated seat on
        that map (in that server, for a server's scope), with their count of such seats."""

    @abstractmethod
    async def rating_changes(self, game_id: int, scope: int) -> list[RatingChange]:
        """What rating the game changed in the scope, by user id."""

    @abstractmethod
    async def rating_log(self, scope: int) -> list[tuple[int, list[ResultRecord]]]:
        """Every game rated in the scope (in its server, for a server's scope), in the order it
        was rated, with its results: what recomputing the scope's ratings replays."""

    @abstractmethod
    async def results_for_user(
        self, user_id: int, limit: int | None = None, *, include_left: bool = False,
    ) -> list[ResultRecord]:
        """A user's finished games, newest first (for statistics). With `include_left`, also
        the games they left to a computer player (their record has user_id None and
        former_user_id the user: the computer's result is not theirs)."""

    # -- users ---------------------------------------------------------------------------------
    @abstractmethod
    async def get_user(self, user_id: int) -> UserPrefs | None: ...

    @abstractmethod
    async def get_locale(self, user_id: int) -> str | None: ...

    @abstractmethod
    async def set_locale(self, user_id: int, locale: str | None, now: float | None = None) -> None:
        """None clears the choice (back to the guild's or Discord's locale)."""

    @abstractmethod
    async def get_palette(self, user_id: int) -> str | None:
        """The user's colour palette for their own pictures (/ttr me colours), or None."""

    @abstractmethod
    async def set_palette(self, user_id: int, palette: str | None,
                          now: float | None = None) -> None:
        """None clears the choice (back to the standard colours)."""

    # -- servers -------------------------------------------------------------------------------
    @abstractmethod
    async def get_guild_locale(self, guild_id: int) -> str | None:
        """The language a server's new games are played in (/ttr server language), or None."""

    @abstractmethod
    async def set_guild_locale(self, guild_id: int, locale: str | None,
                               now: float | None = None) -> None:
        """None clears the choice (back to the server's Discord locale)."""

    @abstractmethod
    async def get_dms_closed(self, user_id: int) -> bool:
        """Whether DMs to the user failed last time (False for unknown users)."""

    @abstractmethod
    async def set_dms_closed(self, user_id: int, closed: bool, now: float | None = None) -> None: ...

    @abstractmethod
    async def set_notify(
        self, user_id: int, notify: Mapping[str, Any], now: float | None = None,
    ) -> None:
        """The user's notification settings (/ttr me notify), replacing the previous ones."""

    # -- away ----------------------------------------------------------------------------------
    @abstractmethod
    async def set_away(
        self, user_id: int, guild_id: int, since: float, until: float, *,
        owed: Owed | None = None, forget_before: float | None = None,
    ) -> None:
        """The user is away in that guild from `since` to `until`, replacing an earlier one
        (whose time taken so far goes into the log `away_taken` reads; log entries ended
        before `forget_before` are deleted)."""

    @abstractmethod
    async def clear_away(
        self, user_id: int, guild_id: int, *, owed: Owed | None = None,
        now: float | None = None,
    ) -> Away | None:
        """End the user's away period in that guild (its time taken, up to `now`, into the
        log); the one ended, or None. `owed` is written as of `now` (the service's clock)."""

    @abstractmethod
    async def get_away(self, user_id: int, guild_id: int) -> Away | None: ...

    @abstractmethod
    async def away_taken(self, user_id: int, guild_id: int,
                         after: float) -> list[tuple[float, float]]:
        """The (since, until) of the user's ended or replaced away periods in that guild
        that ended after `after`, as far as they were taken."""

    # -- votes ---------------------------------------------------------------------------------
    @abstractmethod
    async def open_vote(
        self, game_id: int, *, kind: str, target_seat: int | None, proposer: int,
        voters: Sequence[int], ballots: Mapping[int, bool], expires_at: float,
        now: float | None = None, owed: Callable[[int], Owed] | None = None,
    ) -> Vote:
        """Open a vote; VoteOpen if the game has one open already. `owed(vote_id)`: what
        opening it owes, written in its transaction (the caller's function of the new vote's
        id, which its messages and timers name)."""

    @abstractmethod
    async def get_vote(self, vote_id: int) -> Vote | None: ...

    @abstractmethod
    async def open_vote_of(self, game_id: int) -> Vote | None:
        """The game's open vote, if any."""

    @abstractmethod
    async def cast_ballot(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        """Record (or change) a ballot of an open vote; the vote as it is now (unchanged if it
        is closed), None if there is no such vote."""

    @abstractmethod
    async def close_vote(
        self, vote_id: int, status: str, now: float | None = None, *, owed: Owed | None = None,
    ) -> bool:
        """Close an open vote with `status`; False (and nothing written) if it was not open."""

    # -- the outbox ----------------------------------------------------------------------------
    @abstractmethod
    async def write_owed(
        self, owed: Owed, game_id: int | None = None, now: float | None = None,
    ) -> None:
        """Write outbox rows and timers on their own (what a timer's firing owes)."""

    @abstractmethod
    async def pending_outbox(
        self, limit: int = 500, *, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        """Rows not sent yet, oldest first; with `shards`, only those of games of guilds on
        those shards (rows without a game: shard 0's)."""

    @abstractmethod
    async def deliverable_outbox(
        self, now: float, *, lanes: int = 200, per_lane: int = 20, shards: Shards | None = None,
    ) -> list[OutboxRow]:
        """What the delivery worker may look at now: the first `per_lane` owed rows of each
        destination (lane) that is not refused until later (`refuse_lane`), at most `lanes`
        destinations, the one whose first row is due soonest first, each lane's rows together
        and in id order. However many rows one destination owes, the others' come too."""

    @abstractmethod
    async def owed_in_lane(self, lane: str) -> list[OutboxRow]:
        """Every owed row of one destination, in id order (a catch-up after a long block)."""

    @abstractmethod
    async def last_owed_at(self, game_id: int, key_prefix: str) -> float | None:
        """When the game's newest row whose key starts with `key_prefix` was written (owed),
        sent or not; None if there is none (kept as long as sent rows are)."""

    @abstractmethod
    async def refuse_lane(
        self, lane: str, now: float, retry_at: float, *, guild_id: int | None = None,
        code: int | None = None,
    ) -> LaneBlock:
        """Discord refused this destination: its rows wait until `retry_at`. The first refusal
        starts the block (refused_since = now, attempts 1); later ones count an attempt."""

    @abstractmethod
    async def lane_blocks(self, *, shards: Shards | None = None) -> list[LaneBlock]:
        """The refused destinations (of these shards' guilds; none: shard 0's)."""

    @abstractmethod
    async def clear_lane_block(self, lane: str) -> LaneBlock | None:
        """A post went through (or the destination was given up): the block ends; it as it
        was, or None if there was none."""

    @abstractmethod
    async def retry_lanes_at(self, lanes: Sequence[str], at: float) -> int:
        """Refused destinations to try again at `at` (a permission may be back); how many."""

    @abstractmethod
    async def open_games_in_guild(self, guild_id: int) -> list[int]:
        """Ids of the server's games in the lobby or in play, oldest first."""

    @abstractmethod
    async def purge_votes(self, before: float) -> int:
        """Delete votes closed before `before`; returns how many."""

    @abstractmethod
    async def claim_outbox(
        self, ids: Sequence[int], owner: str, now: float, lease: float = 60.0,
    ) -> bool:
        """Lease these owed rows to `owner` until now + lease, all or none: False (and nothing
        changed) if another owner holds a lease on one of them that has not run out, or one
        of them is no longer owed (sent or given up meanwhile, by another process: the caller
        read it before that and must read again, not send it twice). Sending, retrying or
        giving up a row ends its lease."""

    @abstractmethod
    async def release_outbox(self, owner: str) -> int:
        """End every lease `owner` holds on owed rows (it stops); returns how many."""

    @abstractmethod
    async def mark_outbox_sent(
        self, ids: Sequence[int], now: float | None = None, error: str | None = None,
    ) -> int:
        """Mark rows delivered (or, with `error`, given up); returns how many were owed."""

    @abstractmethod
    async def retry_outbox(self, row_id: int, due_at: float) -> int | None:
        """Count a failed attempt and try again at `due_at`; the attempts so far, or None."""

    @abstractmethod
    async def fail_outbox_lane(self, lane: str, error: str, now: float | None = None) -> int:
        """Give up every owed row of a lane (its channel is gone, or refused for too long), and
        end its block; returns how many rows."""

    @abstractmethod
    async def purge_outbox(self, before: float) -> int:
        """Delete rows sent (or given up) before `before`, and the blocks of destinations that
        owe nothing any more; returns how many rows."""

    # -- timers --------------------------------------------------------------------------------
    @abstractmethod
    async def add_timer(
        self, kind: str, due_at: float, payload: Mapping[str, Any] | None = None,
        game_id: int | None = None, now: float | None = None,
    ) -> int:
        """Persist a timer; return its id. The service's Scheduler.schedule also wakes its runner."""

    @abstractmethod
    async def delete_timer(self, timer_id: int) -> bool: ...

    @abstractmethod
    async def list_timers(self, game_id: int, kind: str | None = None) -> list[Timer]:
        """A game's timers (of one kind, or all), in due order."""

    @abstractmethod
    async def delete_timers(self, game_id: int, kind: str | None = None) -> int:
        """Delete a game's timers (of one kind, or all); return how many."""

    @abstractmethod
    async def retry_timer(self, timer_id: int, due_at: float) -> int | None:
        """Count a failed attempt and move the timer to `due_at` (ending its lease); return the
        attempts so far, or None if the timer is gone."""

    @abstractmethod
    async def next_due(self) -> Timer | None:
        """The earliest timer (ties: oldest id), or None."""

    @abstractmethod
    async def due_timers(
        self, now: float, limit: int | None = None, *, shards: Shards | None = None,
    ) -> list[Timer]:
        """Timers with due_at <= now, earliest first (the first `limit`); with `shards`, only
        those of games of guilds on those shards (timers without a game: shard 0's)."""

    @abstractmethod
    async def claim_timers(
        self, now: float, owner: str, *, limit: int | None = None, lease: float = 60.0,
        shards: Shards | None = None,
    ) -> list[Timer]:
        """Due timers (as `due_timers`) that nobody holds a live lease on, leased to `owner`
        until now + lease in one transaction, earliest first: of several processes claiming at
        once, each timer goes to one (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: the write
        lock). Deleting or retrying a timer ends its lease; a dead owner's lease runs out."""

    @abstractmethod
    async def next_claim_at(self, now: float, *, shards: Shards | None = None) -> float | None:
        """When the soonest timer (of these shards) can be claimed: its due time, or the end of
        a live lease on it if later; None if there is none."""

    @abstractmethod
    async def release_timers(self, owner: str) -> int:
        """End every lease `owner` holds on timers (it stops); returns how many."""

    # -- the bot's messages ----------------------------------------------------------------------
    @abstractmethod
    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int,
        now: float | None = None,
    ) -> None:
        """Remember (replacing any previous) the message of this kind, e.g. the turn panel."""

    @abstractmethod
    async def get_message(self, game_id: int, kind: str) -> MessageRef | None: ...

    @abstractmethod
    async def delete_message(self, game_id: int, kind: str) -> bool: ...
