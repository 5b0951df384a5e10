"""One small function per tiebreaker (タイブレーク), chosen by ``ruleset.standings.tiebreakers``.

``TIEBREAKERS`` is the registry: name -> the function and how a standings table shows its value (a
percentage, a number, or no column of its own). Standings rows carry their values keyed by these names,
and every page, the CSV, the API and the command show the columns in the ruleset's order, so a new
tiebreaker is one function and one entry here, plus its label (``taikai.events.ruleset_words``).

Each returns, per entrant, an exact value where larger is better: integer numerators over one denominator
shared by every entrant (``Values``). Shared, the values sort as plain integers, and a ``Fraction`` is made
only for the figure shown; at 4,096 players, sorting by ``Fraction`` cost more than the rest of the standings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import lcm
from typing import Any, Protocol, overload

from taikai.core.rng import SeededRandom


class _Scoring(Protocol):
    @property
    def win(self) -> int: ...


class _Standings(Protocol):
    @property
    def omw_floor(self) -> Fraction: ...


class Rules(Protocol):
    """What the tiebreakers read of a ``taikai.core.ruleset.Ruleset`` (named so the ruleset's check can list
    the tiebreakers without importing the ruleset)."""

    @property
    def scoring(self) -> _Scoring: ...

    @property
    def standings(self) -> _Standings: ...


@dataclass(frozen=True, slots=True)
class Record:
    """One entrant's results; ``opponents`` are real opponents only (byes are not opponents)."""

    points: int
    matches: int  # byes included
    opponents: tuple[int, ...]


class Records(Sequence[Record]):
    """Every entrant's results, one list a field: indexing gives entrant k's ``Record`` (what a tiebreaker of its
    own reads), while the built-in tiebreakers read the lists themselves (``_fields``), with no object made per
    entrant.

    ``Records.by_id`` keeps the opponents as the sheet names them (IDs, with ``ids[k]`` entrant k's): the means
    over opponents look their values up by ID (``_lookup``), and the opponents as positions (``opponents``) are
    made only if something asks for them. At 4,096 players, turning every opponent into a position first cost
    more than both means."""

    __slots__ = ("_ids", "_met", "_opponents", "matches", "points")

    def __init__(self, points: list[int], matches: list[int], opponents: list[tuple[int, ...]]) -> None:
        self.points, self.matches = points, matches
        self._opponents: list[tuple[int, ...]] | None = opponents
        self._met: Sequence[tuple[object, ...]] = opponents
        self._ids: Sequence[object] | None = None

    @classmethod
    def by_id(
        cls, points: list[int], matches: list[int], met: Sequence[tuple[object, ...]], ids: Sequence[object]
    ) -> Records:
        """Records whose opponents are given by ID: ``met[k]`` holds the IDs of entrant k's real opponents."""
        made = cls(points, matches, [])
        made._opponents, made._met, made._ids = None, met, ids
        return made

    @property
    def opponents(self) -> list[tuple[int, ...]]:
        """Each entrant's real opponents, as positions."""
        if self._opponents is None:
            at = {who: k for k, who in enumerate(self._ids or ())}.__getitem__
            self._opponents = [tuple(map(at, met)) for met in self._met]
        return self._opponents

    def _lookup(self, values: list[int]) -> tuple[Sequence[tuple[object, ...]], Callable[[Any], int]]:
        """The opponents as held, and the function from one of them to its entry of ``values``: the list itself
        when they are positions, or when each ID is its own position (entrants numbered 0, 1, ... in order, as
        the command line numbers them: the same look-up, at half the cost of a dict's)."""
        ids = self._ids
        if ids is None or (set(map(type, ids)) <= {int} and list(ids) == list(range(len(values)))):
            return self._met, values.__getitem__
        return self._met, dict(zip(ids, values, strict=True)).__getitem__

    def __len__(self) -> int:
        return len(self.points)

    @overload
    def __getitem__(self, k: int) -> Record: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[Record]: ...

    def __getitem__(self, k: int | slice) -> Record | Sequence[Record]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        return Record(self.points[k], self.matches[k], self.opponents[k])


def _fields(records: Sequence[Record]) -> Records:
    """The records as lists, one a field (as they come from the standings; made from any other sequence)."""
    if isinstance(records, Records):
        return records
    return Records([r.points for r in records], [r.matches for r in records], [r.opponents for r in records])


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


