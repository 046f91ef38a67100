"""Forget-me: erase one user's footprint in one guild without breaking anyone else's.

Why it anonymises instead of deleting results: a deal or match belongs to every
player who sat at it. Deleting the forgotten user's seats would change the other
players' history and make a rebuild of their totals disagree with today's. So, in ONE
transaction:

* the user's own summaries, ratings, rating history and stored name are deleted;
* their seats in results are kept but anonymised (``user_id`` NULL, name
  :data:`DELETED_NAME`), so the other players' results and totals stay intact and a
  later rebuild does not resurrect the user;
* every stored JSON document of the guild that names them is rewritten (:func:`scrub`):
  the hand histories of their deals (what other players download), the saved state of
  closed tables, the action log of every table and the outbox's result jobs (each holds a
  whole result record, kept after it is done), and for tournaments (0013) the saved state of
  closed ones, every tournament's event log and its outbox's notes (who was left out, a
  round's standings). Their name becomes :data:`DELETED_NAME`, their Discord id is removed
  (``user_id``/``user`` fields become null, ``host_id`` and any other occurrence 0) and
  their engine key ``u<id>`` becomes :data:`FORGOTTEN_KEY`;
* their final places in tournaments (``tournament_results``) are kept for the others'
  standings, anonymised like a seat, and the row's entrant key ``u<id>`` becomes
  ``u0.<n>`` (unique within its tournament: two forgotten players can share one);
* ratings already earned by others are not recomputed.

**Every column is accounted for.** :data:`COLUMNS` says, for every column of every table,
whether it can hold a player's id or name and what forget-me does with it; the deletions and
anonymisations below are driven by it, and a test compares it with the live SQLite and
PostgreSQL schemas. A migration that adds a column fails that test until the column is
entered here, so a new place for a player's name cannot be forgotten (the outbox's payloads
were, once).

A table that is still open and has the user in it (seated, or in its match) cannot be
scrubbed: the running game needs to know who they are, and its next save would write
them back. The same holds for a tournament still open (registration, check-in or running)
whose state names them. :meth:`PrivacyRepo.forget_user` then changes nothing and returns
False; the user asks again once that game or tournament has ended.

Cost: the documents are found with ``instr`` (``strpos`` on PostgreSQL) over the guild's
closed tables and events (JSON has no index); forget-me is rare, and one scan per request
is the price of telling the truth.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Final

from bot.storage.conn import Database, Dialect, Tx

__all__ = [
    "COLUMNS",
    "DELETED_NAME",
    "FORGOTTEN_KEY",
    "KEPT",
    "SCRUBBED_DOCUMENTS",
    "Handling",
    "PrivacyRepo",
    "mentions",
    "scrub",
]

#: Name written over a forgotten user's seats and in documents that named them.
DELETED_NAME: Final = "forgotten player"
#: What the engine key ``u<user id>`` of a forgotten user becomes.
FORGOTTEN_KEY: Final = "u0"
#: Names earlier versions wrote over forgotten seats (their deals are candidates too).
_OLD_DELETED_NAMES: Final = ("(deleted)", DELETED_NAME)

# Keys whose value is a user id (it becomes null) or marks the dict as the user's own.
_ID_KEYS: Final = frozenset({"user_id", "user"})
_KEY_KEYS: Final = frozenset({"key", "player_id", "id"})
_HOST_KEY: Final = "host_id"
#: Discord ids (snowflakes) are at least this large. Only such an id is also searched
#: for as a bare number or inside text: a small number would match seat numbers and
#: scores, and identifies nobody.
SNOWFLAKE_MIN: Final = 10**15

# ------------------------------------------------------------- what each column holds


class Handling(StrEnum):
    """What a column holds of a player, and so what forget-me does with it."""

    #: Nothing of a player: server, channel, message and table ids, numbers, times, rules.
    NONE = "none"
    #: The row is the player's own (their summary, rating, name): deleted with them.
    DELETED = "deleted"
    #: Their seat in a result others share: kept, with the id NULL and the name replaced.
    ANONYMISED = "anonymised"
    #: A JSON document that may name them anywhere inside: rewritten by `scrub`.
    SCRUBBED = "scrubbed"
    #: Kept on purpose (the reason is in `KEPT`).
    KEPT = "kept"


_N, _D, _A, _S, _K = (
    Handling.NONE,
    Handling.DELETED,
    Handling.ANONYMISED,
    Handling.SCRUBBED,
    Handling.KEPT,
)
_SUMMARY = {"deals_played": _N, "deals_won": _N, "matches_played": _N, "matches_won": _N}

#: Every column of every table, on either backend, and what it holds of a player.
COLUMNS: Final[dict[str, dict[str, Handling]]] = {
    "schema_version": {"version": _N, "name": _N, "applied_at": _N},
    "migration_notes": {"id": _N, "version": _N, "note": _N, "created_at": _N},
    "guild_settings": {
        "guild_id": _N, "default_profile": _N, "turn_timer": _N, "allowed_channel_ids": _N,
        "updated_at": _N, "card_images": _N, "hints": _N, "rated_hints_off": _N,
        "table_threads": _N, "language": _N, "season": _N, "time_zone": _N,
        "season_channel_id": _N, "organiser_role_id": _N,
    },
    "user_preferences": {"user_id": _K, "card_images": _N, "updated_at": _N, "language": _N},
    "game_tables": {
        "table_id": _N, "guild_id": _N, "channel_id": _N, "host_id": _S, "status": _N,
        "public_message_id": _N, "prompt_message_id": _N, "state_json": _S, "version": _N,
        "turn_deadline": _N, "created_at": _N, "updated_at": _N, "thread_id": _N,
        "lobby_message_id": _N, "tournament_id": _N, "tournament_round": _N,
    },
    "game_events": {"table_id": _N, "seq": _N, "event_json": _S, "created_at": _N},
    "announcements": {
        "announcement_id": _N, "table_id": _N, "kind": _N, "deal_no": _N, "payload_json": _S,
        "created_at": _N, "delivered_at": _N,
    },
    "table_owners": {"table_id": _N, "owner": _N, "lease_until": _N, "claimed_at": _N},
    "deals": {
        "deal_id": _N, "guild_id": _N, "match_id": _N, "deal_no": _N, "profile": _N,
        "finished_at": _N, "hand_history": _S, "hints": _N,
    },
    "deal_seats": {
        "deal_id": _N, "seat": _N, "guild_id": _N, "profile": _N, "finished_at": _N,
        "user_id": _A, "name": _A, "is_ai": _N, "outcome": _N, "penalty_num": _N,
        "penalty_den": _N, "net_num": _N, "net_den": _N,
    },
    "matches": {
        "match_id": _N, "guild_id": _N, "profile": _N, "finished_at": _N, "hints": _N,
        "rated": _N, "recorded": _N,  # recorded: PostgreSQL's stand-in for SQLite's rowid
    },
    "match_seats": {
        "match_id": _N, "seat": _N, "guild_id": _N, "profile": _N, "finished_at": _N,
        "user_id": _A, "name": _A, "is_ai": _N, "place": _N, "is_winner": _N, "net_num": _N,
        "net_den": _N,
    },
    "player_names": {"guild_id": _N, "user_id": _D, "name": _D},
    # 0014: told where /rummy help is (deleted: the next first hand view points to it again).
    "help_pointers": {"guild_id": _N, "user_id": _D, "told_at": _N},
    "player_totals": {
        "guild_id": _N, "scope": _N, "user_id": _D, **_SUMMARY, "net_num": _N, "net_den": _N,
        "net_f": _N, "win_rate": _N, "last_played_at": _N,
    },
    "period_window": {"guild_id": _N, "period_days": _N, "start_day": _N},
    "period_board": {
        "guild_id": _N, "scope": _N, "period_days": _N, "user_id": _D, **_SUMMARY, "net_f": _N,
        "win_rate": _N,
    },
    "ratings": {
        "guild_id": _N, "scope": _N, "user_id": _D, "mu": _N, "sigma": _N, "ordinal": _N,
        "matches": _N, "last_played_at": _N,
    },
    "rating_history": {
        "id": _N, "guild_id": _N, "scope": _N, "user_id": _D, "match_id": _N, "mu": _N,
        "sigma": _N, "ordinal": _N, "ordinal_before": _N, "rated_at": _N,
    },
    "seasons": {
        "guild_id": _N, "number": _N, "cadence": _N, "time_zone": _N, "starts_at": _N,
        "ends_at": _N, "closed_at": _N, "ended_by": _N, "channel_id": _N, "announced_at": _N,
    },
    # organiser_id: a plain id, set to 0 with the state's rewrite (as game_tables.host_id).
    "tournaments": {
        "tournament_id": _N, "guild_id": _N, "channel_id": _N, "organiser_id": _S, "name": _N,
        "status": _N, "state_json": _S, "version": _N, "messages_json": _N, "start_at": _N,
        "created_at": _N, "updated_at": _N,
    },
    "tournament_events": {"tournament_id": _N, "seq": _N, "event_json": _S, "created_at": _N},
    "tournament_outbox": {
        "outbox_id": _N, "tournament_id": _N, "kind": _N, "round_no": _N, "payload_json": _S,
        "created_at": _N, "delivered_at": _N,
    },
    # entrant: the key u<id>, renamed u0.<n> when its player is forgotten.
    "tournament_results": {
        "tournament_id": _N, "entrant": _A, "guild_id": _N, "user_id": _A, "name": _A,
        "place": _N, "players": _N, "rounds": _N, "finished_at": _N,
    },
}  # fmt: skip

#: Why a column marked KEPT keeps the player's id.
KEPT: Final[dict[tuple[str, str], str]] = {
    ("user_preferences", "user_id"): (
        "the player's own display choices (card images, language), one row for every server: "
        "forget-me is per server, and the row holds no stats, results or name; the player "
        "changes it with /rummy language and the Text only button"
    ),
}


def _tables(handling: Handling) -> tuple[str, ...]:
    """The tables whose `user_id` column is handled so (their rows are the guild's)."""
    return tuple(t for t, cols in COLUMNS.items() if cols.get("user_id") is handling)


# ------------------------------------------------------------- SQLite dialect

# Table names come from the registry above, never from input.
_SEAT_TABLES: Final = _tables(Handling.ANONYMISED)
_PERSONAL_TABLES: Final = _tables(Handling.DELETED)
_ANONYMISE = "UPDATE {table} SET user_id = NULL, name = ? WHERE guild_id = ? AND user_id = ?"
_DELETE = "DELETE FROM {table} WHERE guild_id = ? AND user_id = ?"
_KNOWN_NAMES = (
    "SELECT name FROM player_names WHERE guild_id = ?1 AND user_id = ?2"
    " UNION SELECT name FROM deal_seats WHERE guild_id = ?1 AND user_id = ?2"
    " UNION SELECT name FROM match_seats WHERE guild_id = ?1 AND user_id = ?2"
    " UNION SELECT name FROM tournament_results WHERE guild_id = ?1 AND user_id = ?2"
)
# Their deals, and (for a user forgotten by an older version, whose seats are already
# anonymised) every deal with a forgotten human seat: its history is checked below.
_CANDIDATE_DEALS = (
    "SELECT DISTINCT d.deal_id, d.hand_history FROM deals AS d"
    " JOIN deal_seats AS s ON s.deal_id = d.deal_id"
    " WHERE s.guild_id = ?1 AND (s.user_id = ?2"
    f" OR (s.user_id IS NULL AND s.is_ai = 0 AND s.name IN {_OLD_DELETED_NAMES!r}))"
)
_UPDATE_DEAL = "UPDATE deals SET hand_history = ? WHERE deal_id = ?"
# "Does this document contain that text": instr() in SQLite, strpos() in PostgreSQL
# (same arguments, same 1-based answer, 0 when absent).
_FIND: Final[dict[Dialect, str]] = {"sqlite": "instr", "postgres": "strpos"}
_OPEN_TABLES_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT state_json FROM game_tables WHERE guild_id = ?1"
    f" AND status IN ('lobby', 'playing') AND (host_id = ?2 OR {find}(state_json, ?3) > 0)"
    for d, find in _FIND.items()
}
_CLOSED_TABLES_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT table_id, host_id, state_json FROM game_tables WHERE guild_id = ?1"
    f" AND status NOT IN ('lobby', 'playing') AND (host_id = ?2 OR {find}(state_json, ?3) > 0)"
    for d, find in _FIND.items()
}
_UPDATE_TABLE = "UPDATE game_tables SET host_id = ?, state_json = ? WHERE table_id = ?"
# Tournaments (0013): an open one that names the user stops a forget-me, as an open table does
# (its next change would write them back); a closed one's state is scrubbed like a table's.
_OPEN_TOURNAMENTS_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT state_json FROM tournaments WHERE guild_id = ?1"
    " AND status IN ('registration', 'check_in', 'running')"
    f" AND (organiser_id = ?2 OR {find}(state_json, ?3) > 0)"
    for d, find in _FIND.items()
}
_CLOSED_TOURNAMENTS_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT tournament_id, organiser_id, state_json FROM tournaments WHERE guild_id = ?1"
    " AND status NOT IN ('registration', 'check_in', 'running')"
    f" AND (organiser_id = ?2 OR {find}(state_json, ?3) > 0)"
    for d, find in _FIND.items()
}
_UPDATE_TOURNAMENT = (
    "UPDATE tournaments SET organiser_id = ?, state_json = ? WHERE tournament_id = ?"
)
_EVENTS_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT e.table_id, e.seq, e.event_json FROM game_events AS e"
    " JOIN game_tables AS t ON t.table_id = e.table_id"
    f" WHERE t.guild_id = ?1 AND {find}(e.event_json, ?2) > 0"
    for d, find in _FIND.items()
}
_UPDATE_EVENT = "UPDATE game_events SET event_json = ? WHERE table_id = ? AND seq = ?"
# The outbox's rows of the guild's tables that name the user: a result job's payload is a
# whole result record (seats with ids and names, and the deal's hand history as a string).
_JOBS_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT a.announcement_id, a.payload_json FROM announcements AS a"
    " JOIN game_tables AS t ON t.table_id = a.table_id"
    f" WHERE t.guild_id = ?1 AND ({find}(a.payload_json, ?2) > 0 OR {find}(a.payload_json, ?3) > 0)"
    for d, find in _FIND.items()
}
_UPDATE_JOB = "UPDATE announcements SET payload_json = ? WHERE announcement_id = ?"
#: The JSON columns forget-me rewrites (the others marked SCRUBBED are `game_tables.host_id`
#: and `tournaments.organiser_id`, plain ids, rewritten with their row's state).
SCRUBBED_DOCUMENTS: Final = frozenset(
    {
        ("deals", "hand_history"),
        ("game_tables", "state_json"),
        ("game_events", "event_json"),
        ("announcements", "payload_json"),
        ("tournaments", "state_json"),
        ("tournament_events", "event_json"),
        ("tournament_outbox", "payload_json"),
    }
)
#: Fields of a document that hold another JSON document as a string (a result job keeps its
#: deal's hand history so): scrubbed as documents of their own.
_NESTED_DOCUMENTS: Final = frozenset({"hand_history_json"})
# A tournament's own log and notes (its tables' are game_events above), open or closed: an
# open one that still names the user has already stopped the forget-me.
_TOURNAMENT_EVENTS_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT e.tournament_id, e.seq, e.event_json FROM tournament_events AS e"
    " JOIN tournaments AS t ON t.tournament_id = e.tournament_id"
    f" WHERE t.guild_id = ?1 AND {find}(e.event_json, ?2) > 0"
    for d, find in _FIND.items()
}
_UPDATE_TOURNAMENT_EVENT = (
    "UPDATE tournament_events SET event_json = ? WHERE tournament_id = ? AND seq = ?"
)
_TOURNAMENT_NOTES_NAMING: Final[dict[Dialect, str]] = {
    d: "SELECT o.outbox_id, o.payload_json FROM tournament_outbox AS o"
    " JOIN tournaments AS t ON t.tournament_id = o.tournament_id"
    f" WHERE t.guild_id = ?1 AND {find}(o.payload_json, ?2) > 0"
    for d, find in _FIND.items()
}
_UPDATE_TOURNAMENT_NOTE = "UPDATE tournament_outbox SET payload_json = ? WHERE outbox_id = ?"
_THEIR_PLACES = (
    "SELECT tournament_id, entrant FROM tournament_results WHERE guild_id = ? AND user_id = ?"
)
_PLACE_KEYS = "SELECT entrant FROM tournament_results WHERE tournament_id = ?"
_RENAME_PLACE = "UPDATE tournament_results SET entrant = ? WHERE tournament_id = ? AND entrant = ?"


