"""/ttr vote: the players vote to hand an absent player's seat to a computer player (`replace`)
or to cancel the game (`cancel`), as Swords & Ravens lets a table do.

Who may be voted out: only an absent player, as Board Game Arena lets a table expel a player
only once their time ran out. Absent means their time ran out on a turn and they have not
played since (a timeout on record), or, in a game without a deadline, they have had the move
for `ABSENT_DAYS` days without playing. A player away in a game that waits for them (away:
pause) is not absent: away has its own limit (away.py). Absence is checked when the vote
opens and again when it passes: a player who came back meanwhile keeps their seat (the vote
is void), so the host is handed on only when the vote passes on a host who is still absent.

Who votes: every human player, except, for `replace`, the player voted on. The proposer votes
yes. A vote passes when more than half of its voters say yes, fails as soon as that can no
longer happen, and expires after 24 hours; a single voter is never a majority (a vote needs
two voters, and one whose other voters all left is void). A voter whose seat went to a
computer (they left) no longer counts. One vote at a time per game. Its effect is applied
before the vote is closed as passed, so a crash in between leaves an open vote whose next
ballot (or expiry) finds it decided and finishes it; applying twice is refused by the handover
itself. A collaborator of the service's core, given the handover (a vote that passes hands the
seat over); registers VOTE_EXPIRE with the scheduler.
"""
from __future__ import annotations

import logging

from ..store import NewTimer, Owed, Vote, VoteOpen, VoteStore
from .core_contract import CoreContract
from .effects import ServiceError
from .handover import SeatHandover
from .levels import LEAVE_LEVEL
from .messages import VotePost, VoteResult
from .owed import channel_row, dm_row
from .turns import DAY, HOUR, VOTE_EXPIRE, VOTE_HOURS, VoteExpire

log = logging.getLogger(__name__)
KINDS = ("replace", "cancel")
MIN_VOTERS = 2          # one voter alone is never a majority
# Without a deadline nothing else says a player is gone: three days is the third daily
# reminder of a turn without a move.
ABSENT_DAYS = 3


def outcome(vote, voters=None):
    """"passed", "failed" or None (still open) from the ballots of `voters` (the vote's
    own by default: those who still count)."""
    voters = vote.voters if voters is None else voters
    n = len(voters)
    yes = sum(1 for u in voters if vote.ballots.get(u) is True)
    no = sum(1 for u in voters if vote.ballots.get(u) is False)
    if n < MIN_VOTERS:
        return "void"
    if 2 * yes > n:
        return "passed"
    if 2 * (n - no) <= n:
        return "failed"
    return None