def match_points(records: Sequence[Record], ruleset: Rules, seed: int | str) -> Values:
    return Values(list(_fields(records).points))


def match_win_rates(records: Sequence[Record], ruleset: Rules) -> Values:
    """Each entrant's match points / (win points x matches played, byes included), floored."""
    win = ruleset.scoring.win
    floor = ruleset.standings.omw_floor
    fields = _fields(records)
    played = set(fields.matches) - {0}
    common = lcm(floor.denominator, *(win * m for m in played))
    floor_num = floor.numerator * (common // floor.denominator)
    scale = {m: common // (win * m) for m in played}  # one division per number of matches, not per entrant
    scale[0] = 0  # no matches: 0, not the floor
    floor_of = {m: floor_num if m else 0 for m in scale}
    rates = [max(floor_of[m], p * scale[m]) for p, m in zip(fields.points, fields.matches, strict=True)]
    return Values(rates, common)


def omw(records: Sequence[Record], ruleset: Rules, seed: int | str) -> Values:
    """OMW%: the mean over real opponents of their floored match-win rate (0 with no opponents)."""
    return _mean_over_opponents(records, match_win_rates(records, ruleset))


def oomw(records: Sequence[Record], ruleset: Rules, seed: int | str) -> Values:
    """OOMW%: the mean over real opponents of their OMW%."""
    return _mean_over_opponents(records, omw(records, ruleset, seed))


def random_draw(records: Sequence[Record], ruleset: Rules, seed: int | str) -> Values:
    """A seeded draw, recorded with the event: never the player ID (larger = better here)."""
    order = list(range(len(records)))
    SeededRandom(seed).shuffle(order)
    value = [0] * len(records)
    for position, entrant in enumerate(order):
        value[entrant] = len(records) - position
    return Values(value)


def _mean_over_opponents(records: Sequence[Record], of: Values) -> Values:
    """Each entrant's mean of ``of`` over its real opponents (0 with none), over one shared denominator."""
    opponents, value = _fields(records)._lookup(of.numerators)
    counts = set(map(len, opponents))
    shared = lcm(1, *(c for c in counts if c))
    # one division per number of opponents, not per entrant (none: a mean of 0, over 1)
    scale = {c: shared // max(c, 1) for c in counts}
    return Values([sum(map(value, met)) * scale[len(met)] for met in opponents], of.denominator * shared)


def values_of(names: Sequence[str], records: Sequence[Record], ruleset: Rules, seed: int | str) -> dict[str, Values]:
    """The named tiebreakers, and those that standings always show (``ALWAYS``), each computed once
    (OOMW% is the mean of the OMW% already computed)."""
    out: dict[str, Values] = {}
    for name in (*names, *ALWAYS):
        if name in out:
            continue
        if name == "oomw" and "omw" in out:
            out[name] = _mean_over_opponents(records, out["omw"])
        else:
            out[name] = TIEBREAKERS[name].compute(records, ruleset, seed)
    return out


class Shown(StrEnum):
    """How a standings table shows a tiebreaker's value."""

    PERCENT = "percent"  # 55.56%
    NUMBER = "number"  # 12, or 12.50 for a fraction
    NO_COLUMN = "no-column"  # match points have their own column; the draw is an order, not a figure


@dataclass(frozen=True)
class Tiebreaker:
    compute: Callable[[Sequence[Record], Rules, int | str], Values]
    shown: Shown


TIEBREAKERS: dict[str, Tiebreaker] = {
    "match_points": Tiebreaker(match_points, Shown.NO_COLUMN),
    "omw": Tiebreaker(omw, Shown.PERCENT),
    "oomw": Tiebreaker(oomw, Shown.PERCENT),
    "random": Tiebreaker(random_draw, Shown.NO_COLUMN),
}

# Computed whatever the ruleset lists: the KTS code is points, OMW% and OOMW%, and the final tie is a draw.
ALWAYS = ("omw", "oomw", "random")


def columns(names: Sequence[str]) -> tuple[str, ...]:
    """The tiebreakers a standings table shows, in the ruleset's order, then those always shown."""
    return tuple(n for n in dict.fromkeys((*names, *ALWAYS)) if TIEBREAKERS[n].shown is not Shown.NO_COLUMN)