# --------------------------------------------------------- the JSON scrubber


def mentions(doc: Any, user_id: int) -> bool:
    """Whether a JSON document refers to the user: their id in an id field, their engine
    key, or (for a real Discord id) the id as any number or inside any text. A text
    search for the digits alone is not enough: it could hit a shuffle seed."""
    key = f"u{user_id}"
    loose = user_id >= SNOWFLAKE_MIN
    digits = str(user_id)

    def seen(node: Any) -> bool:
        if isinstance(node, dict):
            return any(
                k == key
                or ((k in _ID_KEYS or k == _HOST_KEY) and v == user_id and not isinstance(v, bool))
                or seen(v)
                for k, v in node.items()
            )
        if isinstance(node, list):
            return any(seen(v) for v in node)
        if isinstance(node, bool):
            return False
        if isinstance(node, int):
            return loose and node == user_id
        return isinstance(node, str) and (node == key or (loose and digits in node))

    return seen(doc)


def _own_names(doc: Any, user_id: int, key: str, found: set[str]) -> None:
    """The names the document gives the user: ``name`` beside their id or key, and the
    engine's ``[key, name]`` player pairs."""
    if isinstance(doc, dict):
        own = any(doc.get(k) == user_id for k in _ID_KEYS) or any(
            doc.get(k) == key for k in _KEY_KEYS
        )
        if own and isinstance(doc.get("name"), str):
            found.add(doc["name"])
        for v in doc.values():
            _own_names(v, user_id, key, found)
    elif isinstance(doc, list):
        if len(doc) == 2 and doc[0] == key and isinstance(doc[1], str):
            found.add(doc[1])
        for v in doc:
            _own_names(v, user_id, key, found)