class Votes:
    def __init__(self, core: CoreContract, *, handover: SeatHandover) -> None:
        self.core = core
        self.store: VoteStore = core.store
        self.handover = handover
        core.scheduler.on(VOTE_EXPIRE, self._on_vote_expire)

    async def start_vote(self, game_id: int, user_id: int, kind: str,
                         target_id: int | None = None) -> Vote | None:
        if kind not in KINDS:
            raise ServiceError("service.vote_kind")
        async with self.core.lock(game_id):
            hosted = await self.core.active(game_id)
            if hosted.seat_of(user_id) is None:
                raise ServiceError("service.not_a_player")
            target = None
            if kind == "replace":
                target = hosted.seat_of(target_id) if target_id is not None else None
                if target is None:
                    raise ServiceError("service.replace_not_player")
                if target_id == user_id:
                    raise ServiceError("service.vote_self")
            now = self.core.clock()
            if target is not None:
                await self._check_absent(hosted, target, now)
            voters = [u for u in hosted.user_ids() if target is None or u != target_id]
            if len(voters) < MIN_VOTERS:
                raise ServiceError("service.vote_too_few")

            def owed(vote_id):      # the store calls it with the new vote's id
                rows = [channel_row(hosted, VotePost(vote_id), key=f"vote:{vote_id}")]
                rows += [dm_row(u, "bot.vote.dm", game_id=hosted.id, key_id=f"vote:{vote_id}:{u}",
                                channel=f"<#{hosted.channel_id}>") for u in voters if u != user_id]
                return Owed(tuple(rows), (NewTimer(VOTE_EXPIRE, now + VOTE_HOURS * HOUR,
                                                   VoteExpire(vote_id).to_payload()),))
            try:
                vote = await self.store.open_vote(
                    hosted.id, kind=kind, target_seat=target, proposer=user_id, voters=voters,
                    ballots={user_id: True}, expires_at=now + VOTE_HOURS * HOUR, now=now,
                    owed=owed)
            except VoteOpen:
                raise ServiceError("service.vote_open") from None
            self.core.committed(owed(vote.id))
            return await self._settle_vote(hosted, vote)

    async def cast_vote(self, vote_id: int, user_id: int, yes: bool) -> Vote | None:
        vote = await self.store.get_vote(vote_id)
        if vote is None:
            raise ServiceError("service.vote_gone")
        async with self.core.lock(vote.game_id):
            if vote.status != "open":
                raise ServiceError("service.vote_closed")
            hosted = await self.core.active(vote.game_id)
            if user_id not in self._voters(hosted, vote):
                raise ServiceError("service.vote_not_voter")
            vote = await self.store.cast_ballot(vote_id, user_id, bool(yes))
            return await self._settle_vote(hosted, vote)

    async def open_vote(self, game_id: int) -> Vote | None:
        return await self.store.open_vote_of(game_id)

    async def vote(self, vote_id: int) -> Vote | None:
        return await self.store.get_vote(vote_id)

    async def _settle_vote(self, hosted, vote, expired=False):
        """Under the lock: apply and close a decided vote. The vote as it is now."""
        result = outcome(vote, self._voters(hosted, vote)) if vote.status == "open" else None
        if result is None and not expired:
            return vote
        status = result or "expired"
        if status == "passed" and vote.kind == "replace" and \
                not await self._is_absent(hosted, vote.target_seat, self.core.clock()):
            status = "void"         # they came back while the vote ran: the seat stays theirs
        if status == "passed":
            await self._apply_vote(hosted, vote)
        owed = Owed((channel_row(hosted, VoteResult(vote.id, status),
                                 key=f"voteres:{vote.id}"),))
        if await self.store.close_vote(vote.id, status, now=self.core.clock(), owed=owed):
            self.core.committed(owed)
        return await self.store.get_vote(vote.id)

    @staticmethod
    def _voters(hosted, vote):
        """The vote's voters who still hold a seat (a player who left no longer counts)."""
        seated = set(hosted.user_ids())
        return [u for u in vote.voters if u in seated]

    async def _is_absent(self, hosted, seat, now):
        return await self._absence(hosted, seat, now) is None

    async def _check_absent(self, hosted, seat, now):
        why = await self._absence(hosted, seat, now)
        if why is not None:
            raise why

    async def _absence(self, hosted, seat, now):
        """None if the player of `seat` is absent (see the module's docstring), else the
        ServiceError saying why they may not be voted out."""
        info = hosted.seats[seat]
        if info.is_bot or info.user_id is None:
            return ServiceError("service.seat_is_bot", name=info.name)
        if hosted.settings.away == "pause":
            away = await self.core.away_of(hosted, info.user_id, now)
            if away is not None:
                return ServiceError("service.vote_target_away", name=info.name,
                                    until=f"<t:{int(away.until)}:f>")
        if info.timeouts > 0:
            return None
        game = hosted.game
        if not hosted.settings.deadline and game is not None and seat in game.to_move() and \
                now - hosted.updated_at >= ABSENT_DAYS * DAY:
            return None
        return ServiceError("service.vote_not_absent", name=info.name, count=ABSENT_DAYS)

    async def _apply_vote(self, hosted, vote):
        if vote.kind == "replace":
            if not hosted.seats[vote.target_seat].is_bot:
                await self.handover.hand_over(hosted, vote.target_seat, LEAVE_LEVEL, reason="vote",
                                              by=None)
        elif hosted.is_open:
            await self.core.cancel(hosted, reason="vote")

    async def _on_vote_expire(self, timer):
        vote = await self.store.get_vote(VoteExpire.from_payload(timer.payload).vote)
        if vote is None or vote.status != "open":
            return
        async with self.core.lock(vote.game_id):
            hosted = await self.core.load(vote.game_id)
            if hosted is None or not hosted.is_active:
                await self.store.close_vote(vote.id, "void", now=self.core.clock())
                return
            await self._settle_vote(hosted, vote, expired=True)
