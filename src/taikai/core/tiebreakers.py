"""One small function per tiebreaker (タイブレーク), chosen by ``ruleset.standings.tiebreakers``.

Each returns, per entrant, an exact value where larger is better: integer numerators over one denominator
shared by every entrant (``Values``). Shared, the values sort as plain integers, and a ``Fraction`` is made
only for the figure shown; at 4,096 players, sorting by ``Fraction`` cost more than the rest of the standings.
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


@dataclass(frozen=True)
class Values:
    """Exact values, entrant k's being ``numerators[k] / denominator`` (larger is better)."""

    numerators: list[int]
    denominator: int = 1

    def fraction(self, k: int) -> Fraction:
        return Fraction(self.numerators[k], self.denominator)

    def truncated(self, k: int, digits: int) -> int:
        """The value times 10^digits, truncated (the KTS code's parts)."""
        return int(self.numerators[k] * 10**digits // self.denominator)


def match_points(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> Values:
    return Values([r.points for r in records])


def match_win_rates(records: Sequence[Record], ruleset: Ruleset) -> Values:
    """Each entrant's match points / (win points x matches played, byes included), floored."""
    win = ruleset.scoring.win
    floor = ruleset.standings.omw_floor
    common = lcm(floor.denominator, *(win * r.matches for r in records if r.matches))
    floor_num = floor.numerator * (common // floor.denominator)
    return Values(
        [max(floor_num, r.points * (common // (win * r.matches)) if r.matches else 0) for r in records], common
    )


def omw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> Values:
    """OMW%: the mean over real opponents of their floored match-win rate (0 with no opponents)."""
    return _mean_over_opponents(records, match_win_rates(records, ruleset))


def oomw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> Values:
    """OOMW%: the mean over real opponents of their OMW%."""
    return _mean_over_opponents(records, omw(records, ruleset, seed))


def random_draw(records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> Values:
    """A seeded draw, recorded with the event: never the player ID (larger = better here)."""
    order = list(range(len(records)))
    SeededRandom(seed).shuffle(order)
    value = [0] * len(records)
    for position, entrant in enumerate(order):
        value[entrant] = len(records) - position
    return Values(value)


def _mean_over_opponents(records: Sequence[Record], of: Values) -> Values:
    """Each entrant's mean of ``of`` over its real opponents (0 with none), over one shared denominator."""
    counts = [max(len(r.opponents), 1) for r in records]
    shared = lcm(1, *set(counts))
    value = of.numerators.__getitem__
    return Values(
        [sum(map(value, r.opponents)) * (shared // c) for r, c in zip(records, counts, strict=True)],
        of.denominator * shared,
    )


def values_of(names: Sequence[str], records: Sequence[Record], ruleset: Ruleset, seed: int | str) -> dict[str, Values]:
    """The named tiebreakers, and OMW%, OOMW% and the draw that standings always show, each computed once
    (OOMW% is the mean of the OMW% already computed)."""
    out: dict[str, Values] = {}
    for name in (*names, "omw", "oomw", "random"):
        if name in out:
            continue
        if name == "oomw" and "omw" in out:
            out[name] = _mean_over_opponents(records, out["omw"])
        else:
            out[name] = TIEBREAKERS[name](records, ruleset, seed)
    return out


TIEBREAKERS: dict[str, Callable[[Sequence[Record], Ruleset, int | str], Values]] = {
    "match_points": match_points,
    "omw": omw,
    "oomw": oomw,
    "random": random_draw,
}
