"""What a tournament shows: its registration message (rules, count, Register / Unregister /
I'm here), a round's message (the commitment first, then each table and its standings, the
byes and why), the final standings with their picture, `/rummy tournament status`, and the
short texts of its notes. Public ones speak the tournament's language (`options.language`),
private ones the reader's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import discord

from bot.engine.match import ScoreKind
from bot.images.standings import StandingsRow
from bot.table import bracket
from bot.table.model import Table, TournamentSeat
from bot.table.tournament_model import Round, TableSlot, Tournament, TournamentStatus
from bot.words import Locale, text
from bot.words import tournament as words

from ..clicks import Act, Click
from ..components import GameButton
from .colour import COLOUR
from .controls import view_of
from .stats import signed

#: Names shown in the registration message before "…and N more".
SHOWN_NAMES = 40
#: An embed's description may hold 4096 characters; a round of many tables is cut before.
ROUND_ROOM = 3800
THREAD_NAME_MAX = 100


def footer_text(t: Tournament, locale: Locale | None) -> str:
    return text(locale, "tournament-footer", id=t.id)


# ---- the registration message ---------------------------------------------------------------


def register_embed(t: Tournament, locale: Locale | None) -> discord.Embed:
    embed = discord.Embed(title=text(locale, "tournament-title", name=t.options.name))
    embed.colour = COLOUR
    embed.description = "\n".join([*words.rules_lines(t, locale), "", words.state_line(t, locale)])
    entrants = t.registered
    marked = [f"{e.name} ✓" if e.checked_in and t.status.entering else e.name for e in entrants]
    embed.add_field(
        name=text(locale, "tournament-registered", count=len(entrants), cap=t.options.cap),
        value=words.names_line(marked, locale, SHOWN_NAMES)[:1024],
        inline=False,
    )
    if t.status is TournamentStatus.CHECK_IN:
        embed.add_field(
            name=text(locale, "tournament-checked-in", count=len(t.checked_in)),
            value="\u200b",
            inline=False,
        )
    embed.set_footer(text=footer_text(t, locale))
    return embed


def register_view(t: Tournament, locale: Locale | None) -> discord.ui.View | None:
    """Register / Unregister while entries are open, and I'm here during check-in."""
    if not t.status.entering:
        return None
    items: list[GameButton] = [
        GameButton(
            Click(Act.T_REGISTER, t.id, t.version),
            label=text(locale, "tournament-button-register"),
            style=discord.ButtonStyle.success,
        ),
        GameButton(
            Click(Act.T_UNREGISTER, t.id, t.version),
            label=text(locale, "tournament-button-unregister"),
        ),
    ]
    if t.status is TournamentStatus.CHECK_IN:
        items.append(
            GameButton(
                Click(Act.T_HERE, t.id, t.version),
                label=text(locale, "tournament-button-here"),
                style=discord.ButtonStyle.primary,
            )
        )
    return view_of(*items)


# ---- a round --------------------------------------------------------------------------------


def round_key(t: Tournament, number: int, locale: Locale | None) -> str:
    """The round message's footer: how a restarted bot finds it in the channel."""
    return text(locale, "tournament-round-footer", id=t.id, round=number)


def _score(value: Fraction, chips: bool, locale: Locale | None) -> str:
    return signed(value, locale) if chips else signed(-value, locale).lstrip("+")


