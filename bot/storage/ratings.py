"""openskill (PlackettLuce) rating maths as pure functions: no SQL, no I/O, no clock.

Why separate: the rules of rating (who is rated, how places become ranks, how a
replay orders matches) are the part of storage most worth testing on its own, and a
second database backend must reuse them unchanged. The SQL that loads and stores
ratings lives in :mod:`bot.storage.summaries`; it only calls into this module.

Invariants:

* Only humans are rated, and a match moves ratings only when at least
  :data:`MIN_RATED_HUMANS` took part (beating AI seats says nothing about skill
  relative to other players). The humans are ranked among themselves by their places;
  equal places are a tie.
* ``ordinal`` (openskill's ``mu - 3*sigma``) is the displayed value; it is computed by
  openskill itself so stored ordinals match the library bit for bit.
* A skill is fully described by ``(mu, sigma)``: rebuilding it from stored floats gives
  exactly the numbers the incremental path produced, so a replay and the incremental
  updates agree whenever they rate matches in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

__all__ = [
    "MIN_RATED_HUMANS",
    "RatedMatch",
    "RatingChange",
    "Skill",
    "Standing",
    "default_skill",
    "is_rated",
    "rate_places",
    "replay",
    "skill",
]

#: Fewer humans than this in a match: nothing to learn, ratings do not move.
MIN_RATED_HUMANS: Final = 2

_MODEL: Final = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one scope: openskill ``mu``/``sigma`` and the ordinal."""

    mu: float
    sigma: float
    ordinal: float


def skill(mu: float, sigma: float) -> Skill:
    """The Skill for stored ``mu``/``sigma`` (ordinal computed by openskill)."""
    return Skill(mu, sigma, _MODEL.rating(mu=mu, sigma=sigma).ordinal())


def default_skill() -> Skill:
    """The rating of a player who has never been rated (openskill's default)."""
    rating = _MODEL.rating()
    return Skill(rating.mu, rating.sigma, rating.ordinal())


def is_rated(humans: int) -> bool:
    """Whether a match with this many human seats moves ratings."""
    return humans >= MIN_RATED_HUMANS


def rate_places(before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills of players who finished at ``places`` (1 = best, equal = tie),
    in the order given. Needs at least :data:`MIN_RATED_HUMANS` players."""
    if len(before) != len(places):
        raise ValueError("one place per player")
    if not is_rated(len(before)):
        raise ValueError(f"a rated match needs at least {MIN_RATED_HUMANS} players")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    new = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team.mu, team.sigma, team.ordinal()) for (team,) in new]


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match as the rating replay sees it: its human seats as
    ``(user_id, place)`` in seat order, and the scopes it counts for (its profile
    and the all-profiles scope)."""

    match_id: str
    scopes: tuple[str, ...]
    finished_at: int
    humans: Sequence[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's current rating in one scope after a replay."""

    skill: Skill
    matches: int
    last_played_at: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One rating-history entry: the skill after ``match_id`` and the ordinal before."""

    scope: str
    user_id: int
    match_id: str
    skill: Skill
    ordinal_before: float
    rated_at: int


def replay(
    matches: Iterable[RatedMatch],
) -> tuple[dict[tuple[str, int], Standing], list[RatingChange]]:
    """Rate ``matches`` from scratch in the order given. Returns every rated
    player's final standing keyed by ``(scope, user_id)`` and the history entries
    in the order they happened (scope by scope within a match, seat order within a
    scope). Matches with fewer than two humans are skipped entirely."""
    state: dict[tuple[str, int], Standing] = {}
    history: list[RatingChange] = []
    for m in matches:
        if not is_rated(len(m.humans)):
            continue
        places = [place for _user, place in m.humans]
        for scope in m.scopes:
            old = [state.get((scope, user)) for user, _place in m.humans]
            before = [default_skill() if o is None else o.skill for o in old]
            after = rate_places(before, places)
            for (user, _place), o, b, a in zip(m.humans, old, before, after, strict=True):
                played = 0 if o is None else o.matches
                state[(scope, user)] = Standing(a, played + 1, m.finished_at)
                history.append(RatingChange(scope, user, m.match_id, a, b.ordinal, m.finished_at))
    return state, history
