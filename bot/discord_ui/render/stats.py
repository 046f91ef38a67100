"""Rendering for leaderboards, player stats, deal history and server settings.

Pure functions: they take rows the storage layer already computed and return embeds or strings,
so the cog stays a thin parse-call-render layer and every wording choice is unit-testable
without Discord. Money is exact (`fractions.Fraction`) and goes through `render.text.amount`, the
same formatter the game uses, so a 7½ on the results screen is a 7½ on the leaderboard too.

Names come from storage (the name the player had at their last recorded deal) rather than
mentions: they read the same for people who have since left the server, and they never ping.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.engine.rules import PROFILES
from bot.engine.states import ScoreKind
from bot.storage import (
    DealHistoryRow,
    GuildSettings,
    LeaderboardRow,
    PlayerRank,
    PlayerStats,
    ProfileStats,
    RatingInfo,
    RatingPoint,
)
from bot.table import league

from .results import score_change
from .text import COLOUR, HINT_WORDS, amount, hints_note, signed

#: Players on one leaderboard page; ten lines keep the embed readable on a phone.
PAGE_SIZE = 10
#: Deals a player needs in the period to be ranked by win rate (one lucky deal is not a rate).
WIN_RATE_MIN_GAMES = league.WIN_RATE_MIN_GAMES  # the rule lives with the league service
#: Longest player name shown; Discord names can be 32 chars of display name plus decorations.
NAME_WIDTH = 24

PROFILE_NAMES = tuple(PROFILES)  # the engine's presets, in their table order
SORT_LABELS: dict[str, str] = {
    "rating": "Rating",
    "matches_won": "Matches won",
    "deals_won": "Deals won",
    "net_chips": "Net chips",
    "win_rate": "Win rate",
}
PERIOD_LABELS: dict[str, str] = {"all": "all time", "30d": "last 30 days", "7d": "last 7 days"}
OUTCOME_LABELS: dict[str, str] = {
    "won": "won",
    "lost": "lost",
    "dropped_first": "dropped (first)",
    "dropped_middle": "dropped (middle)",
    "invalid_declaration": "wrong show",
    "void": "void",
}
_SPARK = "▁▂▃▄▅▆▇█"


def profile_label(profile: str | None) -> str:
    """``None`` is the all-profiles board; say so instead of showing nothing."""
    return "all profiles" if profile is None else profile


def display_name(name: str) -> str:
    """A stored name made safe for an embed: markdown escaped (a name like ``**x**`` must not
    restyle the board), shortened, and never empty (a name can be missing for old rows)."""
    name = name.strip() or "(unknown)"
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    return discord.utils.escape_markdown(name)


def board_value(sort: str, value: float | int | Fraction) -> str:
    """The number a board is sorted by, in the unit people expect for it."""
    if sort == "rating":
        return f"{float(value):.1f}"
    if sort == "win_rate":
        return f"{float(value) * 100:.1f}%"
    if sort == "net_chips":
        return signed(Fraction(value))
    return str(int(value))


def games_unit(sort: str, games: int) -> str:
    """What ``games`` counts on this board (see `LeaderboardRow`), pluralised."""
    if sort == "rating":
        noun = "rated match"
    elif sort == "matches_won":
        noun = "match"
    else:
        noun = "deal"
    if games != 1:
        noun += "es" if noun.endswith("match") else "s"
    return f"{games} {noun}"


def board_title(profile: str | None, sort: str, period: str) -> str:
    return f"Leaderboard — {SORT_LABELS[sort]} · {profile_label(profile)} · {PERIOD_LABELS[period]}"


def board_line(row: LeaderboardRow | PlayerRank, sort: str, *, me: bool = False) -> str:
    line = (
        f"**{row.rank}.** {display_name(row.name)} — {board_value(sort, row.value)}"
        f" ({games_unit(sort, row.games)})"
    )
    return f"{line} ◀ you" if me else line


def own_rank_line(own: PlayerRank | None, sort: str) -> str:
    """The caller's line, shown even when their rank is on another page."""
    if own is None:
        if sort == "win_rate":
            return f"You are not ranked here yet (needs {WIN_RATE_MIN_GAMES} deals in the period)."
        return "You are not on this board yet: play a game to get ranked."
    return (
        f"**#{own.rank}** of {own.total} — {board_value(sort, own.value)}"
        f" ({games_unit(sort, own.games)})"
    )