def table_line(
    t: Tournament,
    r: Round,
    slot: TableSlot,
    table: Table | None,
    locale: Locale | None,
    thread: int | None = None,
) -> str:
    """One table: where it plays, each player and their score this round, its progress."""
    chips = t.options.format.chips
    scores: dict[str, Fraction] = {}
    progress = text(locale, "tournament-table-playing")
    if slot.results is not None:
        scores = {res.player: res.score for res in slot.results}
        progress = text(locale, "tournament-table-done")
    elif table is not None and table.match is not None:
        m = table.match
        net = m.score_kind is ScoreKind.NET
        scores = {p.id: (m.scores[s] if net else -m.scores[s]) for s, p in enumerate(m.players)}
        deals = t.options.deals
        if deals:
            shown = min(m.deal_number, deals)
            progress = text(locale, "tournament-table-deal", deal=shown, deals=deals)
    order = [r.player for r in bracket.rank(slot.results)] if slot.results else slot.seats
    players = []
    for key in order:
        mark = " ✓" if key in slot.advanced else ""
        score = f" {_score(scores[key], chips, locale)}" if key in scores else ""
        players.append(f"{t.name_of(key)}{score}{mark}")
    thread = thread or (table.thread_id if table is not None else None)
    where = f"<#{thread}>" if thread else ""
    line = text(
        locale, "tournament-table-line", number=slot.number, where=where, players=", ".join(players)
    )
    return f"{line} · {progress}"


def round_embed(
    t: Tournament,
    r: Round,
    tables: Mapping[str, Table],
    locale: Locale | None,
    threads: Mapping[str, int] | None = None,
) -> discord.Embed:
    """The round's one message: the commitment (posted before anything of the seating is
    shown), every table as it plays, the byes and why; once the round is over, who went
    through and the salt."""
    title = "tournament-final-title" if r.final else "tournament-round-title"
    embed = discord.Embed(title=text(locale, title, name=t.options.name, round=r.number))
    embed.colour = COLOUR
    lines = [
        text(
            locale,
            "tournament-commitment",
            commitment=r.commitment,
            scheme=bracket.SEATING_SCHEME,
            round=r.number,
        ),
        "",
    ]
    for slot in r.tables:
        thread = (threads or {}).get(slot.table_id)
        line = table_line(t, r, slot, tables.get(slot.table_id), locale, thread)
        if sum(len(x) + 1 for x in lines) + len(line) > ROUND_ROOM:
            lines.append(text(locale, "tournament-and-more", count=len(r.tables) - slot.number + 1))
            break
        lines.append(line)
    embed.description = "\n".join(lines)
    if r.byes:
        names = words.names_line([t.name_of(k) for k in r.byes], locale)
        value = f"{names}\n{words.bye_reason(t, r, locale)}"
        embed.add_field(name=text(locale, "tournament-byes"), value=value[:1024])
    if r.done:
        if not r.final:
            through = [k for s in r.tables for k in s.advanced] + r.byes
            names = words.names_line([t.name_of(k) for k in through], locale, 60)
            embed.add_field(
                name=text(locale, "tournament-through"), value=names[:1024], inline=False
            )
        draw = " ".join(r.draw)
        revealed = text(locale, "tournament-revealed", salt=r.salt, draw=draw)
        if len(revealed) > 1024:  # a big field: the draw is in the record
            revealed = text(locale, "tournament-revealed-record", salt=r.salt)
        embed.add_field(name="🔓", value=revealed, inline=False)
    embed.set_footer(text=round_key(t, r.number, locale))
    return embed


# ---- the end ---------------------------------------------------------------------------------


def place_rows(t: Tournament) -> list[tuple[int, list[str], int]]:
    """(place, names, the round they went out in) from best to last; a shared place once."""
    by_place: dict[int, list[str]] = {}
    for key, place in sorted(t.places.items(), key=lambda kv: (kv[1], t.name_of(kv[0]))):
        by_place.setdefault(place, []).append(key)
    out = []
    for place, keys in by_place.items():
        last = max((r.number for r in t.rounds if keys[0] in r.players), default=0)
        out.append((place, [t.name_of(k) for k in keys], last))
    return out


def final_embed(t: Tournament, locale: Locale | None, picture: str | None) -> discord.Embed:
    embed = discord.Embed(title=text(locale, "tournament-final-standings", name=t.options.name))
    embed.colour = COLOUR
    winner = t.name_of(t.winner) if t.winner else "?"
    lines = [text(locale, "tournament-winner", winner=winner, name=t.options.name), ""]
    for place, names, last in place_rows(t):
        if len(names) == 1:
            lines.append(text(locale, "tournament-place-line", place=place, name=names[0]))
        else:
            joined = words.names_line(names, locale, 12)
            lines.append(
                text(locale, "tournament-place-shared", place=place, names=joined, round=last)
            )
    embed.description = "\n".join(lines)[:4000]
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    embed.set_footer(text=footer_text(t, locale))
    return embed


