"""Plain data objects shared by the fake Discord server and the test driver.

They are deliberately dumb dataclasses: the server owns all mutation, the driver and the tests
only read them.  Each object can render itself into the JSON shape that discord.py parses, so
payload knowledge lives next to the data it describes.
"""

from __future__ import annotations

import copy
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits we care about (see Discord's permissions table).
PERM_ADMINISTRATOR = 1 << 3
PERM_MEMBER_DEFAULT = (
    (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 18)  # USE_EXTERNAL_EMOJIS
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | (1 << 38)  # SEND_MESSAGES_IN_THREADS
)

# The bits the fake checks (Discord answers a request that needs one the bot lacks with 403,
# code 50013 "Missing Permissions"; ADMINISTRATOR has them all).
PERM_SEND_MESSAGES = 1 << 11
PERM_MANAGE_THREADS = 1 << 34
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
#: What a bot needs to play its tables in threads, on top of the member defaults.
PERM_THREADS = PERM_CREATE_PUBLIC_THREADS | PERM_SEND_MESSAGES_IN_THREADS

#: Channel types: a guild text channel, a DM, a public thread.
TEXT, DM, PUBLIC_THREAD = 0, 1, 11
#: The auto-archive durations Discord accepts for a thread, in minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

_counter = itertools.count()


def snowflake() -> int:
    """Return a fresh, strictly increasing snowflake.

    Real snowflakes embed a millisecond timestamp; discord.py derives ``created_at`` from it, so we
    keep that property.  The low 22 bits come from a process-wide counter, which makes ids unique
    and monotonic even when many are minted within one millisecond.
    """
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """ISO-8601 timestamp in the format Discord uses."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


@dataclass
class FakeUser:
    """A Discord user (and guild member) that a test can act as."""

    id: int
    name: str
    bot: bool = False
    admin: bool = False
    nick: str | None = None
    global_name: str | None = None
    # The language of this user's Discord client (Discord sends it with every interaction as
    # `locale`); a test sets it to play as, say, a Hindi user (`"hi"`).
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        """The ``user`` object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeChannel:
    """A guild text channel (type 0), a DM channel (type 1) or a public thread (type 11).

    A thread lives under ``parent_id``; ``archived``/``locked`` are its ``thread_metadata``
    and ``last_activity`` (the server clock) what its auto-archive counts from: Discord
    archives a thread ``auto_archive_duration`` minutes after its last activity (a message,
    an unarchive, a change of the duration)."""

    id: int
    name: str
    type: int = 0
    position: int = 0
    recipient_id: int | None = None
    # The guild a text channel is in; None = the server's first guild (single-guild tests).
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=lambda: iso_now())
    last_activity: float = 0.0
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, guild_id: int | None, users: dict[int, FakeUser]) -> dict[str, Any]:
        if self.type == 1:
            recipients = [users[self.recipient_id].user_payload()] if self.recipient_id else []
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": recipients,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id) if guild_id else None,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        } | (self._thread_fields() if self.is_thread else {})

    def _thread_fields(self) -> dict[str, Any]:
        """What a thread adds to the channel object (Discord's thread fields)."""
        return {
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "message_count": self.message_count,
            "total_message_sent": self.message_count,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": self.archive_timestamp,
                "locked": self.locked,
            },
        }


@dataclass
class Violation:
    """One breach of a Discord rule by the bot under test.

    ``kind`` is a stable machine-readable tag (e.g. ``"late_ack"``) tests can filter on;
    ``detail`` is for humans reading a failed assertion.
    """

    kind: str
    detail: str
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        suffix = f" (interaction {self.interaction_id})" if self.interaction_id else ""
        return f"[{self.kind}] {self.detail}{suffix}"

    __repr__ = __str__


