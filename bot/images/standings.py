"""A tournament's standings as a picture a phone can read: a title, then one row a place (its
number large, the names, how far they got), the winner's row marked.

Like the other pictures it takes plain data and its words from the caller (`StandingsRow`s and
the captions, already in the viewer's language): nothing here knows a tournament, a table or
Discord. Names are drawn as the other pictures draw them (`layout.plain_name`: an AI entrant
keeps its robot mark, an emoji the fonts lack is left out rather than drawn as a box). Laid out
for a phone as the other pictures are: scaled to `PHONE_WIDTH` (360 px), the place numbers
(the picture's "ranks") are at least `MIN_RANK_PX` tall and every label's font at least
`MIN_LABEL_PX`; each label gets its room (`max_width`), measured with the painter's fonts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .layout import (
    MARGIN,
    MIN_LABEL_PX,
    MIN_RANK_PX,
    PHONE_WIDTH,
    Box,
    Label,
    Scene,
    plain_name,
    text_width,
)
from .paint import Picture, RenderedImage, draw

WIDTH = 600  # 360/600 = 0.6: the place numbers of 24 px are 14.4 px on a phone
PLACE_SIZE = 24
NAME_SIZE = 17
DETAIL_SIZE = 15
TITLE_SIZE = 22
ROW_HEIGHT = 44
PLACE_COLUMN = 64  # the place numbers are right-aligned in this many px
DETAIL_COLUMN = 130  # how far they got, on the right
MOST_ROWS = 24  # a longer field: the first rows, then "…"

assert PLACE_SIZE * PHONE_WIDTH / WIDTH >= MIN_RANK_PX
assert DETAIL_SIZE * PHONE_WIDTH / WIDTH >= MIN_LABEL_PX


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One place: its number (text, e.g. "1" or "5"), who holds it, a short detail."""

    place: str
    names: str
    detail: str = ""
    winner: bool = False


def standings_scene(title: str, heading: Sequence[str], rows: Sequence[StandingsRow]) -> Scene:
    """`heading`: the captions of the three columns (place, player, detail)."""
    shown = list(rows[:MOST_ROWS])
    more = len(rows) > MOST_ROWS
    top = MARGIN + TITLE_SIZE + 16
    head_y = top
    first = head_y + DETAIL_SIZE + 12
    height = first + ROW_HEIGHT * (len(shown) + (1 if more else 0)) + MARGIN
    inner = WIDTH - 2 * MARGIN
    name_x = MARGIN + PLACE_COLUMN + 14
    name_room = WIDTH - MARGIN - DETAIL_COLUMN - 10 - name_x
    labels = [
        Label(title, MARGIN, MARGIN, TITLE_SIZE, "gold", "la", inner),
        Label(heading[0], MARGIN + PLACE_COLUMN, head_y, DETAIL_SIZE, "muted", "ra", PLACE_COLUMN),
        Label(heading[1], name_x, head_y, DETAIL_SIZE, "muted", "la", name_room),
        Label(heading[2], WIDTH - MARGIN, head_y, DETAIL_SIZE, "muted", "ra", DETAIL_COLUMN),
    ]
    boxes: list[Box] = []
    for i, row in enumerate(shown):
        y = first + i * ROW_HEIGHT
        mid = y + ROW_HEIGHT // 2
        style = "row_win" if row.winner else "row"
        boxes.append(Box(MARGIN, y + 3, WIDTH - MARGIN, y + ROW_HEIGHT - 3, style, 8))
        labels.append(
            Label(
                row.place,
                MARGIN + PLACE_COLUMN - 6,
                mid,
                PLACE_SIZE,
                "gold" if row.winner else "ink",
                "rm",
                PLACE_COLUMN - 6,
            )
        )
        labels.append(
            Label(
                _fit(plain_name(row.names, "?"), NAME_SIZE, name_room),
                name_x,
                mid,
                NAME_SIZE,
                "name",
                "lm",
                name_room,
            )
        )
        if row.detail:
            detail = _fit(row.detail, DETAIL_SIZE, DETAIL_COLUMN)
            labels.append(
                Label(detail, WIDTH - MARGIN - 10, mid, DETAIL_SIZE, "muted", "rm", DETAIL_COLUMN)
            )
    if more:
        y = first + len(shown) * ROW_HEIGHT + ROW_HEIGHT // 2
        labels.append(Label("…", name_x, y, NAME_SIZE, "muted", "lm", name_room))
    return Scene(WIDTH, height, "felt", boxes=tuple(boxes), labels=tuple(labels))


def _fit(text: str, size: int, room: int) -> str:
    """`text` cut (with "…") to fit `room` px, measured as the painter draws it."""
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def standings_picture(
    title: str, heading: Sequence[str], rows: Sequence[StandingsRow], name: str
) -> Picture:
    return Picture(standings_scene(title, heading, rows), name)


def render_standings(
    title: str, heading: Sequence[str], rows: Sequence[StandingsRow], name: str
) -> RenderedImage:
    return draw(standings_picture(title, heading, rows, name))
