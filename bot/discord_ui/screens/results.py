"""The results of a deal: every hand revealed in its best arrangement, charges, standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.engine.events import WrongShow
from bot.engine.fairness import shown
from bot.engine.match import FinishedDeal
from bot.engine.rules import Rules
from bot.engine.settlement import Basis
from bot.engine.states import EndReason, OutReason, ScoreKind
from bot.table.model import Standing
from bot.words import Locale, text
from bot.words.cards import amount, hint_level_words, signed
from bot.words.results import (
    score_change,
    seat_lines,
    wrong_show_problems,
)

from ..clicks import Act, Click
from ..components import GameButton
from .colour import COLOUR
from .controls import view_of
from .replay import match_replay_button, replay_button

#: How a deal was won, by the engine's reason (anything else: "won").
END_IDS = {
    EndReason.DECLARED: "results-declared",
    EndReason.HAND_RUMMY: "results-hand-rummy",
    EndReason.LAST_STANDING: "results-last-standing",
}


def result_embed(
    finished: FinishedDeal,
    names: Sequence[str],
    standings: Sequence[str],
    match_over: bool,
    winners: Sequence[str],
    score: ScoreKind,
    wild_rank: int | None,
    rules: Rules | None = None,
    wrong_shows: Mapping[int, WrongShow] | None = None,
    table_id: str | None = None,
    timed_out: Mapping[int, int] | None = None,
    *,
    hints: str = "full",
    rated: bool = True,
    locale: Locale | None = None,
) -> discord.Embed:
    """The reveal: every hand in its best arrangement (wild cards marked, with what each one
    stands for), each charge with how it was reached, and the standings. The footer names the
    table (`results_key`): after a restart, that is how the bot finds results it already
    posted. It also says a hint level below full (the deal was played with less help) and,
    at the match's end, that it moved no rating when the server rates hint-free games only."""
    result = finished.result
    if result.void:
        head = text(locale, "results-void")
    else:
        winner = names[result.winner] if result.winner is not None else "?"
        head = text(locale, END_IDS.get(result.end, "results-won"), winner=winner)
    e = discord.Embed(
        title=text(locale, "results-title", deal=result.number), description=head, colour=COLOUR
    )
    for seat in sorted(finished.status):
        parts = seat_lines(finished, seat, wild_rank, (timed_out or {}).get(seat), locale)
        show = (wrong_shows or {}).get(seat)
        if show is not None and rules is not None:
            problems = "; ".join(wrong_show_problems(show, rules, wild_rank, locale))
            parts.insert(1, text(locale, "results-why", problems=problems))
        delta = result.deltas.get(seat, Fraction(0))
        title = f"{names[seat]} ({score_change(delta, score, locale)})" if delta else names[seat]
        e.add_field(name=title[:256], value=("\n".join(parts) or "—")[:1024], inline=False)
    e.add_field(
        name=text(locale, "results-standings"),
        value="\n".join(standings)[:1024] or "—",
        inline=False,
    )
    shuffle = finished.history.get("shuffle")
    if shuffle:
        name = text(locale, "results-shuffle")
        words = shuffle_text(shuffle, locale)
        if len(e) + len(name) + len(words) <= 6000 - 200:  # room left for the footer
            e.add_field(name=name, value=words, inline=False)
    footer = []
    if match_over:
        footer.append(
            text(locale, "results-match-over", winners=", ".join(winners))
            if winners
            else text(locale, "results-match-over-none")
        )
    if hints != "full":
        footer.append(text(locale, "results-hints", level=hint_level_words(hints, locale)[0]))
    if match_over and not rated:
        footer.append(text(locale, "results-unrated"))
    if table_id is not None:
        footer.append(results_key(table_id, locale))
    if footer:
        e.set_footer(text=" · ".join(footer)[:2048])
    return e


def next_deal_started(number: int, locale: Locale | None = None) -> str:
    """What an earlier deal's results say once the deal after them has begun (their "Next
    deal" button is gone by then)."""
    return text(locale, "results-next-started", deal=number)


def results_key(table_id: str, locale: Locale | None = None) -> str:
    """The mark a results message carries to say which table it belongs to (in the table's
    language: the bot looks for it in that language after a restart)."""
    return text(locale, "results-key", table=table_id)


