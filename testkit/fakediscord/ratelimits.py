"""Rate limits, injected: Discord answers 429 Too Many Requests when a bot goes over a route's
limit (per route) or over its global limit (all routes), with how long to wait. The fake does
not count a bot's requests; a test says when Discord answers 429 (`fake.rate_limit`), and the
next `count` requests of that route get Discord's 429: the body `{"message", "retry_after",
"global", "code": 0}` and the headers `Retry-After`, `X-RateLimit-Scope` (`user` or `global`),
`X-RateLimit-Global` for a global one, and `Via` (discord.py takes a 429 without it for a
Cloudflare ban). Each 429 is recorded in `fake.requests` like any answer (status 429), so a test
counts the requests a burst cost.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, List, Optional

from aiohttp import web

API = "/api/v10"


@dataclass
class Burst:
    """`count` 429s still to answer to the requests `applies(method, path)` accepts."""
    applies: Callable[[str, str], bool]
    count: int
    retry_after: float
    is_global: bool
    answered: int = 0


class RateLimitsMixin:
    bursts: List[Burst]

    def rate_limit(self, count: int, *, channel=None, method: Optional[str] = "POST",
                   path: Optional[str] = None, retry_after: float = 0.05,
                   is_global: bool = False) -> Burst:
        """The next `count` requests to a route are answered 429: the messages of `channel`
        (a Channel: a server channel, a thread or a DM channel), or the paths starting with
        `path` (None and no channel: every route, as a global limit is), with `method` (None:
        any). `retry_after`: seconds Discord asks the bot to wait (discord.py sleeps that long
        itself, for up to five tries of one request). Returns the Burst (`answered` counts)."""
        prefix = f"{API}/channels/{channel.id}/messages" if channel is not None else \
            (API + path if path else None)

        def applies(m: str, p: str) -> bool:
            return (method is None or m == method) and (prefix is None or p.startswith(prefix))
        burst = Burst(applies, count, retry_after, is_global)
        self.bursts.append(burst)
        return burst

    def _rate_limited(self, method: str, path: str) -> Optional[web.Response]:
        for burst in self.bursts:
            if burst.answered < burst.count and burst.applies(method, path):
                burst.answered += 1
                body = {"message": "You are being rate limited.",
                        "retry_after": burst.retry_after, "global": burst.is_global, "code": 0}
                headers = {"Retry-After": f"{burst.retry_after:g}", "Via": "1.1 google",
                           "X-RateLimit-Scope": "global" if burst.is_global else "user"}
                if burst.is_global:
                    headers["X-RateLimit-Global"] = "true"
                # exactly "application/json" (rest.jsonr): else discord.py reads a str
                return web.Response(body=json.dumps(body).encode(), status=429,
                                    headers=headers, content_type="application/json")
        return None