def _name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    usable = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    if not usable:
        return None
    return re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in usable))


def scrub(doc: Any, user_id: int, names: Iterable[str] = ()) -> Any:
    """A copy of a JSON document with the user taken out (see the module docstring).

    Names are replaced where the structure says they are the user's (beside their id
    or key), never by matching text in structured fields, where a short name could
    equal a card code. Only free text (the table's ``log`` lines saved as English) is
    searched for the names, whole words only (a ``log`` record names players in known
    fields); ``names`` adds names known from elsewhere (results)."""
    key = f"u{user_id}"
    found = set(names)
    _own_names(doc, user_id, key, found)
    pattern = _name_pattern(found)
    loose = user_id >= SNOWFLAKE_MIN
    digits = str(user_id)

    def text(s: str) -> str:
        if s == key:
            return FORGOTTEN_KEY
        return s.replace(digits, "0") if loose else s

    def free_text(s: str) -> str:
        s = text(s)
        return s if pattern is None else pattern.sub(DELETED_NAME, s)

    def name(v: Any) -> Any:
        return DELETED_NAME if isinstance(v, str) and v in found else walk(v)

    def log_item(x: Any) -> Any:
        """A log line: English text (tables saved before the log held facts), or a record
        (`bot.engine.public_log`) whose name fields are known: `who`, `by`, `order`, and the
        first of each `drawn` pair."""
        if isinstance(x, str):
            return free_text(x)
        if not isinstance(x, dict):
            return walk(x)
        out: dict[str, Any] = {}
        for k, v in x.items():
            if k in ("who", "by"):
                out[k] = name(v)
            elif k == "order" and isinstance(v, list):
                out[k] = [name(n) for n in v]
            elif k == "drawn" and isinstance(v, list):
                out[k] = [[name(p[0]), *p[1:]] if isinstance(p, list) and p else walk(p) for p in v]
            else:
                out[k] = walk(v)
        return out

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            own = any(node.get(k) == user_id for k in _ID_KEYS) or any(
                node.get(k) == key for k in _KEY_KEYS
            )
            out: dict[str, Any] = {}
            for k, v in node.items():
                new_key = FORGOTTEN_KEY if k == key else k
                if own and k == "name" and isinstance(v, str):
                    out[new_key] = DELETED_NAME
                elif k in _ID_KEYS and v == user_id and not isinstance(v, bool):
                    out[new_key] = None
                elif k == _HOST_KEY and v == user_id and not isinstance(v, bool):
                    out[new_key] = 0
                elif k == "log" and isinstance(v, list):
                    out[new_key] = [log_item(x) for x in v]
                else:
                    out[new_key] = walk(v)
            return out
        if isinstance(node, list):
            if len(node) == 2 and node[0] == key and isinstance(node[1], str):
                return [FORGOTTEN_KEY, DELETED_NAME]
            return [walk(v) for v in node]
        if isinstance(node, bool):
            return node
        if isinstance(node, int) and loose and node == user_id:
            return 0
        if isinstance(node, str):
            return text(node)
        return node

    return walk(doc)


