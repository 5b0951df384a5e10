"""One small function per tiebreaker (タイブレーク), chosen by ``ruleset.standings.tiebreakers``.

Each returns, per entrant, an exact value where larger is better, as ``Fraction`` (or int). To keep
4,096-player standings fast, percentages are computed as integer numerators over one common
denominator and turned into ``Fraction`` once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from taikai.core.rng import SeededRandom
from taikai.core.ruleset import Ruleset


@dataclass(frozen=True)
class Record:
    """One entrant's results; ``opponents`` are real opponents only (byes are not opponents)."""

    points: int
    matches: int  # byes included
    opponents: tuple[int, ...]


Values = list[Fraction] | list[int]


def match_points(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> list[int]:
    return [r.points for r in records]


def match_win_rates(records: Sequence[Record], ruleset: Ruleset) -> list[Fraction]:
    """Each entrant's match points / (win points x matches played, byes included), floored."""
    floor = ruleset.standings.omw_floor
    win = ruleset.scoring.win
    return [max(floor, Fraction(r.points, win * r.matches) if r.matches else Fraction(0)) for r in records]


def omw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> list[Fraction]:
    """OMW%: the mean over real opponents of their floored match-win rate (0 with no opponents)."""
    num, den = _omw_parts(records, ruleset)
    return [Fraction(n, d) for n, d in zip(num, den, strict=True)]


def oomw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> list[Fraction]:
    """OOMW%: the mean over real opponents of their OMW%."""
    num, den = _omw_parts(records, ruleset)
    common = lcm(*den)
    scaled = [n * (common // d) for n, d in zip(num, den, strict=True)]
    return [Fraction(sum(scaled[o] for o in r.opponents), common * max(len(r.opponents), 1)) for r in records]


def random_draw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> list[int]:
    """A seeded draw, recorded with the event: never the player ID (larger = better here)."""
    order = list(range(len(records)))
    SeededRandom(seed).shuffle(order)
    value = [0] * len(records)
    for position, entrant in enumerate(order):
        value[entrant] = len(records) - position
    return value


def _omw_parts(records: Sequence[Record], ruleset: Ruleset) -> tuple[list[int], list[int]]:
    """OMW% as (numerator, denominator) pairs over one common denominator, in integers."""
    win = ruleset.scoring.win
    floor = ruleset.standings.omw_floor
    common = lcm(floor.denominator, *(win * r.matches for r in records if r.matches))
    floor_num = floor.numerator * (common // floor.denominator)
    rate = [max(floor_num, r.points * (common // (win * r.matches)) if r.matches else 0) for r in records]
    num = [sum(rate[o] for o in r.opponents) for r in records]
    den = [common * max(len(r.opponents), 1) for r in records]
    return num, den


TIEBREAKERS: dict[str, Callable[[Sequence[Record], Ruleset, int | str], Values]] = {
    "match_points": match_points,
    "omw": omw,
    "oomw": oomw,
    "random": random_draw,
}
