"""A server's game life, as the adapter asks for it: a player's statistics, the leaderboard,
the history of finished games, a finished game's film and what it did to the ratings.

A collaborator of the service's core. Every method takes the server (guild id) it is asked in and answers
with read-only values of this module, never store records; a game of another server is "no
such game". Bad input is a ServiceError with a catalog key: an unknown map, a game that is not
finished. No games yet is not an error: an empty page or empty statistics, which the adapter
words.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..maps import available_maps
from ..ratings import MIN_GAMES, Rating
from ..stats import PlayerStats, player_stats
from ..store import GLOBAL_SCOPE, ResultStore
from .adapter_state import PostedMessage
from .core_contract import CoreContract
from .effects import ServiceError
from .finish import game_rated, rated_seat, recompute, scopes
from .hosted import HostedGame

PER_PAGE = 10


@dataclass(frozen=True)
class LeaderboardEntry:
    place: int                    # 1 = first
    user_id: int
    rating: Rating
    value: float                  # the leaderboard value, mu - 3 sigma
    games: int                    # rated games in the scope
    map_games: int | None = None  # rated games on the map asked for


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int | None          # None: every server
    map_id: str | None
    page: int                     # 1-based, within 1..pages
    pages: int
    total: int                    # players on the leaderboard
    entries: tuple
    min_games: int = MIN_GAMES


@dataclass(frozen=True)
class HistoryPlayer:
    name: str
    user_id: int | None           # the seat's human, or who left it; None for a computer
    score: int
    rank: int
    won: bool
    handover: str | None = None   # "left", "replaced", ...: a computer finished the seat


@dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    finished_at: float
    map_id: str
    variant: str
    channel_id: int
    players: tuple                # HistoryPlayer in seat order
    final_post: PostedMessage | None
    rated: bool


@dataclass(frozen=True)
class HistoryPage:
    user_id: int | None           # only this user's games, or every game of the server
    page: int
    pages: int
    total: int
    entries: tuple


@dataclass(frozen=True)
class FilmInput:
    """What render.film.render_film takes: the game as dealt, the names, the engine actions."""
    game: Game
    names: list
    actions: list


@dataclass(frozen=True)
class RatingDelta:
    user_id: int
    name: str
    before: Rating | None         # None: the player's first rated game here
    after: Rating
    games: int = 1                # the player's rated games here (as stored now)


@dataclass(frozen=True)
class GameRating:
    rated: bool
    reason: str | None            # why not (a catalog key)
    changes: tuple                # RatingDelta per rated player, best placed first


async def _page(fetch, page, per_page):
    """(page, pages, total, rows) of a paged store query `fetch(limit, offset)`; a page past
    the end (the list shrank, or a made-up number) is the last page."""
    page = max(1, int(page))
    total, rows = await fetch(per_page, (page - 1) * per_page)
    pages = max(1, math.ceil(total / per_page))
    if page > pages:
        page = pages
        total, rows = await fetch(per_page, (page - 1) * per_page)
        pages = max(1, math.ceil(total / per_page))
    return page, pages, total, rows


class GameRecords:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: ResultStore = core.store

    def _check_map(self, map_id):
        if map_id is not None and map_id not in available_maps():
            raise ServiceError("service.unknown_map", map=map_id)

    async def stats(self, guild_id: int, user_id: int, *, name: str,
                    map_id: str | None = None, everywhere: bool = False) -> PlayerStats:
        """A player's statistics in this server (or, `everywhere`, over every server), for
        one map or all: stats.PlayerStats (empty when they have no finished game there)."""
        self._check_map(map_id)
        if everywhere:
            rows = await self.store.results_for_user(user_id, include_left=True)
            scope = GLOBAL_SCOPE
        else:
            rows = await self.store.results_in_guild(guild_id, user_id)
            scope = guild_id
        stored = (await self.store.get_ratings(scope, [user_id])).get(user_id)
        return player_stats(
            user_id, rows, name=name, map_id=map_id, where="global" if everywhere else "server",
            rating=Rating(stored.mu, stored.sigma) if stored else None,
            rated_games=stored.games if stored else 0)

    async def leaderboard(self, guild_id: int | None, page: int = 1, *, map_id: str | None = None,
                          per_page: int = PER_PAGE) -> LeaderboardPage:
        """One page of this server's leaderboard: the players with MIN_GAMES rated games here,
        by the conservative rating; with `map_id`, those with a rated game on that map."""
        self._check_map(map_id)
        scope = guild_id or GLOBAL_SCOPE
        page, pages, total, rows = await _page(
            lambda limit, offset: self.store.leaderboard(
                scope, min_games=MIN_GAMES, limit=limit, offset=offset, map=map_id),
            page, per_page)
        offset = (page - 1) * per_page
        entries = tuple(LeaderboardEntry(offset + i + 1, r.user_id, Rating(r.mu, r.sigma),
                                         r.value, r.games, r.map_games)
                        for i, r in enumerate(rows))
        return LeaderboardPage(guild_id, map_id, page, pages, total, entries)

    async def history(self, guild_id: int, page: int = 1, *, user_id: int | None = None,
                      per_page: int = PER_PAGE) -> HistoryPage:
        """One page of this server's finished games, newest first (only `user_id`'s, if
        given), each with its players and scores and where its final post is."""
        page, pages, total, games = await _page(
            lambda limit, offset: self.store.finished_games(
                guild_id, user_id=user_id, limit=limit, offset=offset),
            page, per_page)
        entries = []
        for g in games:
            post = g.final_post
            entries.append(HistoryEntry(
                game_id=g.game.id, finished_at=g.game.finished_at, map_id=g.game.map,
                variant=g.game.variant, channel_id=g.game.channel_id, rated=g.rated,
                final_post=PostedMessage(post.channel_id, post.message_id) if post else None,
                players=tuple(HistoryPlayer(
                    name=r.name or "?", score=r.score, rank=r.rank, won=r.won,
                    user_id=r.user_id if r.user_id is not None else r.former_user_id,
                    handover=r.handover or ("left" if r.former_user_id is not None else None))
                    for r in g.results)))
        return HistoryPage(user_id, page, pages, total, tuple(entries))

    async def finished_game(self, game_id: int, guild_id: int | None) -> HostedGame:
        """The finished game `game_id` of this server (ServiceError otherwise)."""
        hosted = await self.core.load(game_id)
        if hosted is None or hosted.guild_id != guild_id:
            raise ServiceError("service.no_such_game", game=game_id)
        if not hosted.is_finished:
            raise ServiceError("service.not_finished")
        return hosted

    async def latest_finished_game(self, guild_id: int) -> int | None:
        """The id of this server's latest finished game, or None."""
        _, games = await self.store.finished_games(guild_id, limit=1)
        return games[0].game.id if games else None

    async def replay_data(self, game_id: int, guild_id: int | None) -> FilmInput:
        """A finished game of this server as the film needs it: the game as dealt, the seats'
        names, and its actions as engine actions (the log replayed from the seed)."""
        hosted = await self.finished_game(game_id, guild_id)
        start, actions, _ = await self.core.replayed(game_id)
        return FilmInput(start, hosted.names(), actions)

    async def game_rating(self, game_id: int) -> GameRating:
        """Whether the finished game was rated, and what it did to its players' ratings in its
        server (for the final post)."""
        hosted = await self.core.load(game_id)
        if hosted is None or not hosted.is_finished:
            raise ServiceError("service.not_finished")
        results = await self.store.load_results(game_id)
        rated, reason = game_rated(hosted, [rated_seat(r) for r in results])
        changes: dict[int, Any] = {c.user_id: c for c in await self.store.rating_changes(
            game_id, scopes(hosted.guild_id)[0])}
        order = sorted((r for r in results if rated_seat(r).user_id in changes),
                       key=lambda r: (r.rank, r.seat))
        stored = await self.store.get_ratings(scopes(hosted.guild_id)[0], list(changes))
        deltas = []
        for r in order:
            c = changes[rated_seat(r).user_id]
            before = None if c.mu_before is None else Rating(c.mu_before, c.sigma_before)
            games = stored[c.user_id].games if c.user_id in stored else 1
            deltas.append(RatingDelta(c.user_id, r.name or "?", before,
                                      Rating(c.mu_after, c.sigma_after), games))
        return GameRating(rated, reason, tuple(deltas))

    async def recompute_ratings(self, scope: int) -> dict:
        """{user id: (Rating, rated games)} recomputed from the results of the scope's rated
        games, in the order they were rated."""
        return recompute(await self.store.rating_log(scope))

    async def stored_ratings(self, scope: int, user_ids: list[int]) -> dict:
        """{user id: (Rating, rated games)} as stored."""
        got = await self.store.get_ratings(scope, user_ids)
        return {u: (Rating(r.mu, r.sigma), r.games) for u, r in got.items()}