def _rewrite(text: str, user_id: int, names: set[str], compact: bool) -> str | None:
    """The scrubbed JSON text, or None if it does not mention the user (or is no JSON)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    nested = _nested(doc, user_id, names)
    if not nested and not mentions(doc, user_id):
        return None
    clean = scrub(doc, user_id, names)
    if isinstance(clean, dict):
        clean.update(nested)
    return json.dumps(clean, separators=(",", ":") if compact else None)


def _nested(doc: Any, user_id: int, names: set[str]) -> dict[str, str]:
    """The documents-in-a-string of `doc` (`hand_history_json`) that name the user, scrubbed.
    Inside a string, `scrub` would only see text: a name there would stay."""
    if not isinstance(doc, dict):
        return {}
    out = {}
    for key in sorted(_NESTED_DOCUMENTS & doc.keys()):
        if isinstance(doc[key], str):
            clean = _rewrite(doc[key], user_id, names, compact=False)
            if clean is not None:
                out[key] = clean
    return out


# ------------------------------------------------------------------ forget


class PrivacyRepo:
    """``storage.privacy``: forget-me."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def forget_user(self, guild_id: int, user_id: int, *, tx: Tx | None = None) -> bool:
        """Erase a user's footprint in one guild, in one transaction (see the module
        docstring): stats, ratings, rating history and name deleted; their seats in
        others' results anonymised; their name and id taken out of hand histories, closed
        tables' states and every table's events. Returns False, changing nothing, while
        an open table of this guild still has them in it."""
        digits = str(user_id)
        async with self._db.transaction(tx) as t:
            d = t.dialect
            open_docs = [
                *await t.fetchall(_OPEN_TABLES_NAMING[d], (guild_id, user_id, digits)),
                *await t.fetchall(_OPEN_TOURNAMENTS_NAMING[d], (guild_id, user_id, digits)),
            ]
            for (state,) in open_docs:
                try:
                    if mentions(json.loads(state), user_id):
                        return False
                except ValueError:
                    continue
            names = {str(r[0]) for r in await t.fetchall(_KNOWN_NAMES, (guild_id, user_id))}
            for deal_id, history in await t.fetchall(_CANDIDATE_DEALS, (guild_id, user_id)):
                clean = _rewrite(history, user_id, names, compact=False)
                if clean is not None:
                    await t.execute(_UPDATE_DEAL, (clean, deal_id))
            rows = await t.fetchall(_CLOSED_TABLES_NAMING[d], (guild_id, user_id, digits))
            for table_id, host_id, state in rows:
                clean = _rewrite(state, user_id, names, compact=True)
                await t.execute(
                    _UPDATE_TABLE,
                    (
                        0 if host_id == user_id else host_id,
                        state if clean is None else clean,
                        table_id,
                    ),
                )
            rows = await t.fetchall(_CLOSED_TOURNAMENTS_NAMING[d], (guild_id, user_id, digits))
            for tournament_id, organiser_id, state in rows:
                clean = _rewrite(state, user_id, names, compact=True)
                organiser = 0 if organiser_id == user_id else organiser_id
                await t.execute(
                    _UPDATE_TOURNAMENT,
                    (organiser, state if clean is None else clean, tournament_id),
                )
            for table_id, seq, event in await t.fetchall(_EVENTS_NAMING[d], (guild_id, digits)):
                clean = _rewrite(event, user_id, names, compact=False)
                if clean is not None:
                    await t.execute(_UPDATE_EVENT, (clean, table_id, seq))
            key = f"u{user_id}"
            for job_id, payload in await t.fetchall(_JOBS_NAMING[d], (guild_id, digits, key)):
                clean = _rewrite(payload, user_id, names, compact=False)
                if clean is not None:
                    await t.execute(_UPDATE_JOB, (clean, job_id))
            await _forget_in_tournaments(t, guild_id, user_id, names)
            for table in _SEAT_TABLES:
                await t.execute(_ANONYMISE.format(table=table), (DELETED_NAME, guild_id, user_id))
            for table in _PERSONAL_TABLES:
                await t.execute(_DELETE.format(table=table), (guild_id, user_id))
            return True


