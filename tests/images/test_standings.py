"""The tournament standings picture: readable on a phone, every label in its room, drawn."""

from __future__ import annotations

from bot.images import layout
from bot.images.standings import (
    MOST_ROWS,
    StandingsRow,
    render_standings,
    standings_scene,
)

HEADING = ("Place", "Player", "Rounds")


def rows(n: int) -> list[StandingsRow]:
    out = [StandingsRow("1", "Aarav Sharma", "4", winner=True)]
    out += [StandingsRow(str(i + 1), f"player number {i}", "3") for i in range(1, n)]
    out.append(StandingsRow("21", "रोहन, a very long list of names " * 4, "1"))
    return out


def test_the_standings_are_readable_on_a_phone_and_fit() -> None:
    scene = standings_scene("Saturday night — final standings", HEADING, rows(12))
    scale = layout.PHONE_WIDTH / scene.width
    places = [lb for lb in scene.labels if lb.anchor == "rm" and lb.size >= 20]
    assert len(places) == 13
    assert all(lb.size * scale >= layout.MIN_RANK_PX for lb in places)
    assert all(lb.size * scale >= layout.MIN_LABEL_PX for lb in scene.labels)
    for lb in scene.labels:
        assert lb.max_width is not None
        assert layout.text_width(lb.text, lb.size) <= lb.max_width, lb
    assert scene.boxes[0].style == "row_win" and scene.boxes[1].style == "row"


def test_a_long_field_is_cut_and_still_drawn() -> None:
    scene = standings_scene("Big night", HEADING, rows(60))
    assert len(scene.boxes) == MOST_ROWS and scene.labels[-1].text == "…"
    image = render_standings("Big night", HEADING, rows(60), "standings-x")
    assert image.data.startswith(b"\x89PNG") and image.width == scene.width
