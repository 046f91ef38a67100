"""A fake Discord API (REST + gateway) on one loopback port, for end-to-end bot tests.

The real, unmodified bot talks to it through discord.py's own HTTP and websocket code, so bugs in
the seams (late or double acknowledgements, ephemeral leaks, invalid components, stale tokens)
show up exactly as they would against Discord.  Every rule breach is appended to
``FakeDiscordServer.violations``; tests assert that list is empty.

Only what a slash-command/component bot needs is implemented.  Unknown routes answer 404 with a
JSON body and are remembered in ``unknown_routes`` so a missing endpoint is easy to spot.

Every REST request is checked before it is handled (``_rest_handler``), in two layers:

* Discord's own API document (``openapi.py``, the OpenAPI 3.1 copy in ``spec/``): a route or
  method Discord lacks (``undocumented_route``, 404; ``undocumented_method``, 405), a body that
  is not JSON (``invalid_json``), and path or query parameters or a body (JSON, or a multipart
  upload's ``payload_json``) its schemas refuse (``schema_violation``);
* the documented limits the document does not encode (``limits.py``): message content,
  embeds, components and custom_ids on every route that carries a message
  (``MESSAGE_OPERATIONS``, interaction callbacks), commands in every locale
  (``COMMAND_OPERATIONS``; ``invalid_command``), modals and autocomplete choices
  (``invalid_payload``).

Both layers run on each request and each records its own violation, so a rule both know is
reported twice; either refuses the request as Discord does (``400``, code 50035) before the
fake's handler sees it. What Discord accepts beyond the document is listed in one place,
``openapi.DEVIATIONS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from . import limits, openapi
from .models import (
    ARCHIVE_DURATIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    PERM_ADMINISTRATOR,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MANAGE_THREADS,
    PERM_MEMBER_DEFAULT,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PUBLIC_THREAD,
    TEXT,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    StoredMessage,
    Upload,
    Violation,
    iso_now,
    snowflake,
)
from .ratelimits import RateLimiter, RateLimits

JSON_TYPE = "application/json"
#: Seconds a create with `enforce_nonce` finds an earlier message of the same nonce.
NONCE_WINDOW = 60.0

# Gateway opcodes.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_RESUME = 6
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

# Interaction types and which initial callback types Discord accepts for each.
IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL = 2, 3, 4, 5
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    IT_COMMAND: {4, 5, 9},
    IT_COMPONENT: {4, 5, 6, 7, 9},
    IT_AUTOCOMPLETE: {8},
    IT_MODAL: {4, 5, 6, 7},
}

Handler = Callable[["_Request"], Awaitable[web.Response]]

#: The API document's operations whose body is a message: (a new message?, how violations
#: name it). Each is checked against `limits.validate_message` before it is handled.
MESSAGE_OPERATIONS: dict[str, tuple[bool, str]] = {
    "create_message": (True, "channel message"),
    "update_message": (False, "channel message edit"),
    "execute_webhook": (True, "followup"),
    "update_original_webhook_message": (False, "webhook edit"),
    "update_webhook_message": (False, "webhook edit"),
}
#: The operations whose body is application commands: the whole set, one, or a partial edit.
COMMAND_OPERATIONS: dict[str, str] = {
    "bulk_set_application_commands": "bulk",
    "bulk_set_guild_application_commands": "bulk",
    "create_application_command": "one",
    "create_guild_application_command": "one",
    "update_application_command": "partial",
    "update_guild_application_command": "partial",
}

#: Test instrumentation, not Discord: a bot started by ``FakeDiscord.launch`` sends this header
#: (its ``BotProcess.client`` name) on every REST call and on its gateway handshake, so a test
#: running several bot processes can tell which one made each call (Discord cannot: they share
#: one token). Absent for in-process bots.
CLIENT_HEADER = "X-Fake-Client"


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response whose Content-Type is *exactly* ``application/json``.

    discord.py compares the header for equality (``json_or_text``), so aiohttp's default
    ``application/json; charset=utf-8`` would make it treat every body as plain text.
    """
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(status=status, body=body, headers={"Content-Type": JSON_TYPE})


@dataclass(frozen=True)
class AttachmentEdit:
    """What one edit said of its message's files: the attachment ids it named (None: no
    ``attachments`` at all), how many files it uploaded, and whether its embeds show an
    ``attachment://``."""

    message_id: int
    named: list[str] | None
    files: int
    shows: bool


def _shows_attachment(payload: dict[str, Any]) -> bool:
    """Does a message body's embed show one of the message's own files (``attachment://``)?"""
    return any(
        str(((e or {}).get(part) or {}).get("url") or "").startswith("attachment://")
        for e in payload.get("embeds") or []
        for part in ("image", "thumbnail")
    )


def error_response(
    status: int, code: int, message: str, errors: list[str] | None = None
) -> web.Response:
    """A Discord-shaped error body (``code``/``message`` and optional form ``errors``)."""
    data: dict[str, Any] = {"code": code, "message": message}
    if errors:
        data["errors"] = {
            "payload": {"_errors": [{"code": "INVALID", "message": e} for e in errors]}
        }
    return json_response(data, status)


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class Outage:
    """Discord failing for a while, on purpose (`FakeDiscordServer.outage`): every request
    `applies(method, path)` accepts is answered `status` instead of being served, for `seconds`
    from the first such request on (429 with `retry_after`, as a rate limit; or a 5xx). The
    refusals are counted here, not as the rate limiter's 429s (which fail every e2e test)."""

    applies: Callable[[str, str], bool]
    seconds: float
    status: int = 429
    retry_after: float = 1.0
    started: float | None = None
    refused: int = 0

    def answer(self, method: str, path: str, now: float) -> web.Response | None:
        """The error to answer instead, or None to serve the request."""
        if not self.applies(method, path):
            return None
        if self.started is None:
            self.started = now
        if now >= self.started + self.seconds:
            return None
        self.refused += 1
        if self.status != 429:
            return error_response(self.status, 0, f"{self.status}: Service Unavailable")
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after}
        headers = {
            "Content-Type": JSON_TYPE,
            "Retry-After": str(math.ceil(self.retry_after)),
            "X-RateLimit-Scope": "shared",  # someone else's doing: the bot is not to blame
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)


@dataclass
class UploadedFile:
    """A file part of a multipart request (``files[N]``)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class _Request:
    """What a REST handler gets: the aiohttp request, route params and the parsed body."""

    raw: web.Request
    params: dict[str, str]
    payload: Any
    files: list[UploadedFile]

    @property
    def query(self) -> Any:
        return self.raw.query


@dataclass
class _Session:
    """A gateway session; it survives its websocket so RESUME can replay missed events."""

    session_id: str
    intents: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    buffer: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] | None = None  # (shard_id, shard_count) from IDENTIFY
    client: str | None = None  # the CLIENT_HEADER of the bot process that opened it
    number: int = 0  # identify order (1 = first)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def covers(self, guild_id: int | None) -> bool:
        """Does this session receive the events of ``guild_id`` (None: a DM)? Discord's
        rule: a guild's events go to shard ``(guild_id >> 22) % shard_count``, DMs to 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