def picture_rows(t: Tournament) -> list[StandingsRow]:
    return [
        StandingsRow(str(place), ", ".join(names), str(last), winner=place == 1)
        for place, names, last in place_rows(t)
    ]


def picture_words(t: Tournament, locale: Locale | None) -> tuple[str, tuple[str, str, str]]:
    """The picture's title and column captions."""
    heading = (
        text(locale, "tournament-picture-place"),
        text(locale, "tournament-picture-player"),
        text(locale, "tournament-picture-rounds"),
    )
    return text(locale, "tournament-picture-title", name=t.options.name), heading


def picture_alt(locale: Locale | None) -> str:
    return text(locale, "tournament-picture")


# ---- status ----------------------------------------------------------------------------------


def status_embed(
    t: Tournament, tables: Mapping[str, Table], locale: Locale | None
) -> discord.Embed:
    """`/rummy tournament status`, public: the state, and the round's standings."""
    r = t.current
    if t.status is TournamentStatus.FINISHED:
        return final_embed(t, locale, None)
    if r is None:
        return register_embed(t, locale)
    embed = round_embed(t, r, tables, locale)
    embed.title = text(locale, "tournament-status-title", name=t.options.name)
    count = text(locale, "tournament-status-entrants", count=len(t.checked_in))
    embed.description = f"{words.state_line(t, locale)} · {count}\n\n{embed.description}"
    return embed


def _place_at(slot: TableSlot, table: Table | None, key: str) -> int | None:
    if table is None or table.match is None:
        return None
    m = table.match
    net = m.score_kind is ScoreKind.NET
    order = sorted(range(len(m.players)), key=lambda s: -m.scores[s] if net else m.scores[s])
    keys = [m.players[s].id for s in order if m.players[s].id not in slot.fillers]
    return keys.index(key) + 1 if key in keys else None


def own_text(
    t: Tournament, user_id: int, tables: Mapping[str, Table], locale: Locale | None
) -> str:
    """`/rummy tournament status`, private: the asker's own table and place."""
    entrant = t.entrant_of(user_id)
    if entrant is None or entrant.removed:
        return text(locale, "tournament-own-none")
    if t.status.entering:
        return text(locale, "tournament-own-registered", here="yes" if entrant.checked_in else "no")
    if entrant.key in t.places:
        players = len(t.places)
        return text(locale, "tournament-own-place", place=t.places[entrant.key], players=players)
    r = t.current
    if r is None or not any(entrant.key in x.players for x in t.rounds):
        return text(locale, "tournament-own-left-out")
    if entrant.key not in r.players:
        return text(locale, "tournament-own-out")
    if entrant.key in r.byes:
        return text(locale, "tournament-own-bye", round=r.number)
    slot = r.table_of(entrant.key)
    if slot is None or (slot.done and entrant.key not in slot.advanced):
        return text(locale, "tournament-own-out")
    if slot.done:
        return text(locale, "tournament-own-waiting")
    table = tables.get(slot.table_id)
    where = f"<#{table.thread_id}>" if table is not None and table.thread_id else "—"
    place = _place_at(slot, table, entrant.key) or 1
    seats = len(slot.seats) - len(slot.fillers)
    return text(
        locale, "tournament-own-table", number=slot.number, round=r.number, where=where,
        place=place, seats=seats,
    )  # fmt: skip


# ---- a round's tables in their threads ------------------------------------------------------


def starter_text(t: Tournament, seat: TournamentSeat, locale: Locale | None) -> str:
    """The message a table's thread is opened from, in the tournament's channel."""
    slot = _slot(t, seat)
    names = ", ".join(t.name_of(k) for k in slot.seats) if slot is not None else ""
    return text(
        locale, "tournament-starter", name=t.options.name, round=seat.round, number=seat.number,
        players=names,
    )[:2000]  # fmt: skip