def leaderboard_embed(
    rows: Sequence[LeaderboardRow],
    *,
    profile: str | None,
    sort: str,
    period: str,
    page: int,
    own: PlayerRank | None,
    owner_id: int,
) -> discord.Embed:
    """One page of a board plus the caller's own rank line (in a field, so it stays visible
    whichever page is shown)."""
    if rows:
        lines = [board_line(r, sort, me=r.user_id == owner_id) for r in rows]
        description = "\n".join(lines)
    elif page == 0:
        description = "Nobody is ranked here yet."
    else:
        description = "No players on this page."
    embed = discord.Embed(
        title=board_title(profile, sort, period), description=description, colour=COLOUR
    )
    embed.add_field(name="Your rank", value=own_rank_line(own, sort), inline=False)
    footer = f"Page {page + 1}"
    if own is not None:
        pages = max(1, -(-own.total // PAGE_SIZE))
        footer += f" of {pages}"
    if sort == "win_rate":
        footer += f" · at least {WIN_RATE_MIN_GAMES} deals"
    if sort == "rating":
        footer += " · rating = μ − 3σ (openskill)"
    embed.set_footer(text=footer)
    return embed


# ---- stats ---------------------------------------------------------------------------------


def sparkline(values: Sequence[float]) -> str:
    """A one-line trend (▁▂▅█) of the last ratings; flat input gives a flat line."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        return _SPARK[3] * len(values)
    top = len(_SPARK) - 1
    return "".join(_SPARK[round((v - lo) / (hi - lo) * top)] for v in values)


def trend_text(trend: float | None) -> str:
    if trend is None:
        return ""
    if abs(trend) < 0.05:
        return " (steady)"
    arrow = "▲" if trend > 0 else "▼"
    return f" ({arrow} {abs(trend):.1f} recently)"


def rating_text(rating: RatingInfo | None, trend: float | None = None) -> str:
    if rating is None:
        return "unrated"
    plural = "match" if rating.matches == 1 else "matches"
    return (
        f"{rating.ordinal:.1f}{trend_text(trend)} · μ {rating.mu:.1f}, σ {rating.sigma:.1f}"
        f" · {rating.matches} rated {plural}"
    )


def win_pct(won: int, played: int) -> str:
    return f"{won * 100 / played:.0f}%" if played else "—"


def profile_field(p: ProfileStats) -> str:
    """One profile's numbers; kept well under the 1024-char field limit."""
    lines = [
        f"Matches: {p.matches_played} played, {p.matches_won} won"
        f" ({win_pct(p.matches_won, p.matches_played)})",
        f"Deals: {p.deals_played} played, {p.deals_won} won"
        f" ({win_pct(p.deals_won, p.deals_played)})",
    ]
    if p.avg_penalty_when_losing is not None:
        lines.append(f"Avg penalty when losing: {amount(_round_half(p.avg_penalty_when_losing))}")
    lines.append(
        f"Drops: {p.drops_first} first, {p.drops_middle} middle"
        f" · wrong shows: {p.invalid_declarations}"
    )
    if p.best_deal is not None and p.worst_deal is not None:
        lines.append(f"Best deal {signed(p.best_deal)} · worst deal {signed(p.worst_deal)}")
    lines.append(f"Net chips: {signed(p.net)}")
    lines.append(f"Rating: {rating_text(p.rating, p.rating_trend)}")
    return "\n".join(lines)


def _round_half(x: Fraction) -> Fraction:
    """Averages are the one place an exact fraction would read badly (e.g. 193/7), so show
    them to the nearest half, which `amount` prints as 27½. Totals are never rounded."""
    if x.denominator in (1, 2):
        return x
    return Fraction(round(x * 2), 2)


def stats_embed(name: str, stats: PlayerStats, trend: Sequence[RatingPoint] = ()) -> discord.Embed:
    """A player's card: overall rating (with a sparkline of recent changes) and one field per
    profile played, most played first."""
    embed = discord.Embed(title=f"Rummy stats — {display_name(name)}", colour=COLOUR)
    desc = [f"Overall rating: {rating_text(stats.overall_rating)}"]
    if len(trend) >= 2:
        desc.append(f"Trend: {sparkline([p.ordinal for p in trend])}")
    if not stats.profiles:
        desc.append("No games recorded in this server yet.")
    embed.description = "\n".join(desc)
    ordered = sorted(
        stats.profiles.values(), key=lambda p: (-p.deals_played - p.matches_played, p.profile)
    )
    for p in ordered[:24]:
        embed.add_field(name=p.profile, value=profile_field(p), inline=False)
    return embed


# ---- history -------------------------------------------------------------------------------


def utc_time(ts: int) -> str:
    """Plain UTC time for places Discord does not render ``<t:…>`` (select descriptions)."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def deal_title(row: DealHistoryRow) -> str:
    return f"{row.profile} · table {row.match_id} · deal {row.deal_no}"


def deal_score(row: DealHistoryRow) -> str:
    """The deal's effect in its own kind of score, worded as on the results message: chips
    are won or lost; pool and deals points are added to a total."""
    if row.outcome == "void":
        return ""
    chips = row.profile not in PROFILES or PROFILES[row.profile].chips
    kind = ScoreKind.NET if chips else ScoreKind.PENALTY
    delta = row.net if chips else -row.net  # storage keeps penalty points as a negative net
    return " " + score_change(delta, kind) if delta else " ±0"


def history_line(row: DealHistoryRow) -> str:
    result = OUTCOME_LABELS.get(row.outcome, row.outcome)
    net = deal_score(row)
    return f"<t:{row.finished_at}:f> — {deal_title(row)} — **{result}**{net}{hints_note(row.hints)}"


def history_embed(name: str, rows: Sequence[DealHistoryRow]) -> discord.Embed:
    embed = discord.Embed(title=f"Recent deals — {display_name(name)}", colour=COLOUR)
    if rows:
        embed.description = "\n".join(history_line(r) for r in rows)
        embed.set_footer(text="Pick a deal below to download its hand history (JSON).")
    else:
        embed.description = "No deals recorded in this server yet."
    return embed


def deal_option_value(row: DealHistoryRow) -> str:
    """``deal_id:match_id:deal_no``: the id opens the hand history, the other two name the
    downloaded file, so the click needs no extra lookup (≤ 100 chars: table ids are short)."""
    return f"{row.deal_id}:{row.match_id}:{row.deal_no}"[:100]


def parse_deal_option(value: str) -> tuple[int, str, int] | None:
    """Inverse of `deal_option_value`; None for anything else."""
    m = re.fullmatch(r"(\d{1,19}):(.{0,80}):(\d{1,6})", value)
    if m is None:
        return None
    return int(m[1]), m[2], int(m[3])


def history_option(row: DealHistoryRow) -> discord.SelectOption:
    """A menu entry for downloading one deal (labels ≤ 100, descriptions ≤ 100 chars)."""
    result = OUTCOME_LABELS.get(row.outcome, row.outcome)
    net = deal_score(row)
    return discord.SelectOption(
        label=deal_title(row)[:100],
        value=deal_option_value(row),
        description=f"{result}{net} · {utc_time(row.finished_at)}"[:100],
    )


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def hand_history_caption(match_id: str, deal_no: int) -> str:
    """The private message a hand-history file comes with."""
    return f"Hand history of table {match_id}, deal {deal_no}."


def hand_history_filename(match_id: str, deal_no: int) -> str:
    """A safe attachment name: ids come from storage, but a filename must never carry a path
    separator or spaces whatever an id looks like."""
    safe = _UNSAFE.sub("_", match_id).strip("_") or "table"
    return f"hand-history-{safe[:40]}-deal{deal_no}.json"


# ---- settings ------------------------------------------------------------------------------


def channels_text(allowed: frozenset[int] | None) -> str:
    if allowed is None:
        return "every channel"
    return ", ".join(f"<#{c}>" for c in sorted(allowed))


def settings_embed(settings: GuildSettings, changes: Sequence[str] = ()) -> discord.Embed:
    embed = discord.Embed(title="Rummy settings for this server", colour=COLOUR)
    if changes:
        embed.description = "\n".join(f"✓ {c}" for c in changes)
    embed.add_field(name="Default profile", value=settings.default_profile, inline=True)
    embed.add_field(name="Turn timer", value=f"{settings.turn_timer} s", inline=True)
    embed.add_field(
        name="Tables may open in",
        value=channels_text(settings.allowed_channel_ids)[:1024],
        inline=False,
    )
    embed.add_field(
        name="Card images",
        value="on (players may pick text only for their own hand)"
        if settings.card_images
        else "off: text only (players may turn them on for their own hand)",
        inline=False,
    )
    embed.add_field(
        name="Hints",
        value=f"{settings.hints} at new tables ({HINT_WORDS.get(settings.hints, '')})"
        + (
            "\nRated games: hints off only; a table with hints is played unrated"
            if settings.rated_hints_off
            else "\nRated games: any hint level"
        ),
        inline=False,
    )
    embed.add_field(
        name="Tables play",
        value="in their own thread (the lobby stays in the channel)"
        if settings.table_threads
        else "in the channel",
        inline=False,
    )
    embed.set_footer(text="Change with /rummy settings options (Manage Server only).")
    return embed


HISTORY_NOT_OFFERED = "Pick a deal from the menu."

FORGET_PROMPT = (
    "This deletes **your** rummy stats, ratings and rating history in this server, and takes "
    "your name and Discord id out of everything the bot has stored about past games: results, "
    "hand-history files, saved tables and their logs. Other players' results stay, with you "
    "shown as “forgotten player”. It cannot be undone. Messages already posted in channels "
    "are not changed. If you are in a game that is still running here, finish it first."
)
FORGET_DONE = (
    "Done: your stats, ratings and rating history in this server are deleted, and your name "
    "and id are gone from the bot's stored results, hand histories and tables."
)
FORGET_PLAYING = (
    "Nothing was deleted: you are in a game that is still running in this server. "
    "Run /rummy forget-me again once it has ended."
)
FORGET_CANCELLED = "Cancelled: nothing was deleted."
FORGET_EXPIRED = "That confirmation expired; nothing was deleted. Run /rummy forget-me again."


def setting_changed_text(what: str, value: object) -> str:
    """One line of what a settings change did (facts from `bot.table.league`)."""
    if what == "default_profile":
        return f"Default profile: {value}"
    if what == "turn_timer":
        return f"Turn timer: {value} s"
    if what == "all_channels":
        return "Tables may open in every channel"
    if what == "allowed":
        return f"Tables may open in <#{value}>"
    if what == "removed":
        return f"Tables no longer open in <#{value}>"
    if what == "card_images":
        return "Card images: " + ("on" if value else "off (text only)")
    if what == "hints":
        return f"Hints at new tables: {value} ({HINT_WORDS.get(str(value), value)})"
    if what == "rated_hints_off":
        return (
            "Rated games: hints off only (a table with hints is played unrated)"
            if value
            else "Rated games: any hint level"
        )
    if what == "table_threads":
        return "Tables play " + ("in their own thread" if value else "in the channel")
    return f"{what}: {value}"