OUT_REASONS: dict[OutReason, str] = {
    OutReason.FIRST_DROP: "out-first-drop",
    OutReason.MIDDLE_DROP: "out-middle-drop",
    OutReason.WRONG_SHOW: "out-wrong-show",
    OutReason.WRONG_SHOW_DROP: "out-wrong-show-drop",
}


#: The catalogue id of each basis a charge is reckoned on.
BASIS_IDS: dict[Basis, str] = {
    Basis.DEADWOOD: "basis-deadwood",
    Basis.FIRST_DROP: "basis-first-drop",
    Basis.MIDDLE_DROP: "basis-middle-drop",
    Basis.WRONG_SHOW: "basis-wrong-show",
    Basis.WRONG_SHOW_DROP: "basis-wrong-show-drop",
    Basis.HAND_RUMMY_DROPPED: "basis-hand-rummy-dropped",
}


def standings_lines(
    standings: Sequence[Standing], score: ScoreKind, locale: Locale | None = None
) -> list[str]:
    """Score lines, best first, in the match's own terms: net chips won or lost, or the
    penalty points a player has added up (pool and deals)."""

    lines = []
    for s in standings:
        mark = (
            text(locale, "standing-out")
            if s.out
            else text(locale, "standing-left")
            if s.left
            else ""
        )
        if s.winner:
            mark += " 🏆"
        if score is ScoreKind.NET:
            line = text(locale, "standing-chips", name=s.name, amount=signed(s.score), mark=mark)
        else:
            line = text(locale, "standing-points", name=s.name, amount=amount(s.score), mark=mark)
        lines.append(line)
    return lines


def shuffle_text(shuffle: Mapping[str, Any], locale: Locale | None = None) -> str:
    """The reveal of the deal's shuffle commitment: the secret salt, and how to check that the
    hand history's deck order is the one promised at the start."""
    return text(
        locale, "results-shuffle-text", hash=shown(shuffle["commitment"]), salt=shuffle["salt"]
    )


def review_button(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> GameButton:
    """ "Review my play": a private review of the clicking player's moves in that deal. The deal
    number rides in the id, so the button keeps working after the next deal has started."""
    return GameButton(
        Click(Act.REVIEW, table_id, version, deal=deal_number),
        label=text(locale, "button-review"),
        emoji="🔍",
    )


def history_button(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> GameButton:
    """ "Hand history": the deal's hand-history file, sent privately to a player of the deal
    (or a server manager) who presses it. It shows every hand, dropped ones too, so it is no
    longer attached to the public results for the whole channel."""
    return GameButton(
        Click(Act.HISTORY, table_id, version, deal=deal_number),
        label=text(locale, "button-history"),
        emoji="📄",
    )


def next_deal_view(
    table_id: str, version: int, deal_number: int | None = None, locale: Locale | None = None
) -> discord.ui.View:
    """A deal's results while the next deal waits: "Next deal" (carrying the deal's number,
    so a press after the next deal began is told so and counts for nothing) and the review."""
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            Click(Act.NEXT, table_id, version, deal=deal_number),
            label=text(locale, "button-next-deal"),
            style=discord.ButtonStyle.success,
        )
    ]
    if deal_number is not None:
        items.append(review_button(table_id, version, deal_number, locale))
        items.append(history_button(table_id, version, deal_number, locale))
        items.append(replay_button(table_id, version, deal_number, locale))
    return view_of(*items)


def past_results_view(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> discord.ui.View:
    """A deal's results once the next deal has begun (or the table closed): what looks back
    at the deal (its review, its hand history, its replay), no vote."""
    return view_of(
        review_button(table_id, version, deal_number, locale),
        history_button(table_id, version, deal_number, locale),
        replay_button(table_id, version, deal_number, locale),
    )


def results_view(
    table_id: str,
    version: int,
    deal_number: int,
    locale: Locale | None = None,
    *,
    again: bool = True,
) -> discord.ui.View:
    """The last deal of a match: its review, and "Play again" (a new lobby, same rules; not
    at a tournament's table, `again` False)."""
    play_again = GameButton(
        Click(Act.AGAIN, table_id, version),
        label=text(locale, "button-play-again"),
        style=discord.ButtonStyle.success,
    )
    return view_of(
        review_button(table_id, version, deal_number, locale),
        history_button(table_id, version, deal_number, locale),
        replay_button(table_id, version, deal_number, locale),
        match_replay_button(table_id, version, locale),
        *([play_again] if again else []),
    )