class FakeDiscordServer:
    """The fake Discord: state, REST routes and the gateway.

    Time is read through :meth:`now`, which tests can push forward with :meth:`advance_time` to
    expire interaction tokens without waiting 15 minutes.  ``ack_deadline`` (default 3 s, as on
    Discord) can be shortened so "responded too late" tests stay fast.
    """

    def __init__(
        self,
        *,
        users: Iterable[FakeUser] = (),
        channels: Iterable[FakeChannel] = (),
        guild_id: int | None = None,
        guild_name: str = "Test Guild",
        bot_name: str = "TestBot",
        application_id: int | None = None,
        token: str | None = None,
        ack_deadline: float = 3.0,
        token_ttl: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        host: str = "127.0.0.1",
        port: int = 0,
        rate_limits: RateLimits | None = None,
        bot_permissions: int = PERM_MEMBER_DEFAULT,
        everyone_permissions: int = PERM_MEMBER_DEFAULT,
    ) -> None:
        self.host = host
        # What the @everyone role grants, and the bot's own role on top (the invite's
        # permission integer); change them before the bot identifies, or call
        # `set_bot_permissions` (it sends GUILD_ROLE_UPDATE).
        self.everyone_permissions = everyone_permissions
        self.bot_permissions = bot_permissions
        # Discord's REST rate limits (global and per route); a test may lower them, and
        # every 429 is counted in `ratelimiter.limited` (see `ratelimits.py`).
        self.ratelimiter = RateLimiter(rate_limits)
        self.port = port
        self.token = token
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.application_id = application_id or snowflake()
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.guild_id = guild_id or snowflake()
        self.guild_name = guild_name
        # Every guild the bot is in, by id: the first one plus any `add_guild` adds (load
        # tests spread tables over many guilds; a sharded bot sees only its shards' guilds).
        self.guilds: dict[int, str] = {self.guild_id: guild_name}
        # Each guild's language (its "preferred locale"; interactions carry it as
        # `guild_locale`); a guild not listed speaks en-US. Set with `set_guild_locale`.
        self.guild_locales: dict[int, str] = {}
        self.owner_id: int | None = None
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        for user in users:
            self.users[user.id] = user
            self.owner_id = self.owner_id or user.id
        self.channels: dict[int, FakeChannel] = {c.id: c for c in channels}
        self.admin_role_id = snowflake()
        self.bot_role_id = snowflake()

        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs = 0

        self.violations: list[Violation] = []
        self.uploads: list[Upload] = []
        self.unknown_routes: list[str] = []
        self.request_log: list[tuple[str, str, int]] = []
        #: (channel, nonce) -> the public message created with it (`nonce_match`).
        self._nonces: dict[tuple[int, str], int] = {}
        #: Creates answered with an earlier message of the same nonce, by its id.
        self.nonce_hits: list[int] = []
        #: Edits whose embeds show an ``attachment://`` while naming no ``attachments`` (and
        #: uploading nothing), by message id. Discord keeps the files such an edit does not
        #: name, but its issue trackers report these edits showing the picture a second time,
        #: outside the embed; a bot names what it keeps (`edit_message`).
        self.implicit_keeps: list[int] = []
        #: What every edit said of the message's files (`AttachmentEdit`), in order.
        self.attachment_edits: list[AttachmentEdit] = []
        #: Set by a test: Discord refusing what it applies to for a while (see `Outage`).
        self.outage: Outage | None = None
        self.identify_count = 0
        self.identified_shards: list[list[int] | None] = []  # each IDENTIFY's `shard`
        self.identified_intents: list[int] = []  # each IDENTIFY's `intents`
        # Each IDENTIFY as (client, shard): which bot process (CLIENT_HEADER) opened it.
        self.identified_by: list[tuple[str | None, list[int] | None]] = []
        # Every REST call with the bot process that made it (request_log, plus the client).
        self.calls: list[RestCall] = []
        self.resume_count = 0

        self._sessions: dict[str, _Session] = {}
        self.active_session: _Session | None = None
        self._time_offset = 0.0
        self._changed = asyncio.Event()
        self._timers: list[asyncio.TimerHandle] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._templates: dict[re.Pattern[str], str] = {}  # each route's path template
        self._register_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Bind the loopback port (``port=0`` picks a free one) and start serving."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/gateway/", self._gateway_handler)
        app.router.add_route("*", "/api/v{version}/{tail:.*}", self._rest_handler)
        app.router.add_route("*", "/{tail:.*}", self._fallback_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Close every websocket and the listener; cancel pending acknowledgement timers."""
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        """Base URL of the server (what ``FAKE_DISCORD_URL`` holds for subprocess bots)."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (as a ``yarl.URL``)."""
        return f"ws://{self.host}:{self.port}/gateway"

    # ------------------------------------------------------------------ time / notifications

    def now(self) -> float:
        """Server clock in seconds (monotonic, plus whatever :meth:`advance_time` added)."""
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Jump the clock forward, e.g. past ``token_ttl`` to expire interaction tokens."""
        self._time_offset += seconds
        self.notify()

    def notify(self) -> None:
        """Wake everyone blocked in :meth:`changed`."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float) -> None:
        """Wait until the next state change or ``timeout`` (no error on timeout)."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    def violate(self, kind: str, detail: str, interaction_id: int | None = None) -> None:
        """Record a rule breach by the bot."""
        self.violations.append(Violation(kind, detail, interaction_id))
        self.notify()

    # ------------------------------------------------------------------ guild payloads

    def add_guild(self, name: str, guild_id: int | None = None) -> int:
        """Another guild with the same members (add channels to it with ``make_channel(...,
        guild_id=)``). Added before the bot identifies, it arrives in READY/GUILD_CREATE."""
        gid = guild_id or snowflake()
        self.guilds[gid] = name
        return gid

    def set_guild_locale(self, locale: str, guild_id: int | None = None) -> None:
        """A guild's preferred locale (the first guild's unless ``guild_id`` says otherwise)."""
        self.guild_locales[guild_id or self.guild_id] = locale

    def guild_locale(self, guild_id: int | None) -> str:
        return self.guild_locales.get(guild_id or self.guild_id, "en-US")

    def guild_of(self, channel: FakeChannel) -> int | None:
        """The guild a channel is in (None for a DM)."""
        if channel.type == 1:
            return None
        return channel.guild_id or self.guild_id

    def threads_of(self, guild_id: int) -> list[FakeChannel]:
        """The guild's active (not archived) threads, as GUILD_CREATE lists them."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and self.guild_of(c) == guild_id and not self._archive_due(c)
        ]

    def guilds_for_shard(self, shard: list[int] | None) -> list[int]:
        """The guilds a gateway session identified as ``[shard_id, shard_count]`` receives
        (Discord's rule: ``(guild_id >> 22) % shard_count == shard_id``)."""
        if not shard:
            return list(self.guilds)
        shard_id, count = int(shard[0]), int(shard[1])
        return [g for g in self.guilds if (g >> 22) % count == shard_id]

    def role_ids_for(self, user: FakeUser) -> list[int]:
        roles: list[int] = []
        if user.admin:
            roles.append(self.admin_role_id)
        if user.id == self.bot_user.id:
            roles.append(self.bot_role_id)
        return roles

    def permissions_for(self, user: FakeUser) -> int:
        perms = self.everyone_permissions
        if user.id == self.bot_user.id:
            perms |= self.bot_permissions
        if user.admin or user.id == self.owner_id:
            perms |= PERM_ADMINISTRATOR
        return perms

    def bot_may(self, permission: int) -> bool:
        """Does the bot hold this permission (administrator holds every one)?"""
        perms = self.permissions_for(self.bot_user)
        return bool(perms & PERM_ADMINISTRATOR or perms & permission == permission)

    async def set_bot_permissions(self, permissions: int, everyone: int | None = None) -> None:
        """Change what the bot's role (and @everyone) grants, and tell the bot
        (GUILD_ROLE_UPDATE)."""
        self.bot_permissions = permissions
        if everyone is not None:
            self.everyone_permissions = everyone
        for gid in self.guilds:
            for role in self.roles_payload(gid):
                await self.dispatch(
                    "GUILD_ROLE_UPDATE", {"guild_id": str(gid), "role": role}, guild_id=gid
                )

    def member_payload(self, user: FakeUser, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.user_payload(),
            "roles": [str(r) for r in self.role_ids_for(user)],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": user.nick,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_for(user))
        return data

    def roles_payload(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, pos: int, **extra: Any) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "permissions": str(perms),
                "position": pos,
                "color": 0,
                "colors": {"primary_color": 0},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
                **extra,
            }

        return [
            role(guild_id or self.guild_id, "@everyone", self.everyone_permissions, 0),
            role(self.admin_role_id, "Admin", PERM_ADMINISTRATOR | PERM_MEMBER_DEFAULT, 1),
            role(
                self.bot_role_id,
                self.bot_user.name,
                self.bot_permissions,
                2,
                managed=True,
                tags={"bot_id": str(self.bot_user.id)},
            ),
        ]

    def guild_payload(self, *, full: bool = True, guild_id: int | None = None) -> dict[str, Any]:
        """GUILD_CREATE-style guild object (``full`` adds channels, members and gateway keys)."""
        gid = guild_id or self.guild_id
        members = list(self.users.values())
        data: dict[str, Any] = {
            "id": str(gid),
            "name": self.guilds.get(gid, self.guild_name),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id or self.bot_user.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self.roles_payload(gid),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.guild_locale(gid),
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }
        if full:
            data.update(
                {
                    "joined_at": "2024-01-01T00:00:00.000000+00:00",
                    "large": False,
                    "unavailable": False,
                    "member_count": len(members),
                    "voice_states": [],
                    "members": [self.member_payload(u) for u in members],
                    "channels": [
                        c.payload(gid, self.users)
                        for c in self.channels.values()
                        if self.guild_of(c) == gid
                    ],
                    "threads": [c.payload(gid, self.users) for c in self.threads_of(gid)],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return data

    def app_info_payload(self) -> dict[str, Any]:
        owner = self.users.get(self.owner_id or 0) or self.bot_user
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.user_payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user.user_payload(),
            "interactions_endpoint_url": None,
            "tags": [],
            "redirect_uris": [],
        }

    # ------------------------------------------------------------------ gateway

    @property
    def connected(self) -> bool:
        """True when a bot has identified and its websocket is open."""
        return self.active_session is not None and self.active_session.connected

    def session_for(self, guild_id: int | None) -> _Session | None:
        """The session that receives ``guild_id``'s events (None: DMs). With one bot that
        is the latest session, as before; with several processes (each identified on some
        shards) it is the one of the guild's shard. Two live sessions on one shard (a
        misconfigured extra process) get nothing twice: the longest-connected one keeps the
        shard's events (Discord would send them to both), so an intruder shows up only
        through what it does by itself. No live session: the newest one, which buffers the
        events for a RESUME."""
        covering = [s for s in self._sessions.values() if s.covers(guild_id)]
        live = [s for s in covering if s.connected]
        if live:
            return min(live, key=lambda s: s.number)
        if covering:
            return max(covering, key=lambda s: s.number)
        return None

    def connected_for(self, guild_id: int | None) -> bool:
        """True when a live session receives ``guild_id``'s events."""
        session = self.session_for(guild_id)
        return session is not None and session.connected

    async def _send(self, session: _Session, payload: dict[str, Any]) -> None:
        ws = session.ws
        if ws is None or ws.closed:
            return
        async with session.lock:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(payload, separators=(",", ":")))

    async def _send_raw(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps(payload, separators=(",", ":")))

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = None,
        session: _Session | None = None,
    ) -> None:
        """Send a DISPATCH (op 0), buffering it for a later RESUME: to ``session``, else to
        the session of ``guild_id``'s shard (see :meth:`session_for`; None = DMs)."""
        session = session or self.session_for(guild_id)
        if session is None:
            return
        if intent is not None and not session.intents & intent:
            return
        session.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        del session.buffer[:-500]
        await self._send(session, payload)

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        """Websocket endpoint.  We always send uncompressed JSON text frames.

        discord.py asks for ``compress=zlib-stream`` in the query string, but it only runs its
        decompressor on *binary* frames; text frames are parsed as plain JSON.  So ignoring the
        compression request keeps the wire format readable without touching the client.
        """
        if request.query.get("encoding", "json") != "json":
            return error_response(400, 0, "only encoding=json is supported")
        client = request.headers.get(CLIENT_HEADER)
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        await self._send_raw(
            ws, {"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    continue
                try:
                    packet = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                op = packet.get("op")
                data = packet.get("d")
                if op == OP_HEARTBEAT:
                    await self._send_raw(ws, {"op": OP_HEARTBEAT_ACK})
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, data or {}, client)
                elif op == OP_RESUME:
                    session = await self._resume(ws, data or {}, client)
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    await self._send_members_chunk(session, data or {})
                elif op in (OP_PRESENCE, 4):
                    pass
                else:
                    await ws.close(code=4001, message=b"Unknown opcode.")
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            self.notify()
        return ws

    def _token_ok(self, token: str | None) -> bool:
        if self.token is None:
            return bool(token)
        return token == self.token

    async def _identify(
        self, ws: web.WebSocketResponse, data: dict[str, Any], client: str | None = None
    ) -> _Session | None:
        """IDENTIFY → READY (guild unavailable) → GUILD_CREATE (full guild)."""
        if not self._token_ok(data.get("token")):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        self.identify_count += 1
        session = _Session(
            session_id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            shard=(int(shard[0]), int(shard[1])) if shard else None,
            client=client,
            number=self.identify_count,
        )
        guild_ids = self.guilds_for_shard(shard)
        self.identified_shards.append(shard)
        self.identified_intents.append(session.intents)
        self.identified_by.append((client, shard))
        session.ws = ws
        self._sessions[session.session_id] = session
        self.active_session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.user_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if data.get("shard") is not None:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready, session=session)
        for gid in guild_ids:
            await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id=gid), session=session)
        self.notify()
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any], client: str | None = None
    ) -> _Session | None:
        """RESUME: replay buffered events after ``seq``; unknown session → op 9 (not resumable)."""
        session = self._sessions.get(str(data.get("session_id")))
        if session is None or not self._token_ok(data.get("token")):
            await self._send_raw(ws, {"op": OP_INVALID_SESSION, "d": False})
            return None
        old = session.ws
        session.ws = ws
        session.client = client or session.client
        if old is not None and old is not ws:
            with contextlib.suppress(Exception):
                await old.close(code=4000)
        self.active_session = session
        self.resume_count += 1
        last = int(data.get("seq") or 0)
        for payload in list(session.buffer):
            if payload["s"] > last:
                await self._send(session, payload)
        await self.dispatch("RESUMED", {}, session=session)
        self.notify()
        return session

    async def _send_members_chunk(self, session: _Session, data: dict[str, Any]) -> None:
        chunk = {
            "guild_id": str(data.get("guild_id") or self.guild_id),
            "members": [self.member_payload(u) for u in self.users.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=session)

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Close the bot's websocket from the server side (to test reconnect/resume)."""
        session = self.active_session
        if session is not None and session.ws is not None:
            await session.ws.close(code=code)

    # ------------------------------------------------------------------ interactions

    def create_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        source_message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Register an interaction (not yet sent); the driver fills ``data``."""
        rec = InteractionRecord(
            id=snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            data=data,
            created_at=self.now(),
            source_message_id=source_message.id if source_message else None,
        )
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        return rec

    def interaction_payload(self, rec: InteractionRecord) -> dict[str, Any]:
        """The INTERACTION_CREATE body, with the keys discord.py 2.7 reads."""
        user = self.users[rec.user_id]
        channel = self.channels[rec.channel_id]
        in_guild = channel.type != 1
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": rec.type,
            "data": rec.data,
            "channel_id": str(channel.id),
            "token": rec.token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 25 * 1024 * 1024,
            "app_permissions": str(self.permissions_for(self.bot_user)),
        }
        if in_guild:
            gid = self.guild_of(channel)
            chan = channel.payload(gid, self.users)
            chan["permissions"] = str(self.permissions_for(user))
            payload.update(
                {
                    "guild_id": str(gid),
                    "guild": {"id": str(gid), "locale": self.guild_locale(gid), "features": []},
                    "guild_locale": self.guild_locale(gid),
                    "channel": chan,
                    "member": self.member_payload(user, with_permissions=True),
                    "authorizing_integration_owners": {"0": str(gid)},
                    "context": 0,
                }
            )
        else:
            payload.update(
                {
                    "channel": channel.payload(None, self.users),
                    "user": user.user_payload(),
                    "authorizing_integration_owners": {"0": str(user.id)},
                    "context": 1,
                }
            )
        if rec.source_message_id is not None:
            payload["message"] = self.messages[rec.source_message_id].payload()
        return payload

    async def dispatch_interaction(self, rec: InteractionRecord) -> None:
        """Send INTERACTION_CREATE and start the 3-second acknowledgement clock."""
        rec.dispatched_at = self.now()
        rec.created_at = rec.dispatched_at
        guild_id = self.guild_of(self.channels[rec.channel_id])
        session = self.session_for(guild_id)
        if session is not None:
            rec.delivered_to = session.client
            rec.delivered_shard = session.shard
        await self.dispatch("INTERACTION_CREATE", self.interaction_payload(rec), session=session)
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.ack_deadline, self._check_ack, rec.id))
        self.notify()

    def _check_ack(self, interaction_id: int) -> None:
        rec = self.interactions[interaction_id]
        rec.deadline_checked = True
        self.notify()
        if not rec.acknowledged:
            self.violate(
                "no_ack",
                f"interaction not acknowledged within {self.ack_deadline:g}s "
                f"(Discord shows 'This interaction failed'): {_describe(rec)}",
                rec.id,
            )

    def _expired(self, rec: InteractionRecord) -> bool:
        return self.now() - rec.created_at > self.token_ttl

    # ------------------------------------------------------------------ messages

    def _bot_author(self) -> dict[str, Any]:
        return self.bot_user.user_payload()

    def _attachments_from(
        self,
        payload: dict[str, Any],
        files: list[UploadedFile],
        existing: list[dict[str, Any]],
        store: dict[str, bytes],
    ) -> list[dict[str, Any]]:
        """Resolve ``attachments``: keep referenced old ones, add the uploaded ``files[N]``."""
        by_index = {f.index: f for f in files}
        old_by_id = {str(a["id"]): a for a in existing}
        out: list[dict[str, Any]] = []
        used: set[int] = set()
        spec = payload.get("attachments")
        if spec is None:
            out = list(existing)
            spec = []
        for item in spec:
            key = str(item.get("id"))
            if key in old_by_id:
                out.append(old_by_id[key])
                continue
            with contextlib.suppress(ValueError):
                idx = int(key)
                if idx in by_index:
                    used.add(idx)
                    out.append(self._attachment(by_index[idx], item.get("filename"), store))
        for f in files:
            if f.index not in used:
                out.append(self._attachment(f, None, store))
        return out

    def _attachment(
        self, upload: UploadedFile, name: str | None, store: dict[str, bytes]
    ) -> dict[str, Any]:
        aid = snowflake()
        filename = name or upload.filename
        store[filename] = upload.data
        url = f"{self.url}/attachments/{aid}/{filename}"
        return {
            "id": str(aid),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
        }

    def create_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        author: dict[str, Any] | None = None,
        visible_to: int | None = None,
        rec: InteractionRecord | None = None,
        flags: int | None = None,
    ) -> StoredMessage:
        """Store a new message (no validation here; callers validate first)."""
        channel = self.channels[channel_id]
        msg = StoredMessage(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=self.guild_of(channel),
            author=author or self._bot_author(),
            content=str(payload.get("content") or ""),
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=copy.deepcopy(payload.get("components") or []),
            flags=int(payload.get("flags") or 0) if flags is None else flags,
            visible_to=visible_to,
            nonce=None if payload.get("nonce") is None else str(payload["nonce"]),
            created_at=self.now(),
        )
        if visible_to is not None:
            msg.flags |= FLAG_EPHEMERAL
        else:
            msg.flags &= ~FLAG_EPHEMERAL
        msg.attachments = self._attachments_from(payload, files, [], msg.attachment_data)
        msg.mentions = self.mentioned(msg.content, payload.get("allowed_mentions"))
        if not msg.loading:
            msg.notified = list(msg.mentions)
        if rec is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_id = rec.id
            msg.interaction_user_id = rec.user_id
            msg.interaction_user = self.users[rec.user_id].user_payload()
            msg.interaction_type = rec.type
            msg.type = 20 if rec.type == IT_COMMAND else 19 if rec.source_message_id else 0
        self.messages[msg.id] = msg
        if msg.nonce is not None and visible_to is None:
            self._nonces[(channel_id, msg.nonce)] = msg.id
        self._after_attachments(msg, set(), edit=False)
        self.notify()
        return msg

    def nonce_match(self, channel_id: int, payload: dict[str, Any]) -> StoredMessage | None:
        """The message a create with ``enforce_nonce`` returns instead of posting: one the
        bot created in this channel with the same nonce within `NONCE_WINDOW` (Discord:
        "checked for uniqueness in the past few minutes"; the fake keeps the short end, so a
        bot cannot lean on more than Discord gives)."""
        nonce = payload.get("nonce")
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        msg = self.messages.get(self._nonces.get((channel_id, str(nonce)), 0))
        if msg is None or msg.deleted or self.now() - msg.created_at > NONCE_WINDOW:
            return None
        return msg if msg.author_id == self.bot_user.id else None

    def mentioned(self, content: str, allowed: dict[str, Any] | None) -> list[int]:
        """The users a message's content mentions, as Discord's allowed_mentions decides:
        absent, every ``<@id>`` counts; present, a user counts only if ``parse`` holds
        ``"users"`` or ``users`` names them. Unknown ids mention nobody."""
        ids = [int(m) for m in re.findall(r"<@!?(\d+)>", content)]
        if allowed is not None and "users" not in (allowed.get("parse") or []):
            named = {int(u) for u in allowed.get("users") or []}
            ids = [i for i in ids if i in named]
        return [i for i in dict.fromkeys(ids) if i in self.users]

    def edit_message(
        self, msg: StoredMessage, payload: dict[str, Any], files: list[UploadedFile]
    ) -> None:
        """Apply a PATCH body to a stored message, keeping the previous state in ``edits``."""
        msg.edits.append(msg.snapshot())
        was_loading = msg.loading
        if "content" in payload:
            msg.content = str(payload["content"] or "")
            msg.mentions = self.mentioned(msg.content, payload.get("allowed_mentions"))
        if was_loading and not msg.notified:
            # A deferred response's first content is, to its readers, the message arriving.
            msg.notified = list(msg.mentions)
        if "embeds" in payload:
            msg.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            msg.components = copy.deepcopy(payload["components"] or [])
        if payload.get("flags") is not None:
            keep = msg.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            msg.flags = (int(payload["flags"]) & ~FLAG_EPHEMERAL & ~FLAG_LOADING) | keep
        before = {str(a["id"]) for a in msg.attachments}
        named = payload.get("attachments")
        shows = _shows_attachment(payload)
        ids = None if named is None else [str(a.get("id")) for a in named]
        self.attachment_edits.append(AttachmentEdit(msg.id, ids, len(files), shows))
        if named is None and not files and shows:
            self.implicit_keeps.append(msg.id)
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(
                payload, files, msg.attachments, msg.attachment_data
            )
        msg.edited_timestamp = iso_now()
        self._after_attachments(msg, before, edit=True)
        self.notify()

    def refuse_attachments(
        self,
        msg: StoredMessage,
        payload: dict[str, Any],
        files: list[UploadedFile],
        rec: InteractionRecord | None = None,
    ) -> web.Response | None:
        """Discord's answer to an edit that names, in ``attachments``, an id that is neither
        one of this message's attachments nor one of the files uploaded with it (``files[N]``
        named by its index N): ``400``, and a violation (the edit changed nothing). It is how
        a kept attachment remembered for the wrong message (another view, a message posted
        anew) shows."""
        mine = {str(a["id"]) for a in msg.attachments} | {str(f.index) for f in files}
        named = [str(item.get("id")) for item in payload.get("attachments") or []]
        foreign = [aid for aid in named if aid not in mine]
        if not foreign:
            return None
        self.violate(
            "unknown_attachment",
            f"an edit of message {msg.id} names attachments {foreign} it does not have "
            f"(its own: {sorted(str(a['id']) for a in msg.attachments)}; "
            f"{'ephemeral' if msg.ephemeral else 'public'}, "
            f"{[a['filename'] for a in msg.attachments]})",
            rec.id if rec is not None else None,
        )
        errors = [f"attachments: unknown attachment {aid}" for aid in foreign]
        return error_response(400, 50035, "Invalid Form Body", errors)

    def _after_attachments(self, msg: StoredMessage, before: set[str], *, edit: bool) -> None:
        """Record the files this change uploaded, and check that every ``attachment://`` the
        embeds show is an attachment of the message. Discord accepts a dangling reference and
        silently shows no image, so the fake records it as a violation: it is how an edit that
        drops (or forgets to re-upload) a picture goes unnoticed."""
        for att in msg.attachments:
            if str(att["id"]) in before:
                continue
            self.uploads.append(
                Upload(
                    message_id=msg.id,
                    channel_id=msg.channel_id,
                    visible_to=msg.visible_to,
                    filename=att["filename"],
                    data=msg.attachment_data.get(att["filename"], b""),
                    content_type=att.get("content_type"),
                    interaction_id=msg.interaction_id,
                    edit=edit,
                )
            )
        names = set(msg.attachment_names)
        missing = [ref for ref in msg.embed_attachment_refs if ref not in names]
        if missing:
            self.violate(
                "missing_attachment",
                f"message {msg.id} embeds attachment://{', attachment://'.join(missing)} but "
                f"has only {sorted(names)}: Discord shows no image",
                msg.interaction_id,
            )

    async def _announce(self, event: str, msg: StoredMessage) -> None:
        """Gateway MESSAGE_* events for public messages (ephemeral ones never reach the gateway)."""
        if msg.ephemeral:
            return
        channel = self.channels[msg.channel_id]
        intent = INTENT_DIRECT_MESSAGES if channel.type == 1 else INTENT_GUILD_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = msg.payload()
            author = self.users.get(msg.author_id)
            if msg.guild_id and author is not None and msg.webhook_id is None:
                member = self.member_payload(author)
                member.pop("user")
                data["member"] = member
        await self.dispatch(event, data, intent=intent, guild_id=msg.guild_id)

    # ------------------------------------------------------------------ request checks

    def _interaction_of(self, params: dict[str, str]) -> InteractionRecord | None:
        """The interaction a callback or interaction-webhook route is about, if known."""
        if "interaction_id" in params:
            return self.interactions.get(_int(params["interaction_id"]))
        if "token" in params:
            return self._by_token.get(params["token"])
        return None

    def _edited_message(
        self, params: dict[str, str], rec: InteractionRecord | None
    ) -> StoredMessage | None:
        """The message an edit route names (``@original``: the interaction's response)."""
        key = params.get("message_id", "")
        if key == "@original":
            return self.messages.get(rec.original_message_id or 0) if rec else None
        return self.messages.get(_int(key))

    def _limit_errors(
        self, operation: str, params: dict[str, str], payload: Any, files: list[UploadedFile]
    ) -> tuple[str, list[str]]:
        """Discord's documented limits that its API document does not encode (see
        `limits.py`), for the operation (the document's ``operationId``) the request is:
        every route that carries a message, a command, a modal or autocomplete choices.
        Returns the violation kind and the problems (none: an empty list)."""
        rec = self._interaction_of(params)
        sizes = [len(f.data) for f in files]
        if operation in MESSAGE_OPERATIONS:
            creating, where = MESSAGE_OPERATIONS[operation]
            target = None if creating else self._edited_message(params, rec)
            errors = limits.validate_message(
                payload,
                creating=creating,
                has_files=bool(files),
                flags=target.flags if target is not None else None,
            )
            errors += limits.validate_files(sizes)
            return "invalid_payload", [f"{where}: {e}" for e in errors]
        if operation == "create_interaction_response":
            ctype, data = payload.get("type"), payload.get("data") or {}
            errors = limits.validate_files(sizes)
            if ctype == 4:
                where = "interaction response"
                errors += limits.validate_message(data, creating=True, has_files=bool(files))
            elif ctype == 7:
                where = "interaction update"
                source = self.messages.get(rec.source_message_id or 0) if rec else None
                errors += limits.validate_message(
                    data,
                    creating=False,
                    has_files=bool(files),
                    flags=source.flags if source is not None else None,
                )
            elif ctype == 8:
                where = "autocomplete"
                errors += limits.validate_choices(data.get("choices") or [])
            elif ctype == 9:
                where = "modal"
                errors += limits.validate_modal(data)
            else:
                where = f"callback type {ctype}"
            return "invalid_payload", [f"{where}: {e}" for e in errors]
        if operation in COMMAND_OPERATIONS:
            shape = COMMAND_OPERATIONS[operation]
            commands = list(payload or []) if shape == "bulk" else [payload]
            return "invalid_command", limits.validate_commands(
                commands, partial=shape == "partial", whole_set=shape == "bulk"
            )
        return "invalid_payload", []

    def _refuse_request(
        self,
        operation: openapi.Operation,
        request: web.Request,
        path: str,
        params: dict[str, str],
        body: openapi.Body,
        files: list[UploadedFile],
    ) -> web.Response | None:
        """Check one request against Discord's API document and its documented limits; a
        breach of either is a violation (both are recorded when both apply) and Discord's
        ``400 Invalid Form Body`` answer. None: the request may be handled."""
        rec = self._interaction_of(params)
        rid = rec.id if rec is not None else None
        problems = openapi.api().check(operation, path, request.query, body)
        for problem in problems:
            self.violate(problem.kind, problem.detail, rid)
        payload = body.payload if body.media_type is not None else None
        try:
            kind, errors = self._limit_errors(
                operation.operation_id, params, payload if payload is not None else {}, files
            )
        except (AttributeError, TypeError, ValueError):
            if not problems:
                raise  # a well-formed body the limits cannot read: a bug in the fake
            kind, errors = "invalid_payload", []  # malformed: the schema said so already
        if errors:
            self.violate(kind, "; ".join(errors), rid)
        if not problems and not errors:
            return None
        return error_response(
            400, 50035, "Invalid Form Body", [p.detail for p in problems] + errors
        )

    # ------------------------------------------------------------------ REST plumbing

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, handler, auth))
        self._templates[regex] = pattern

    async def _read_body(
        self, request: web.Request
    ) -> tuple[Any, list[UploadedFile], openapi.Body]:
        """Parse a JSON body or a multipart body (``payload_json`` + ``files[N]``); the
        `openapi.Body` says what was sent, for the API document's checks. A body that does
        not parse raises ValueError (its message says which part)."""
        files: list[UploadedFile] = []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            text: str | None = None
            parts: list[str] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue  # nested multipart: discord.py never sends it
                name = part.name or ""
                parts.append(name)
                raw = await part.read(decode=False)
                if name == "payload_json":
                    try:
                        text = bytes(raw).decode()
                        payload = json.loads(text)
                    except ValueError as exc:
                        raise ValueError(f"payload_json: {exc}") from exc
                else:
                    match = re.match(r"files\[(\d+)\]", name)
                    idx = int(match.group(1)) if match else len(files)
                    files.append(
                        UploadedFile(
                            index=idx,
                            filename=part.filename or f"file{idx}",
                            data=bytes(raw),
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            body = openapi.Body(request.content_type, payload, tuple(parts), text)
            return payload if payload is not None else {}, files, body
        if request.can_read_body:
            text = await request.text()
            if text:
                data = json.loads(text)
                return data, files, openapi.Body(request.content_type, data, text=text)
        return None, files, openapi.Body()

    def _operation(
        self, request: web.Request, method: str, tail: str
    ) -> openapi.Operation | web.Response:
        """The operation of Discord's API document this request is (`openapi.py`), or the
        answer Discord gives a route it lacks (404) or a method the route lacks (405), with
        the violation recorded."""
        version = request.match_info["version"]
        if version != openapi.API_VERSION:
            found: openapi.Operation | openapi.Problem = openapi.Problem(
                openapi.UNDOCUMENTED_ROUTE, f"{method} /api/v{version}{tail}: not API v10"
            )
        else:
            found = openapi.api().resolve(method, tail)
        if isinstance(found, openapi.Operation):
            return found
        self.violate(found.kind, found.detail)
        if found.kind == openapi.UNDOCUMENTED_METHOD:
            return error_response(405, 0, "405: Method Not Allowed")
        return error_response(404, 0, "404: Not Found")

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        tail = "/" + request.match_info["tail"]
        method = request.method
        operation = self._operation(request, method, tail)
        if isinstance(operation, web.Response):
            self._log_call(request, method, tail, operation.status)
            return operation
        for r_method, regex, handler, auth in self._routes:
            m = regex.match(tail)
            if m is None or r_method != method:
                continue
            outage = None
            if self.outage is not None and (not auth or self._authorized(request)):
                outage = self.outage.answer(method, tail, self.now())
            limited, rl_headers = (
                self._rate_limit(request, regex, m.groupdict())
                if outage is None and (not auth or self._authorized(request))
                else (None, {})
            )
            if auth and not self._authorized(request):
                resp: web.Response = error_response(401, 0, "401: Unauthorized")
            elif outage is not None:
                resp = outage
            elif limited is not None:
                resp = limited
            else:
                params = m.groupdict()
                try:
                    payload, files, body = await self._read_body(request)
                except ValueError as exc:
                    self.violate(openapi.INVALID_JSON, f"{method} {operation.template}: {exc}")
                    resp = error_response(400, 50109, "The request body contains invalid JSON.")
                else:
                    try:
                        refused = self._refuse_request(
                            operation, request, tail, params, body, files
                        )
                        resp = refused or await handler(_Request(request, params, payload, files))
                    except Exception as exc:  # a bug in the fake must not look like Discord
                        self.violate("fake_internal_error", f"{method} {tail}: {exc!r}")
                        resp = error_response(500, 0, f"fake server error: {exc!r}")
            resp.headers.update(rl_headers)
            self._log_call(request, method, tail, resp.status)
            return resp
        self.unknown_routes.append(f"{method} {tail}")
        self._log_call(request, method, tail, 404)
        return error_response(404, 0, f"404: Not Found ({method} {tail})")

    @property
    def rate_limits(self) -> RateLimits:
        """The limits being enforced (mutable: a test may lower one)."""
        return self.ratelimiter.limits

    def _rate_limit(
        self, request: web.Request, regex: re.Pattern[str], params: dict[str, str]
    ) -> tuple[web.Response | None, dict[str, str]]:
        """Discord's rate limits for one request: a 429 to answer instead, or the bucket
        headers for the real answer (see `ratelimits.py`). Keyed by the bot token sent."""
        header = request.headers.get("Authorization", "")
        token = header[4:] if header.startswith("Bot ") else None
        template = self._templates[regex]
        return self.ratelimiter.admit(request.method, template, params, token, self.now())

    def _log_call(self, request: web.Request, method: str, path: str, status: int) -> None:
        self.request_log.append((method, path, status))
        self.calls.append(RestCall(method, path, status, request.headers.get(CLIENT_HEADER)))

    def guild_of_call(self, call: RestCall) -> int | None:
        """The guild a REST call acts in, if it is about one: a channel's messages, an
        interaction's response or follow-ups (by its token), a guild's own routes. None for
        everything else (command sync, the bot's own user, DMs)."""
        parts = call.path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) > 1:
            chan = self.channels.get(_int(parts[1]))
            return None if chan is None else self.guild_of(chan)
        rec: InteractionRecord | None = None
        if parts[0] == "interactions" and len(parts) > 1:
            rec = self.interactions.get(_int(parts[1]))
        elif parts[0] == "webhooks" and len(parts) > 2:
            rec = self._by_token.get(parts[2])
        if rec is not None:
            return self.guild_of(self.channels[rec.channel_id])
        if parts[0] == "guilds" and len(parts) > 1:
            return _int(parts[1])
        return None

    async def _fallback_handler(self, request: web.Request) -> web.StreamResponse:
        self.unknown_routes.append(f"{request.method} {request.path}")
        return error_response(404, 0, "404: Not Found")

    def _authorized(self, request: web.Request) -> bool:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bot "):
            return False
        return self._token_ok(header[4:])

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/oauth2/applications/@me", self._get_app)
        r("GET", "/applications/@me", self._get_app)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._list_commands)
            r("PUT", prefix + "/commands", self._bulk_commands)
            r("POST", prefix + "/commands", self._upsert_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._empty_list)
        r("GET", "/applications/{app_id}/entitlements", self._empty_list)
        r("GET", "/applications/{app_id}/emojis", self._empty_items)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        wh = "/webhooks/{app_id}/{token}"
        r("POST", wh, self._followup_create, auth=False)
        r("GET", wh + "/messages/{message_id}", self._webhook_get, auth=False)
        r("PATCH", wh + "/messages/{message_id}", self._webhook_edit, auth=False)
        r("DELETE", wh + "/messages/{message_id}", self._webhook_delete, auth=False)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread)
        r("POST", "/channels/{channel_id}/messages", self._channel_create)
        r("GET", "/channels/{channel_id}/messages", self._channel_history)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._channel_get)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._channel_edit)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._channel_delete)
        r("POST", "/channels/{channel_id}/typing", self._no_content)
        react = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}"
        r("PUT", react + "/@me", self._no_content)
        r("DELETE", react + "/@me", self._no_content)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)
        r("GET", "/guilds/{guild_id}/members", self._get_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    # ------------------------------------------------------------------ simple REST handlers

    async def _no_content(self, req: _Request) -> web.Response:
        return no_content()

    async def _empty_list(self, req: _Request) -> web.Response:
        return json_response([])

    async def _empty_items(self, req: _Request) -> web.Response:
        return json_response({"items": []})

    async def _get_me(self, req: _Request) -> web.Response:
        return json_response(
            {**self.bot_user.user_payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        )

    async def _get_user(self, req: _Request) -> web.Response:
        user = self.users.get(_int(req.params["user_id"]))
        if user is None:
            return error_response(404, 10013, "Unknown User")
        return json_response(user.user_payload())

    async def _get_app(self, req: _Request) -> web.Response:
        return json_response(self.app_info_payload())

    async def _get_gateway(self, req: _Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _create_dm(self, req: _Request) -> web.Response:
        uid = _int((req.payload or {}).get("recipient_id"))
        if uid not in self.users:
            return error_response(400, 50007, "Cannot send messages to this user")
        for chan in self.channels.values():
            if chan.type == 1 and chan.recipient_id == uid:
                break
        else:
            chan = FakeChannel(id=snowflake(), name=f"dm-{uid}", type=1, recipient_id=uid)
            self.channels[chan.id] = chan
        return json_response(chan.payload(None, self.users))

    async def _get_guild(self, req: _Request) -> web.Response:
        gid = _int(req.params["guild_id"])
        if gid not in self.guilds:
            return error_response(404, 10004, "Unknown Guild")
        return json_response(self.guild_payload(full=False, guild_id=gid))

    async def _get_guild_channels(self, req: _Request) -> web.Response:
        gid = _int(req.params["guild_id"])
        return json_response(
            [c.payload(gid, self.users) for c in self.channels.values() if self.guild_of(c) == gid]
        )

    async def _get_roles(self, req: _Request) -> web.Response:
        return json_response(self.roles_payload(_int(req.params["guild_id"])))

    async def _get_members(self, req: _Request) -> web.Response:
        return json_response([self.member_payload(u) for u in self.users.values()])

    async def _get_member(self, req: _Request) -> web.Response:
        user = self.users.get(_int(req.params["user_id"]))
        if user is None:
            return error_response(404, 10007, "Unknown Member")
        return json_response(self.member_payload(user))

    async def _get_channel(self, req: _Request) -> web.Response:
        chan = self.channels.get(_int(req.params["channel_id"]))
        if chan is None:
            return error_response(404, 10003, "Unknown Channel")
        return json_response(chan.payload(self.guild_of(chan), self.users))

    # ------------------------------------------------------------------ application commands

    def _command_list(self, req: _Request) -> list[dict[str, Any]] | None:
        if _int(req.params["app_id"]) != self.application_id:
            return None
        gid = req.params.get("guild_id")
        if gid is None:
            return self.global_commands
        return self.guild_commands.setdefault(_int(gid), [])

    def _store_command(
        self, existing: list[dict[str, Any]], cmd: dict[str, Any], guild_id: str | None
    ) -> dict[str, Any]:
        """Normalise a command definition the way Discord echoes it back (ids, defaults)."""
        ctype = cmd.get("type", 1)
        old = next((c for c in existing if c["name"] == cmd["name"] and c["type"] == ctype), None)
        stored = copy.deepcopy(cmd)
        stored.update(
            {
                "id": old["id"] if old else str(snowflake()),
                "application_id": str(self.application_id),
                "version": str(snowflake()),
                "type": ctype,
                "description": cmd.get("description", ""),
                "options": cmd.get("options") or [],
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "nsfw": cmd.get("nsfw", False),
            }
        )
        if guild_id is not None:
            stored["guild_id"] = guild_id
        return stored

    async def _list_commands(self, req: _Request) -> web.Response:
        cmds = self._command_list(req)
        if cmds is None:
            return error_response(403, 20012, "You are not authorized to perform this action")
        return json_response(cmds)

    async def _bulk_commands(self, req: _Request) -> web.Response:
        cmds = self._command_list(req)
        if cmds is None:
            return error_response(403, 20012, "You are not authorized to perform this action")
        new = list(req.payload or [])
        stored = [self._store_command(cmds, c, req.params.get("guild_id")) for c in new]
        cmds[:] = stored
        self.command_syncs += 1
        self.notify()
        return json_response(stored)

    async def _upsert_command(self, req: _Request) -> web.Response:
        cmds = self._command_list(req)
        if cmds is None:
            return error_response(403, 20012, "You are not authorized to perform this action")
        stored = self._store_command(cmds, req.payload, req.params.get("guild_id"))
        cmds[:] = [c for c in cmds if c["id"] != stored["id"]] + [stored]
        self.notify()
        return json_response(stored, 201)

    def _find_command(self, req: _Request) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
        cmds = self._command_list(req) or []
        for cmd in cmds:
            if cmd["id"] == req.params["command_id"]:
                return cmds, cmd
        return None

    async def _get_command(self, req: _Request) -> web.Response:
        found = self._find_command(req)
        if found is None:
            return error_response(404, 10063, "Unknown application command")
        return json_response(found[1])

    async def _patch_command(self, req: _Request) -> web.Response:
        found = self._find_command(req)
        if found is None:
            return error_response(404, 10063, "Unknown application command")
        found[1].update(req.payload or {})
        self.notify()
        return json_response(found[1])

    async def _delete_command(self, req: _Request) -> web.Response:
        found = self._find_command(req)
        if found is None:
            return error_response(404, 10063, "Unknown application command")
        found[0].remove(found[1])
        self.notify()
        return no_content()

    def find_command(
        self, name: str, *, type: int = 1, in_guild: bool = True
    ) -> dict[str, Any] | None:
        """A synced command by name: guild commands win over global ones (as in the client);
        outside the guild (DMs) only global commands exist."""
        guild_cmds = self.guild_commands.get(self.guild_id, []) if in_guild else []
        for cmd in guild_cmds + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == type:
                return cmd
        return None

    # ------------------------------------------------------------------ interaction callback

    async def _callback(self, req: _Request) -> web.Response:
        """``POST /interactions/{id}/{token}/callback`` - the single initial response."""
        rec = self.interactions.get(_int(req.params["interaction_id"]))
        if rec is None or rec.token != req.params["token"]:
            self.violate("unknown_interaction", f"callback for unknown interaction {req.params}")
            return error_response(404, 10062, "Unknown interaction")
        rec.callback_count += 1
        payload = req.payload or {}
        ctype = int(payload.get("type", 0))
        data = payload.get("data") or {}
        elapsed = self.now() - (rec.dispatched_at or rec.created_at)
        if self._expired(rec):
            self.violate("expired_token", f"callback after token expiry: {_describe(rec)}", rec.id)
            return error_response(404, 10062, "Unknown interaction")
        if rec.acknowledged:
            self.violate(
                "double_ack",
                f"second initial response (type {ctype}) after type {rec.response_type}: "
                f"{_describe(rec)}",
                rec.id,
            )
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > self.ack_deadline:
            self.violate(
                "late_ack",
                f"first response after {elapsed:.2f}s (deadline {self.ack_deadline:g}s): "
                f"{_describe(rec)}",
                rec.id,
            )
            return error_response(404, 10062, "Unknown interaction")
        allowed = set(ALLOWED_CALLBACKS.get(rec.type, set()))
        if rec.type == IT_MODAL and rec.source_message_id is None:
            allowed -= {6, 7}
        if ctype not in allowed:
            self.violate(
                "bad_callback_type",
                f"callback type {ctype} is not valid for interaction type {rec.type}",
                rec.id,
            )
            return error_response(400, 50035, "Invalid Form Body", [f"invalid type {ctype}"])

        user_id = rec.user_id
        msg: StoredMessage | None = None
        ephemeral = False
        if ctype == 4:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self.create_message(
                rec.channel_id, data, req.files, visible_to=user_id if ephemeral else None, rec=rec
            )
            rec.original_message_id = msg.id
        elif ctype == 5:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self.create_message(
                rec.channel_id,
                {},
                [],
                visible_to=user_id if ephemeral else None,
                rec=rec,
                flags=FLAG_LOADING,
            )
            rec.original_message_id = msg.id
            rec.deferred_ephemeral = ephemeral
            rec.first_followup_pending = True
        elif ctype in (6, 7):
            source = self.messages.get(rec.source_message_id or 0)
            if source is None or source.deleted:
                return error_response(404, 10008, "Unknown Message")
            if ctype == 7:
                refused = self.refuse_attachments(source, data, req.files, rec)
                if refused is not None:
                    return refused
                self.edit_message(source, data, req.files)
            msg = source
            ephemeral = source.ephemeral
            rec.original_message_id = source.id
        elif ctype == 8:
            rec.autocomplete_choices = list(data.get("choices") or [])
        elif ctype == 9:
            rec.modal = copy.deepcopy(data)

        rec.response_type = ctype
        rec.acked_at = self.now()
        self.notify()
        if msg is not None and ctype in (4, 5):
            await self._announce("MESSAGE_CREATE", msg)
        elif msg is not None and ctype == 7:
            await self._announce("MESSAGE_UPDATE", msg)

        if req.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": {"type": ctype},
        }
        if msg is not None:
            body["interaction"]["response_message_id"] = str(msg.id)
            if ctype in (4, 5, 7):
                body["resource"]["message"] = msg.payload()
        return json_response(body)

    # ------------------------------------------------------------------ webhooks (followups)

    def _webhook_interaction(self, req: _Request) -> InteractionRecord | web.Response:
        """Resolve ``/webhooks/{app}/{token}`` to an interaction, enforcing expiry and ack order."""
        rec = self._by_token.get(req.params["token"])
        if _int(req.params["app_id"]) != self.application_id or rec is None:
            return error_response(404, 10015, "Unknown Webhook")
        if self._expired(rec):
            self.violate(
                "expired_token",
                f"{req.raw.method} on interaction webhook after token expiry "
                f"({self.token_ttl:g}s): {_describe(rec)}",
                rec.id,
            )
            return error_response(401, 50027, "Invalid Webhook Token")
        if not rec.acknowledged:
            self.violate(
                "followup_before_ack",
                f"{req.raw.method} on interaction webhook before the initial response: "
                f"{_describe(rec)}",
                rec.id,
            )
            return error_response(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(
        self, req: _Request, rec: InteractionRecord
    ) -> StoredMessage | web.Response:
        key = req.params["message_id"]
        mid = rec.original_message_id if key == "@original" else _int(key)
        allowed = {rec.original_message_id, *rec.followup_ids}
        msg = self.messages.get(mid or 0)
        if msg is None or msg.deleted or mid not in allowed:
            return error_response(404, 10008, "Unknown Message")
        return msg

    async def _followup_create(self, req: _Request) -> web.Response:
        found = self._webhook_interaction(req)
        if isinstance(found, web.Response):
            return found
        rec = found
        payload = req.payload or {}
        wants_ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
        original = self.messages.get(rec.original_message_id or 0)
        if rec.first_followup_pending and original is not None and original.loading:
            # Discord turns the first followup after a deferred (type 5) response into the
            # original message; its visibility was fixed by the defer, not by this request.
            rec.first_followup_pending = False
            if wants_ephemeral and not rec.deferred_ephemeral:
                self.violate(
                    "ephemeral_leak",
                    "followup requested ephemeral but the interaction was deferred publicly, so "
                    f"Discord posts it for everyone: {_describe(rec)}",
                    rec.id,
                )
            body = {"content": "", **payload, "flags": int(payload.get("flags") or 0)}
            self.edit_message(original, body, req.files)
            original.flags &= ~FLAG_LOADING
            msg = original
            await self._announce("MESSAGE_UPDATE", msg)
        else:
            msg = self.create_message(
                rec.channel_id,
                payload,
                req.files,
                visible_to=rec.user_id if wants_ephemeral else None,
                rec=rec,
            )
            rec.followup_ids.append(msg.id)
            await self._announce("MESSAGE_CREATE", msg)
        self.notify()
        if req.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg.payload())
        return no_content()

    async def _webhook_get(self, req: _Request) -> web.Response:
        found = self._webhook_interaction(req)
        if isinstance(found, web.Response):
            return found
        msg = self._webhook_message(req, found)
        if isinstance(msg, web.Response):
            return msg
        return json_response(msg.payload())

    async def _webhook_edit(self, req: _Request) -> web.Response:
        found = self._webhook_interaction(req)
        if isinstance(found, web.Response):
            return found
        rec = found
        msg = self._webhook_message(req, rec)
        if isinstance(msg, web.Response):
            return msg
        payload = req.payload or {}
        refused = self.refuse_attachments(msg, payload, req.files, rec)
        if refused is not None:
            return refused
        was_loading = msg.loading
        self.edit_message(msg, payload, req.files)
        if was_loading:
            msg.flags &= ~FLAG_LOADING
            if msg.id == rec.original_message_id:
                rec.first_followup_pending = False
        self.notify()
        await self._announce("MESSAGE_UPDATE", msg)
        return json_response(msg.payload())

    async def _webhook_delete(self, req: _Request) -> web.Response:
        found = self._webhook_interaction(req)
        if isinstance(found, web.Response):
            return found
        msg = self._webhook_message(req, found)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        self.notify()
        await self._announce("MESSAGE_DELETE", msg)
        return no_content()

    # ------------------------------------------------------------------ channel messages

    def _channel_or_error(self, req: _Request) -> FakeChannel | web.Response:
        chan = self.channels.get(_int(req.params["channel_id"]))
        if chan is None:
            return error_response(404, 10003, "Unknown Channel")
        return chan

    def _channel_message(self, req: _Request, chan: FakeChannel) -> StoredMessage | web.Response:
        """A message reachable through the channel API: never ephemeral, never deleted."""
        msg = self.messages.get(_int(req.params["message_id"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != chan.id:
            return error_response(404, 10008, "Unknown Message")
        return msg

    async def _channel_create(self, req: _Request) -> web.Response:
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        payload = req.payload or {}
        needed = PERM_SEND_MESSAGES_IN_THREADS if chan.is_thread else PERM_SEND_MESSAGES
        if not self.bot_may(needed):
            return error_response(403, 50013, "Missing Permissions")
        if chan.is_thread:
            refused = await self.thread_message(chan, may_manage=self.bot_may(PERM_MANAGE_THREADS))
            if refused is not None:
                return error_response(400, 50083, refused)
        same = self.nonce_match(chan.id, payload)
        if same is not None:
            # Discord's `enforce_nonce`: the message this author already created with this
            # nonce is the answer, and nothing new is posted (a retried POST whose first
            # attempt arrived, but whose answer was lost).
            self.nonce_hits.append(same.id)
            return json_response(same.payload())
        if int(payload.get("flags") or 0) & FLAG_EPHEMERAL:
            self.violate(
                "ephemeral_leak",
                f"ephemeral flag on a channel message in #{chan.name}: channel messages are "
                "always public",
            )
        msg = self.create_message(chan.id, payload, req.files, flags=int(payload.get("flags") or 0))
        await self._announce("MESSAGE_CREATE", msg)
        return json_response(msg.payload())

    async def _channel_history(self, req: _Request) -> web.Response:
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        msgs = [
            m
            for m in self.messages.values()
            if m.channel_id == chan.id and not m.deleted and not m.ephemeral
        ]
        msgs.sort(key=lambda m: m.id, reverse=True)
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
            msgs = sorted(msgs, key=lambda m: m.id)[:limit]
            msgs.sort(key=lambda m: m.id, reverse=True)
        if "around" in req.query:
            pivot = int(req.query["around"])
            msgs.sort(key=lambda m: abs(m.id - pivot))
            msgs = sorted(msgs[:limit], key=lambda m: m.id, reverse=True)
        return json_response([m.payload() for m in msgs[:limit]])

    async def _channel_get(self, req: _Request) -> web.Response:
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        msg = self._channel_message(req, chan)
        if isinstance(msg, web.Response):
            return msg
        return json_response(msg.payload())

    async def _channel_edit(self, req: _Request) -> web.Response:
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        msg = self._channel_message(req, chan)
        if isinstance(msg, web.Response):
            return msg
        if msg.author_id != self.bot_user.id:
            return error_response(403, 50005, "Cannot edit a message authored by another user")
        if chan.is_thread and await self._archived(chan):
            # Discord: nobody edits messages in an archived thread (deleting is allowed).
            return error_response(400, 50083, "Thread is archived")
        payload = req.payload or {}
        refused = self.refuse_attachments(msg, payload, req.files)
        if refused is not None:
            return refused
        self.edit_message(msg, payload, req.files)
        await self._announce("MESSAGE_UPDATE", msg)
        return json_response(msg.payload())

    async def _channel_delete(self, req: _Request) -> web.Response:
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        msg = self._channel_message(req, chan)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        self.notify()
        await self._announce("MESSAGE_DELETE", msg)
        return no_content()

    # ------------------------------------------------------------------ threads

    def _archive_due(self, chan: FakeChannel) -> bool:
        """Is this thread archived by now? Discord archives a thread by itself
        ``auto_archive_duration`` minutes after its last activity (server clock)."""
        if not chan.archived and self.now() - chan.last_activity >= chan.auto_archive_duration * 60:
            chan.archived = True
            chan.archive_timestamp = iso_now()
        return chan.archived

    async def _archived(self, chan: FakeChannel) -> bool:
        """`_archive_due`, telling the bot (THREAD_UPDATE) when it archived just now."""
        was = chan.archived
        if self._archive_due(chan) and not was:
            await self._thread_update(chan)
        return chan.archived

    async def _thread_update(self, chan: FakeChannel) -> None:
        gid = self.guild_of(chan)
        await self.dispatch("THREAD_UPDATE", chan.payload(gid, self.users), guild_id=gid)
        self.notify()

    async def thread_message(self, chan: FakeChannel, *, may_manage: bool) -> str | None:
        """A message is about to be sent to this thread (by the bot or a member). Discord: a
        message to an archived thread unarchives it, unless a moderator locked it (then only
        someone with Manage Threads may). Returns why it is refused, or None (and counts the
        message as the thread's activity)."""
        if await self._archived(chan):
            if chan.locked and not may_manage:
                return "Thread is locked"
            chan.archived = False
            chan.archive_timestamp = iso_now()
            await self._thread_update(chan)
        chan.last_activity = self.now()
        chan.message_count += 1
        return None

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """A moderator archives (and, with ``locked``, locks) a thread."""
        chan = self.channels[thread_id]
        chan.archived, chan.locked = True, locked or chan.locked
        chan.archive_timestamp = iso_now()
        await self._thread_update(chan)

    def threads(self, parent_id: int | None = None) -> list[FakeChannel]:
        """Every thread (under one channel), oldest first."""
        found = [c for c in self.channels.values() if c.is_thread]
        return sorted(
            (c for c in found if parent_id is None or c.parent_id == parent_id),
            key=lambda c: c.id,
        )

    async def _start_thread(self, req: _Request) -> web.Response:
        """Start a public thread from a message: the thread has the message's id (so one
        thread per message), in the message's channel, THREAD_CREATE to the bot. Needs Send
        Messages and Create Public Threads."""
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        msg = self._channel_message(req, chan)
        if isinstance(msg, web.Response):
            return msg
        if chan.type != TEXT:
            return error_response(400, 50024, "Cannot execute action on this channel type")
        if not self.bot_may(PERM_SEND_MESSAGES | PERM_CREATE_PUBLIC_THREADS):
            return error_response(403, 50013, "Missing Permissions")
        if msg.id in self.channels:
            return error_response(400, 160004, "A thread has already been created for this message")
        payload = req.payload or {}
        name = str(payload.get("name") or "")
        duration = payload.get("auto_archive_duration") or 1440
        problems = []
        if not 1 <= len(name) <= 100:
            problems.append(f"thread name must be 1-100 characters ({len(name)})")
        if duration not in ARCHIVE_DURATIONS:
            problems.append(f"auto_archive_duration {duration!r} not one of {ARCHIVE_DURATIONS}")
        if problems:
            self.violate("invalid_payload", "start thread: " + "; ".join(problems))
            return error_response(400, 50035, "Invalid Form Body", problems)
        thread = FakeChannel(
            id=msg.id,
            name=name,
            type=PUBLIC_THREAD,
            guild_id=chan.guild_id,
            parent_id=chan.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(duration),
            last_activity=self.now(),
        )
        self.channels[thread.id] = thread
        gid = self.guild_of(chan)
        created = thread.payload(gid, self.users) | {"newly_created": True}
        await self.dispatch("THREAD_CREATE", created, guild_id=gid)
        self.notify()
        return json_response(thread.payload(gid, self.users))

    async def _edit_channel(self, req: _Request) -> web.Response:
        """Modify a thread (the bot edits no other channel): ``archived``, ``locked``,
        ``auto_archive_duration``, ``name``. Discord's rules: locking needs Manage Threads;
        unarchiving a locked thread needs Manage Threads; name, archive state and duration
        need Manage Threads or being the thread's creator; an archived thread accepts only
        being unarchived."""
        chan = self._channel_or_error(req)
        if isinstance(chan, web.Response):
            return chan
        manage = self.bot_may(PERM_MANAGE_THREADS)
        if not chan.is_thread:
            return error_response(403, 50013, "Missing Permissions")
        payload = req.payload or {}
        creator = chan.owner_id == self.bot_user.id
        archived = await self._archived(chan)
        unarchive = payload.get("archived") is False
        if archived and not unarchive:
            return error_response(400, 50083, "Thread is archived")
        if "locked" in payload and not manage:
            return error_response(403, 50013, "Missing Permissions")
        if archived and chan.locked and not manage:
            return error_response(403, 50013, "Missing Permissions")
        if {"name", "archived", "auto_archive_duration"} & set(payload) and not (manage or creator):
            return error_response(403, 50013, "Missing Permissions")
        duration = payload.get("auto_archive_duration")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            self.violate("invalid_payload", f"thread auto_archive_duration {duration!r}")
            return error_response(400, 50035, "Invalid Form Body", ["auto_archive_duration"])
        if payload.get("name"):
            chan.name = str(payload["name"])[:100]
        if duration is not None:
            chan.auto_archive_duration = int(duration)
            chan.last_activity = self.now()
        if "locked" in payload:
            chan.locked = bool(payload["locked"])
        if "archived" in payload and bool(payload["archived"]) != chan.archived:
            chan.archived = bool(payload["archived"])
            chan.archive_timestamp = iso_now()
            if not chan.archived:
                chan.last_activity = self.now()
        await self._thread_update(chan)
        return json_response(chan.payload(self.guild_of(chan), self.users))


@dataclass(frozen=True)
class RestCall:
    """One REST call as the fake saw it: what ``request_log`` holds, plus which bot process
    made it (its CLIENT_HEADER; None for an in-process bot)."""

    method: str
    path: str
    status: int
    client: str | None


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _describe(rec: InteractionRecord) -> str:
    """Short human description of an interaction for violation messages."""
    if rec.type in (IT_COMMAND, IT_AUTOCOMPLETE):
        parts = [rec.data.get("name", "?")]
        opts = rec.data.get("options") or []
        while opts and opts[0].get("type") in (1, 2):
            parts.append(opts[0]["name"])
            opts = opts[0].get("options") or []
        kind = "/" if rec.type == IT_COMMAND else "autocomplete /"
        return kind + " ".join(parts)
    if rec.type == IT_COMPONENT:
        return f"component {rec.data.get('custom_id')!r}"
    return f"modal {rec.data.get('custom_id')!r}"


def patch_discord(url: str) -> tuple[Any, Any]:
    """Point discord.py at ``url`` (the two class attributes); returns the old values.

    ``Route.BASE`` is read each time a route is built and ``DEFAULT_GATEWAY`` each time a
    websocket connects, so this must run before the client starts but needs nothing else.
    """
    import discord.gateway
    import discord.http

    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    base = url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws_base = "ws" + base[len("http") :] if base.startswith("http") else base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws_base}/gateway")
    return old


def unpatch_discord(old: tuple[Any, Any]) -> None:
    """Undo :func:`patch_discord`."""
    import discord.gateway
    import discord.http

    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old
