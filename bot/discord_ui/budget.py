"""The bot's share of Discord's global rate limit, and what it spends it on.

Discord lets one bot token make 50 REST requests per second in total (the *global* limit),
whatever the route; interaction endpoints (the callback that acknowledges a click, and the
interaction webhook: follow-ups, edits of the original response) are not counted. discord.py
paces each route by its bucket headers but not the global limit: past it, Discord answers
429 and discord.py stops every request of the process until `retry_after`. For this bot
every click's acknowledgement and hand view travel on interaction endpoints, so what counts
is the public side: table message edits, turn pings and their deletion, results, lobbies.

`RestBudget` sees every request the process sends (an aiohttp trace on discord.py's session,
so retries count too), counts them by kind, and keeps the times of the counted ones over the
last second. The presenter asks it before a public call (`slot`) and waits if the share is
spent, and it asks how hard to stretch busy tables' refreshes (`stretch`): public refreshes
slow down on purpose, clicks never.

Several processes on one token (a shard cluster) share the 50: each takes
``50 * len(SHARD_IDS) / SHARD_COUNT``, its shards' part (`share_for`). A counter in the
database would follow the load more closely but would put a round trip to PostgreSQL in
front of every public edit, and a process that died holding part of it would need expiry;
tables are spread over shards by guild id, so an even split of shards is an even split of
work, and the static share costs nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

GLOBAL_LIMIT = 50.0  # Discord: requests per second per bot token (interaction routes excepted)
WINDOW = 1.0
#: This process paces itself to this part of its share. Discord counts a request when it
#: arrives, this budget when it leaves; a loop that stalls (here, or the server's) or a
#: connection that queues bunches requests paced over one of our seconds into one of theirs.
#: At 300 tables on two saturated cores, 0.8 and 0.85 of a full share left here as up to 50 in
#: one of the fake's seconds (a few global 429s a minute); see docs/scaling.md.
ARRIVAL_MARGIN = 0.85
HEADROOM = 0.8  # public refreshes use at most this part of the share; the rest is for others
#: Refresh interval multipliers by how much of the last second's share was used.
STRETCH_STEPS = ((0.65, 1), (0.8, 2), (0.9, 3))  # (pressure below, intervals)
MAX_STRETCH = 4
CALM_SECONDS = 10.0  # this long without pressure ends a shedding episode
PENDING_EXPIRY = 5.0  # a granted slot whose request was not seen by then is given back
#: A global 429 says requests arrived faster than they left (see `ARRIVAL_MARGIN`): the pace
#: drops by this factor (at most once a `WINDOW`, since one burst brings several), to no less
#: than `SLOWEST`, and climbs back by `RECOVERY` every `RECOVERY_SECONDS` without another.
BACKOFF = 0.8
SLOWEST = 0.5
RECOVERY = 0.05
RECOVERY_SECONDS = 5.0

KINDS = (
    "interaction_response",  # POST /interactions/{id}/{token}/callback
    "webhook_edit",  # PATCH /webhooks/{app}/{token}/messages/{id}
    "webhook_post",  # POST /webhooks/{app}/{token} (follow-ups)
    "webhook_other",
    "channel_edit",  # PATCH /channels/{id}/messages/{id}
    "channel_post",  # POST /channels/{id}/messages
    "channel_delete",  # DELETE /channels/{id}/messages/{id}
    "other",
)


def kind_of(method: str, path: str) -> str:
    """Which kind of REST call this is (see `KINDS`); exempt ones start with
    "interaction" or "webhook"."""
    parts = path.split("/api/", 1)[-1].split("/")[1:]  # drop "v10"
    head = parts[0] if parts else ""
    if head == "interactions":
        return "interaction_response"
    if head == "webhooks":
        if method == "PATCH":
            return "webhook_edit"
        return "webhook_post" if method == "POST" and len(parts) <= 3 else "webhook_other"
    if head == "channels" and len(parts) >= 3 and parts[2] == "messages":
        if method == "POST" and len(parts) == 3:
            return "channel_post"
        if method == "PATCH" and len(parts) == 4:
            return "channel_edit"
        if method == "DELETE" and len(parts) == 4:
            return "channel_delete"
    return "other"


def exempt(kind: str) -> bool:
    """Is this kind outside the global limit (an interaction endpoint)?"""
    return kind.startswith(("interaction", "webhook"))


def _channel_of(path: str) -> int:
    """The channel id of a `/channels/{id}/...` path (0 for any other)."""
    parts = path.split("/channels/", 1)
    if len(parts) < 2:
        return 0
    head = parts[1].split("/", 1)[0]
    return int(head) if head.isdigit() else 0


def share_for(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's part of the token's global limit: its shards' share of all shards."""
    if not shard_count or not shard_ids:
        return GLOBAL_LIMIT
    return GLOBAL_LIMIT * len(shard_ids) / shard_count


