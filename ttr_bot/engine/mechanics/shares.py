"""Pennsylvania's stock shares (RULES.md §14.2–14.6). A claim of a route showing companies takes
the lowest-numbered remaining share of one of them (`ClaimRoute.share`, mandatory while one is
left; chosen when several are); with 2 players the claimer then gives the dummy the lowest share
left of one of the same route's companies (`ClaimRoute.dummy_share`). At the end each company's
holders are ranked by count, equal counts by the lowest number held, and the k-th scores the
k-th value of `share_points`. The dummy ranks with half its shares, rounded up, drawn at random
when the game is scored (the record's `dummy_reveal`, else the seed), and scores nothing.

The state: `next` (company -> the next share number), `held` (per seat: company -> numbers) and,
with 2 players, `dummy` (company -> numbers). Companies are JSON keys: strings. A seat's view
lists the dummy's count, not its shares (`hidden`)."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import ClaimRoute
from ..errors import DeckError, Illegal
from ..event_types import SHARE, ShareEvent
from .base import Mechanic

if TYPE_CHECKING:
    from ..board import Route
    from ..events import Event
    from ..final_scores import Score
    from ..game import Game

# its event: event_types.ShareEvent (`SHARE`)


class Shares(Mechanic):
    name: ClassVar[str] = "shares"
    action_fields: ClassVar[tuple[str, ...]] = ("share", "dummy_share")

    def setup(self, game: Game) -> Any:
        state: dict[str, Any] = {"next": {str(c): 1 for c in sorted(self.rules.share_points)},
                                 "held": [{} for _ in range(game.n)]}
        if game.n == 2:
            state["dummy"] = {}
        return state

    def hidden(self, state: Any, seat: int) -> Any:
        """With the dummy: its shares stay out (a seat sees their count). The next number of
        each company is public, as the stacks of shares are at a table (which share a claim
        takes, and whether the dummy gets one, depend on it), so the dummy's holdings can be
        worked out; which half of them counts is drawn only when the game is scored."""
        if "dummy" not in state:
            return state
        shown = {k: v for k, v in state.items() if k != "dummy"}
        shown["dummy_count"] = sum(len(v) for v in state["dummy"].values())
        return shown

    def unhide(self, seen: Any) -> Any:
        """The full state `hidden` came from: the dummy holds every number taken that no
        player holds."""
        if "dummy_count" not in seen:
            return seen
        dummy: dict[str, list[int]] = {}
        for c, nxt in seen["next"].items():
            held = {n for h in seen["held"] for n in h.get(c, [])}
            numbers = [n for n in range(1, nxt) if n not in held]
            if numbers:
                dummy[c] = numbers
        return {"next": seen["next"], "held": seen["held"], "dummy": dummy}

    # ----- taking shares ---------------------------------------------------------------------
    def _left(self, state: dict[str, Any], route: Route, taken: int = 0) -> list[int]:
        """The route's companies with a share left (after `taken`'s next share is gone)."""
        out = []
        for c in route.shares:
            nxt = state["next"][str(c)] + (1 if c == taken else 0)
            if nxt <= c:
                out.append(c)
        return out

    def _choice(self, choice: int, left: list[int]) -> int:
        if choice:
            if choice not in left:
                raise Illegal("share_not_here")
            return choice
        if len(left) > 1:
            raise Illegal("share_choose")
        return left[0] if left else 0

    def check_claim(self, game: Game, action: ClaimRoute) -> None:
        state = game.extra[self.name]
        route = self.board.routes[action.route]
        mine = self._choice(action.share, self._left(state, route))
        if action.dummy_share and ("dummy" not in state or not mine):
            raise Illegal("dummy_share_not_here")
        if "dummy" in state and mine:
            self._choice(action.dummy_share, self._left(state, route, mine))

    def claim_variants(self, game: Game, claim: ClaimRoute) -> list[ClaimRoute]:
        state = game.extra[self.name]
        route = self.board.routes[claim.route]
        left = self._left(state, route)
        if not left:
            return [claim]
        out = []
        for c in left:
            dummy = self._left(state, route, c) if "dummy" in state else []
            for d in dummy or [0]:
                out.append(ClaimRoute(claim.seat, claim.route, claim.cards, claim.ferry, c, d))
        return out

    def _take(self, state: dict[str, Any], company: int) -> int:
        number: int = state["next"][str(company)]
        state["next"][str(company)] = number + 1
        return number

    def after_claim(self, game: Game, seat: int, route: Route, action: ClaimRoute) -> list[Event]:
        state = game.extra[self.name]
        mine = self._choice(action.share, self._left(state, route))
        if not mine:
            return []
        dummy = None
        if "dummy" in state:
            d = self._choice(action.dummy_share, self._left(state, route, mine))
        number = self._take(state, mine)
        state["held"][seat].setdefault(str(mine), []).append(number)
        if "dummy" in state and d:
            dn = self._take(state, d)
            state["dummy"].setdefault(str(d), []).append(dn)
            dummy = [d, dn]
        event: ShareEvent = {"type": SHARE, "seat": seat, "company": mine, "number": number,
                             "private": {"dummy": dummy}}
        return [event]

    # ----- scoring -----------------------------------------------------------------------------
    def revealed(self, game: Game) -> list[list[int]]:
        """The dummy's shares that count: half, rounded up, of all it holds, drawn when the game
        is scored (RULES.md §14.6.4): the record's `dummy_reveal`, else from the seed (a query:
        the game's own generator is not touched)."""
        state = game.extra[self.name]
        shares = sorted([int(c), n] for c, ns in state.get("dummy", {}).items() for n in ns)
        want = (len(shares) + 1) // 2
        fixed: Any = game.dealer.fixed.get("dummy_reveal")   # [company, number] pairs
        if fixed is not None:
            pairs = sorted([int(c), int(n)] for c, n in fixed)
            held = [list(s) for s in shares]
            if len(pairs) != want or any(p not in held for p in pairs) \
                    or len({tuple(p) for p in pairs}) != len(pairs):
                raise DeckError("decks.dummy_reveal does not fit the dummy's shares "
                                f"({want} of {len(shares)})")
            return pairs
        rng = random.Random(f"dummy_reveal:{game.dealer.seed}:{shares}")
        return sorted(rng.sample(shares, want))

    def score(self, game: Game, players: list[Score]) -> None:
        state = game.extra[self.name]
        holders: list[dict[str, list[int]]] = [dict(h) for h in state["held"]]
        if "dummy" in state:
            shown: dict[str, list[int]] = {}
            for c, n in self.revealed(game):
                shown.setdefault(str(c), []).append(n)
            holders.append(shown)          # the dummy: last, ranked, scoring nothing
        points = [0] * len(holders)
        for company, values in self.rules.share_points.items():
            key = str(company)
            ranked = sorted((i for i, h in enumerate(holders) if h.get(key)),
                            key=lambda i: (-len(holders[i][key]), min(holders[i][key])))
            for k, i in enumerate(ranked[:len(values)]):
                points[i] += values[k]
        for p, pl in enumerate(players):
            pl["bonuses"]["shares"] = points[p]
            pl["shares"] = {c: sorted(ns) for c, ns in sorted(state["held"][p].items(),
                                                              key=lambda kv: int(kv[0]))}

    def output(self, game: Game) -> dict[str, Any]:
        state = game.extra[self.name]
        if "dummy" not in state:
            return {}
        return {"dummy": {"shares": {c: sorted(ns) for c, ns in sorted(state["dummy"].items(),
                                                                       key=lambda kv: int(kv[0]))},
                          "revealed": self.revealed(game)}}