def thread_title(t: Tournament, seat: TournamentSeat, locale: Locale | None) -> str:
    said = text(
        locale, "tournament-thread", round=seat.round, number=seat.number, name=t.options.name
    )
    return said[:THREAD_NAME_MAX]


def ping_text(t: Tournament, seat: TournamentSeat, locale: Locale | None) -> str | None:
    """The first message in a table's thread: its people pinged there (None: only AI)."""
    slot = _slot(t, seat)
    if slot is None:
        return None
    users = [e.user_id for k in slot.seats if (e := t.entrant(k)) is not None and e.user_id]
    if not users:
        return None
    mentions = " ".join(f"<@{u}>" for u in users)
    return text(locale, "tournament-table-ping", mentions=mentions, round=seat.round)[:2000]


def _slot(t: Tournament, seat: TournamentSeat) -> TableSlot | None:
    if not 1 <= seat.round <= len(t.rounds):
        return None
    r = t.rounds[seat.round - 1]
    return next((s for s in r.tables if s.number == seat.number), None)


# ---- private answers -------------------------------------------------------------------------


def registered_text(t: Tournament, count: int, here: bool, locale: Locale | None) -> str:
    if here:
        return text(locale, "tournament-done-registered-here", name=t.options.name)
    return text(locale, "tournament-done-registered", name=t.options.name, count=count)


def checked_in_text(t: Tournament, already: bool, locale: Locale | None) -> str:
    if already:
        return text(locale, "tournament-done-already-checked-in")
    return text(locale, "tournament-done-checked-in", start=words.stamp(t.options.start_at))


def done_text(what: str, locale: Locale | None, **facts: Any) -> str:
    """A tool's confirmation (`what`: one of `DONE_IDS`)."""
    if "start" in facts:
        facts["start"] = words.stamp(float(facts["start"]))
    return text(locale, DONE_IDS[what], **facts)


DONE_IDS = {
    "unregistered": "tournament-done-unregistered",
    "started": "tournament-done-started",
    "delayed": "tournament-done-delayed",
    "paused": "tournament-done-paused",
    "resumed": "tournament-done-resumed",
    "removed": "tournament-done-removed",
    "cancelled": "tournament-done-cancelled",
    "added_ai": "tournament-done-added-ai",
}


# ---- the record ------------------------------------------------------------------------------


def record_json(t: Tournament) -> str:
    """The tournament's record: options, every round's commitment and (once over) its draw and
    salt, tables, results and who went through, and the places: enough to check each seating
    against its commitment and the stated rule (`bot.table.bracket.verify`)."""
    rounds: list[dict[str, Any]] = []
    for r in t.rounds:
        entry: dict[str, Any] = {
            "number": r.number,
            "final": r.final,
            "commitment": r.commitment,
            "tables": [
                {
                    "number": s.number,
                    "table": s.table_id,
                    "seats": s.seats,
                    "fillers": list(s.fillers),
                    "scores": {x.player: str(x.score) for x in s.results or []},
                    "advanced": s.advanced,
                }
                for s in r.tables
            ],
            "byes": r.byes,
        }
        if r.done:  # the salt and the draw are revealed once the round is over
            entry.update(draw=r.draw, salt=r.salt, text=bracket.commitment_text(r.number, r.salt,
                                                                              r.draw))  # fmt: skip
        rounds.append(entry)
    record = {
        "tournament": t.id,
        "name": t.options.name,
        "status": t.status.value,
        "options": t.options.to_dict(),
        # Who played (everyone seated in round 1); before the start, who is registered.
        "players": {k: t.name_of(k) for k in t.rounds[0].players}
        if t.rounds
        else {e.key: e.name for e in t.registered},
        "rounds": rounds,
        "places": t.places,
        "winner": t.winner,
    }
    return json.dumps(record, ensure_ascii=False, indent=1, default=str)


def record_caption(t: Tournament, locale: Locale | None) -> str:
    return text(locale, "tournament-record-caption", name=t.options.name)