class RestBudget:
    """Counts this process's REST calls and paces its public ones within `share` per second."""

    def __init__(
        self, share: float = GLOBAL_LIMIT, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.share = share
        self.clock = clock
        self._factor = 1.0  # of `share`, lowered by global 429s (`limited`)
        self._limited_at: float | None = None  # start of the current recovery step
        self._last_429: float | None = None
        self.global_429s = 0
        self.counts: Counter[str] = Counter()
        self._sent: deque[float] = deque()  # when counted calls were sent, oldest first
        # Slots granted whose request is not sent yet, by (method, channel id): a request that
        # was not granted one (a retry, any other call) is counted as well, not instead.
        self._pending: dict[tuple[str, int], deque[float]] = {}
        self._lock = asyncio.Lock()
        self._shedding_since: float | None = None
        self._calm_since: float | None = None
        self.expired = 0  # slots granted whose request was never seen (see `used`)
        self.waited = 0.0  # seconds callers spent waiting in `slot`, in total
        self.slots = 0
        self.returned = 0  # slots given back unused (`give_back`)
        self.held = 0.0  # seconds between a slot's grant and its request, in total

    # ---- counting ------------------------------------------------------------------------

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that records every request discord.py sends (pass it as the
        client's `http_trace`)."""
        config = aiohttp.TraceConfig()

        async def started(
            _session: aiohttp.ClientSession, _ctx: SimpleNamespace, params: Any
        ) -> None:
            path = params.url.path
            if "/api/" in path:  # REST, not the gateway's websocket handshake
                self.record(params.method, path)

        async def ended(
            _session: aiohttp.ClientSession, _ctx: SimpleNamespace, params: Any
        ) -> None:
            response = params.response
            if response.status == 429 and (
                response.headers.get("X-RateLimit-Global")
                or response.headers.get("X-RateLimit-Scope") == "global"
            ):
                self.limited()

        config.on_request_start.append(started)
        config.on_request_end.append(ended)
        return config

    def limited(self) -> None:
        """Discord answered a global 429: pace lower for a while (discord.py itself waits
        out the `retry_after` and sends the request again)."""
        now = self.clock()
        self.global_429s += 1
        factor = self.factor()
        if self._last_429 is not None and now - self._last_429 < WINDOW:
            return  # the same burst
        self._last_429 = now
        self._factor = max(SLOWEST, factor * BACKOFF)
        self._limited_at = now
        log.warning(
            "a global 429 from Discord: pacing at %.0f%% of this process's %.0f requests/s "
            "for now (requests arrived bunched)",
            self._factor * 100,
            self.share,
        )

    def factor(self) -> float:
        """The part of `share` this process paces to now (1 unless a global 429 lowered it)."""
        if self._limited_at is not None:
            calm = self.clock() - self._limited_at
            self._factor = min(1.0, self._factor + RECOVERY * int(calm / RECOVERY_SECONDS))
            if self._factor >= 1.0:
                self._limited_at = None
            else:
                self._limited_at += RECOVERY_SECONDS * int(calm / RECOVERY_SECONDS)
        return self._factor

    def pace(self) -> float:
        """Counted requests a second this process allows itself now."""
        return self.share * self.factor()

    def record(self, method: str, path: str) -> str:
        """One request sent; returns its kind."""
        kind = kind_of(method, path)
        self.counts[kind] += 1
        if exempt(kind):
            return kind
        granted = self._pending.get((method, _channel_of(path)))
        now = self.clock()
        if granted:
            self.held += now - granted.popleft()  # the slot becomes a real send, now
        self._sent.append(now)
        return kind

    def used(self) -> int:
        """Counted calls sent in the last second, plus those granted a slot and not sent yet
        (a request may wait in discord.py for its route's bucket: it counts when it goes,
        which is when Discord counts it). A slot whose request never went expires."""
        now = self.clock()
        sent = self._sent
        while sent and sent[0] <= now - WINDOW:
            sent.popleft()
        waiting = 0
        for key, granted in list(self._pending.items()):
            while granted and granted[0] <= now - PENDING_EXPIRY:
                granted.popleft()
                self.expired += 1
            if granted:
                waiting += len(granted)
            else:
                del self._pending[key]
        return len(sent) + waiting

    # ---- spending ------------------------------------------------------------------------

    async def slot(self, part: float = HEADROOM, method: str = "", channel_id: int = 0) -> None:
        """Wait until a counted call fits in `part` of the share, and reserve it for the
        request `method` on `/channels/{channel_id}/messages...` about to be sent. Callers are
        served in order; the payload should be built *after* this returns, so that a table
        that waited sends everything that happened meanwhile."""
        cap = max(1, int(self.pace() * part))
        asked = self.clock()
        async with self._lock:
            while self.used() >= cap:
                oldest = self._sent[0] + WINDOW if self._sent else self.clock() + 0.05
                await asyncio.sleep(max(0.005, min(oldest - self.clock(), WINDOW) + 0.001))
            now = self.clock()
            self._pending.setdefault((method, channel_id), deque()).append(now)
            self.slots += 1
            self.waited += now - asked

    def room(self, part: float = HEADROOM) -> bool:
        """Would `slot(part)` be granted now, without waiting (nobody queued before it)?"""
        return not self._lock.locked() and self.used() < max(1, int(self.pace() * part))

    def give_back(self, method: str = "", channel_id: int = 0) -> None:
        """A slot granted for `method` on `channel_id` will not be used after all (the edit
        it was for turned out to change nothing): its room goes to the next caller now,
        rather than after `PENDING_EXPIRY`."""
        granted = self._pending.get((method, channel_id))
        if granted:
            granted.pop()
            self.returned += 1

    def pressure(self) -> float:
        """How much of the public part of the share the last second used (0..1+)."""
        return self.used() / max(1.0, self.pace() * HEADROOM)

    def stretch(self) -> int:
        """How many refresh intervals a busy table waits between edits now: 1 normally,
        2, 3... as the share runs short (above 1, the presenter also sheds turn pings for
        players watching their hand view). The first stretch of an episode is logged, with
        why; so is its end."""
        pressure = self.pressure()
        factor = MAX_STRETCH
        for below, steps in STRETCH_STEPS:
            if pressure < below:
                factor = steps
                break
        now = self.clock()
        if factor > 1:
            self._calm_since = None
            if self._shedding_since is None:
                self._shedding_since = now
                log.warning(
                    "shedding: busy tables' public refreshes stretch to every %d intervals and "
                    "players watching their hand view get no turn ping (%d of this process's "
                    "%.0f requests/s used in the last second; Discord's global limit is per "
                    "bot token); clicks and hand views are not affected",
                    factor,
                    self.used(),
                    self.share,
                )
        elif self._shedding_since is not None:
            if self._calm_since is None:
                self._calm_since = now
            elif now - self._calm_since >= CALM_SECONDS:
                log.warning(
                    "no longer shedding after %.0f s: public refreshes back to normal",
                    now - self._shedding_since,
                )
                self._shedding_since = self._calm_since = None
        return factor

    @property
    def shedding(self) -> bool:
        """Inside a shedding episode (see `stretch`)."""
        return self._shedding_since is not None
