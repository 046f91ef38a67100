"""Discord's REST rate limits, as the fake enforces them.

What Discord documents (developer docs, "Rate Limits"), and what this module models:

* **Global limit**: a bot may make 50 requests per second in total, counted per bot token and
  independent of any per-route limit. *Interaction endpoints* are not bound to it: the
  interaction callback (``POST /interactions/{id}/{token}/callback``) and the interaction
  webhook (``/webhooks/{application_id}/{token}`` and its ``/messages/...``: follow-ups,
  ``@original`` edits and deletes). Counted here over a sliding one-second window (stricter
  than a fixed window, and the same measure the load test reports as
  ``global_rest_per_s_max``). Requests without a bot token (``GET /gateway``) are limited by
  IP on Discord; not modelled.
* **Per-route buckets**: a route (method + path) has a bucket, keyed by its *top-level
  resources* ("major parameters"): ``channel_id``, ``guild_id``, or ``webhook_id`` +
  ``webhook_token``; the same route on another channel is another bucket. Each response on a
  limited route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds),
  ``-Reset-After`` (seconds, with decimals) and ``-Bucket`` (an id naming the limit, without
  the major parameters). Modelled as fixed windows that start with the first request, which
  is how Discord's headers behave (``Reset-After`` counts down from the first call).
* **A 429** has a JSON body ``{"message", "retry_after", "global"}``, a ``Retry-After`` header
  and ``X-RateLimit-Scope``: ``user`` (this bot's per-route limit), ``global`` (with
  ``X-RateLimit-Global: true``) or ``shared`` (a per-resource limit; not produced here).
  Discord's edge adds a ``Via`` header; discord.py treats a 429 without one as a Cloudflare
  ban and does not retry, so the fake sends it too.

Bucket sizes are not documented any more ("should not be hard coded"); the defaults are the
values Discord's headers report and that Discord's old rate-limit table listed, as libraries
and bot authors observe them: creating a message 5 per 5 s per channel, editing one 5 per 5 s
per channel, deleting one 5 per 1 s per channel, reactions 1 per 0.25 s per channel, an
interaction webhook (follow-ups and edits of one interaction) 5 per 2 s per token, as for
other webhooks. Every limit is a plain attribute of :class:`RateLimits`, so a test can lower
one to force the path (``fake.server.rate_limits.global_limit = 5``).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from aiohttp import web

#: The route templates of the interaction endpoints (outside the global limit).
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/{app_id}/{token}")
MAJOR_PARAMETERS = ("channel_id", "guild_id", "app_id", "token", "interaction_id")


@dataclass(frozen=True, slots=True)
class RouteLimit:
    """One route's bucket: `limit` requests per `period` seconds, per major parameters.
    Routes with the same `bucket` id share their counts (as Discord's bucket hash says)."""

    limit: int
    period: float
    bucket: str


def default_routes() -> dict[tuple[str, str], RouteLimit]:
    """The per-route buckets (see the module doc for where the numbers come from)."""
    msg = "/channels/{channel_id}/messages"
    react = msg + "/{message_id}/reactions/{emoji}/@me"
    webhook = "/webhooks/{app_id}/{token}"
    hook = RouteLimit(5, 2.0, "interaction-webhook")
    return {
        ("POST", msg): RouteLimit(5, 5.0, "message-create"),
        ("PATCH", msg + "/{message_id}"): RouteLimit(5, 5.0, "message-edit"),
        ("DELETE", msg + "/{message_id}"): RouteLimit(5, 1.0, "message-delete"),
        ("PUT", react): RouteLimit(1, 0.25, "reaction"),
        ("DELETE", react): RouteLimit(1, 0.25, "reaction"),
        ("POST", "/channels/{channel_id}/typing"): RouteLimit(5, 5.0, "typing"),
        ("GET", msg): RouteLimit(5, 5.0, "message-history"),
        # Threads: starting one from a message has its own bucket per channel; modifying a
        # channel (a thread's archive state) another. Discord's extra limit on renaming a
        # channel (twice per 10 minutes) is not modelled: the bot never renames.
        ("POST", msg + "/{message_id}/threads"): RouteLimit(5, 10.0, "thread-create"),
        ("PATCH", "/channels/{channel_id}"): RouteLimit(5, 5.0, "channel-edit"),
        ("GET", "/channels/{channel_id}"): RouteLimit(5, 5.0, "channel-get"),
        ("POST", webhook): hook,
        ("PATCH", webhook + "/messages/{message_id}"): hook,
        ("DELETE", webhook + "/messages/{message_id}"): hook,
        ("GET", webhook + "/messages/{message_id}"): hook,
    }


@dataclass
class RateLimits:
    """The limits the fake enforces (change them on a running server, e.g. in a test)."""

    enabled: bool = True
    global_limit: int = 50
    global_period: float = 1.0
    routes: dict[tuple[str, str], RouteLimit] = field(default_factory=default_routes)


@dataclass(slots=True)
class _Window:
    count: int
    resets_at: float


@dataclass(frozen=True, slots=True)
class Limited:
    """A request the fake answered 429: when, which route, which scope."""

    at: float
    method: str
    route: str
    scope: str  # "global" or "user"
    retry_after: float


class RateLimiter:
    """The state behind :class:`RateLimits`: buckets, the global window, what was refused.

    ``limited`` counts every 429 by ``(scope, "METHOD /route/template")``; ``history`` keeps
    the time of every request that counted against the global limit (per token), so a test or
    the load test can ask for the busiest second (:meth:`busiest_second`)."""

    def __init__(self, limits: RateLimits | None = None) -> None:
        self.limits = limits or RateLimits()
        self._windows: dict[tuple[str, str, str], _Window] = {}
        self._recent: dict[str, deque[float]] = {}
        self.history: dict[str, list[float]] = {}
        self.limited: Counter[tuple[str, str]] = Counter()
        self.log: list[Limited] = []

    @staticmethod
    def exempt(route: str) -> bool:
        """Is this route outside the global limit (an interaction endpoint)?"""
        return route.startswith(EXEMPT_PREFIXES)

    def admit(
        self, method: str, route: str, params: dict[str, str], token: str | None, now: float
    ) -> tuple[web.Response | None, dict[str, str]]:
        """Decide one request: (a 429 to send instead, or None) and the rate-limit headers
        for its answer. An admitted request is counted; a refused one is not."""
        limits = self.limits
        if not limits.enabled:
            return None, {}
        route_limit = limits.routes.get((method, route))
        window: _Window | None = None
        key: tuple[str, str, str] | None = None
        if route_limit is not None:
            major = "+".join(params[p] for p in MAJOR_PARAMETERS if p in params)
            key = (token or "", route_limit.bucket, major)
            window = self._windows.get(key)
            if window is None or now >= window.resets_at:
                window = _Window(0, now + route_limit.period)
                self._windows[key] = window
        counted = token is not None and not self.exempt(route)
        recent: deque[float] | None = None
        if counted:
            recent = self._recent.setdefault(token or "", deque())
            while recent and recent[0] <= now - limits.global_period:
                recent.popleft()
            if len(recent) >= limits.global_limit:
                retry = recent[0] + limits.global_period - now
                return self._refuse(now, method, route, "global", retry, None, None), {}
        if window is not None and route_limit is not None and window.count >= route_limit.limit:
            retry = window.resets_at - now
            return self._refuse(now, method, route, "user", retry, route_limit, window), {}
        if recent is not None:
            recent.append(now)
            self.history.setdefault(token or "", []).append(now)
        if window is None or route_limit is None:
            return None, {}
        window.count += 1
        return None, _bucket_headers(route_limit, window, now)

    def _refuse(
        self,
        now: float,
        method: str,
        route: str,
        scope: str,
        retry_after: float,
        route_limit: RouteLimit | None,
        window: _Window | None,
    ) -> web.Response:
        # Whole milliseconds, rounded up: a client that waits `retry_after` is never early
        # (rounded to the nearest, a wait could end up to 0.5 ms before the slot frees, and
        # the retry be refused again, spending one of discord.py's five tries).
        retry_after = max(0.001, math.ceil(round(retry_after * 1000, 6)) / 1000)
        self.limited[(scope, f"{method} {route}")] += 1
        self.log.append(Limited(now, method, route, scope, retry_after))
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        if route_limit is not None and window is not None:
            headers |= _bucket_headers(route_limit, window, now)
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": scope == "global",
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def count(self, scope: str | None = None) -> int:
        """How many 429s the fake sent (of one scope, or all)."""
        return sum(n for (s, _route), n in self.limited.items() if scope in (None, s))

    def busiest_second(
        self, start: float = -math.inf, end: float = math.inf, token: str | None = None
    ) -> int:
        """The most requests counted against the global limit in any `global_period`-long
        window between `start` and `end` (one token, or the busiest token)."""
        tokens = [token] if token is not None else list(self.history)
        best = 0
        period = self.limits.global_period
        for tok in tokens:
            times = [t for t in self.history.get(tok, []) if start <= t <= end]
            lo = 0
            for hi, t in enumerate(times):
                while times[lo] <= t - period:
                    lo += 1
                best = max(best, hi - lo + 1)
        return best


def _bucket_headers(route_limit: RouteLimit, window: _Window, now: float) -> dict[str, str]:
    reset_after = max(0.0, window.resets_at - now)
    return {
        "X-RateLimit-Limit": str(route_limit.limit),
        "X-RateLimit-Remaining": str(max(0, route_limit.limit - window.count)),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": route_limit.bucket,
    }