async def _forget_in_tournaments(t: Tx, guild_id: int, user_id: int, names: set[str]) -> None:
    """The tournament part of a forget-me, in its transaction: the user taken out of every
    tournament's event log and notes, and their final places' entrant keys renamed (the rows
    themselves are anonymised with the other seat tables)."""
    d, digits = t.dialect, str(user_id)
    rows = await t.fetchall(_TOURNAMENT_EVENTS_NAMING[d], (guild_id, digits))
    for tournament_id, seq, event in rows:
        clean = _rewrite(event, user_id, names, compact=False)
        if clean is not None:
            await t.execute(_UPDATE_TOURNAMENT_EVENT, (clean, tournament_id, seq))
    for outbox_id, payload in await t.fetchall(_TOURNAMENT_NOTES_NAMING[d], (guild_id, digits)):
        clean = _rewrite(payload, user_id, names, compact=True)
        if clean is not None:
            await t.execute(_UPDATE_TOURNAMENT_NOTE, (clean, outbox_id))
    for tournament_id, entrant in await t.fetchall(_THEIR_PLACES, (guild_id, user_id)):
        taken = {str(r[0]) for r in await t.fetchall(_PLACE_KEYS, (tournament_id,))}
        n = 1
        while f"{FORGOTTEN_KEY}.{n}" in taken:
            n += 1
        await t.execute(_RENAME_PLACE, (f"{FORGOTTEN_KEY}.{n}", tournament_id, entrant))