@dataclass
class StoredMessage:
    """A message as the fake server knows it, including things Discord never sends to bots.

    ``visible_to`` is ``None`` for a public message or the id of the only user who can see it
    (ephemeral).  ``edits`` keeps earlier snapshots so tests can assert on a message's history.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    attachment_data: dict[str, bytes] = field(default_factory=dict)
    visible_to: int | None = None
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_user: dict[str, Any] | None = None
    interaction_type: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)
    #: Users the content mentions now (``<@id>`` allowed by the request's allowed_mentions).
    mentions: list[int] = field(default_factory=list)
    #: Users Discord notified of this message: those mentioned when it was posted. An edit
    #: notifies nobody (a mention added later reaches no one), so this never grows.
    notified: list[int] = field(default_factory=list)
    #: The nonce the message was created with (Discord echoes it in the create's answer).
    nonce: str | None = None
    #: When it was created, on the server's clock (`FakeDiscordServer.now`).
    created_at: float = 0.0

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def author_id(self) -> int:
        return int(self.author["id"])

    @property
    def attachment_names(self) -> list[str]:
        return [a["filename"] for a in self.attachments]

    @property
    def embed_attachment_refs(self) -> list[str]:
        """Filenames the embeds show through ``attachment://name`` (image, thumbnail, icons)."""
        out: list[str] = []
        for emb in self.embeds:
            urls = [
                (emb.get("image") or {}).get("url"),
                (emb.get("thumbnail") or {}).get("url"),
                (emb.get("author") or {}).get("icon_url"),
                (emb.get("footer") or {}).get("icon_url"),
            ]
            out.extend(
                u[len("attachment://") :] for u in urls if u and u.startswith("attachment://")
            )
        return out

    def snapshot(self) -> dict[str, Any]:
        """Copy of the user-visible fields, stored in ``edits`` before each change."""
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "flags": self.flags,
                "attachments": self.attachments,
                "edited_timestamp": self.edited_timestamp,
            }
        )

    def iter_components(self) -> list[dict[str, Any]]:
        """All components at any depth (action rows, v2 containers, sections, accessories)."""
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                out.append(comp)
                walk(comp.get("components") or [])
                for key in ("accessory", "component"):
                    if isinstance(comp.get(key), dict):
                        walk([comp[key]])

        walk(self.components)
        return out

    def payload(self) -> dict[str, Any]:
        """The message object in the shape discord.py's ``Message`` expects."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user,
                "authorizing_integration_owners": {},
            }
        return data

    def text(self) -> str:
        """What a human sees: content, embed text and component labels, one item per line."""
        parts: list[str] = []
        if self.loading:
            parts.append("<Bot is thinking...>")
        if self.content:
            parts.append(self.content)
        for emb in self.embeds:
            for key in ("title", "description"):
                if emb.get(key):
                    parts.append(str(emb[key]))
            if (emb.get("author") or {}).get("name"):
                parts.append(str(emb["author"]["name"]))
            for fld in emb.get("fields") or []:
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            if (emb.get("footer") or {}).get("text"):
                parts.append(str(emb["footer"]["text"]))
        for comp in self.iter_components():
            ctype = comp.get("type")
            if ctype == 10 and comp.get("content"):  # v2 text display
                parts.append(str(comp["content"]))
            elif ctype == 2:
                label = comp.get("label") or (comp.get("emoji") or {}).get("name") or ""
                state = " (disabled)" if comp.get("disabled") else ""
                parts.append(f"[{label}]{state}")
            elif ctype in (3, 5, 6, 7, 8):
                opts = ", ".join(o.get("label", "") for o in comp.get("options") or [])
                placeholder = comp.get("placeholder") or "select"
                state = " (disabled)" if comp.get("disabled") else ""
                parts.append(f"<{placeholder}: {opts}>{state}" if opts else f"<{placeholder}>")
        for name in self.attachment_names:
            parts.append(f"📎 {name}")
        return "\n".join(parts)


@dataclass
class Upload:
    """One file the bot uploaded, and the message it landed on (for privacy and count checks).

    ``visible_to`` is copied from the message at upload time: None means everyone in the
    channel could see the file."""

    message_id: int
    channel_id: int
    visible_to: int | None
    filename: str
    data: bytes
    content_type: str | None
    interaction_id: int | None
    edit: bool  # uploaded by an edit of an existing message (not with a new one)

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class InteractionRecord:
    """Server-side bookkeeping for one interaction we dispatched to the bot."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    data: dict[str, Any]
    created_at: float
    dispatched_at: float | None = None
    acked_at: float | None = None
    deadline_checked: bool = False
    response_type: int | None = None
    callback_count: int = 0
    original_message_id: int | None = None
    deferred_ephemeral: bool = False
    first_followup_pending: bool = False
    source_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    # Which gateway session it was sent on: its bot process (CLIENT_HEADER) and shard.
    delivered_to: str | None = None
    delivered_shard: tuple[int, int] | None = None

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


def make_user(name: str, *, admin: bool = False, user_id: int | None = None) -> FakeUser:
    """Convenience constructor: a human user with a fresh snowflake id."""
    return FakeUser(id=user_id or snowflake(), name=name, admin=admin)


def make_channel(
    name: str, *, channel_id: int | None = None, position: int = 0, guild_id: int | None = None
) -> FakeChannel:
    """Convenience constructor: a guild text channel with a fresh snowflake id (in the first
    guild unless ``guild_id`` names another one, see ``FakeDiscordServer.add_guild``)."""
    return FakeChannel(
        id=channel_id or snowflake(), name=name, position=position, guild_id=guild_id
    )
