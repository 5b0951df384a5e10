"""Standings (順位): the event sheet's match points, then the ruleset's tiebreakers, exact and reproducible.

Points and records come from taikai.core.sheet, the one place a result becomes points.

The built-in rulesets rank by match points (bye = a win), OMW%, OOMW%, then a seeded draw recorded
with the event. Each entrant also gets the KTS-style code ``XXYYYZZZ``: points, OMW% and OOMW% in
thousandths, truncated. Dropped players keep their record and stay in the standings.

At 4,096 players the standings are timed against one Swiss pairing (issue 27), so ``rank`` works a field at a
time on the sheet's columns, with the same values as entrant by entrant (tests/core/test_standings_reference.py
checks them against a plain computation): each column is the sheet's own, reordered by one ``ranking``; the
tiebreakers read opponents by position, or by ID through one dict when IDs are not positions (the same values);
a code's three parts are the same capped integers, written by ``%0nd``, which pads as ``:0nd`` does; a value
shared by many entrants is one Fraction (``columns.fractions``); and when no two entrants tie on every key (the
seeded draw is a permutation), each one's rank is its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import add, floordiv, mul, sub
from typing import TypeVar

from taikai.core import sheet
from taikai.core.columns import fractions, instances
from taikai.core.pairing.types import PlayerId
from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset
from taikai.core.sheet import SheetError
from taikai.core.tiebreakers import Records, Values, columns, values_of

T = TypeVar("T")
StandingsError = SheetError  # the sheet checks the facts: unknown or duplicate players, bad results


@dataclass(frozen=True, slots=True, init=False)
class MatchRecord(sheet.Table):
    """One table of one round: ``result`` is "a", "b", "draw", or "bye" / "missed" (then ``b`` is None).

    "missed" is a round a late entry did not play (a loss when the ruleset says so). A played record is the
    sheet's table itself (``facts_of`` passes it on as it is); a bye or a missed round is made into its table.

    Its ``__init__`` is the frozen dataclass's, written with the three slots' own setters (``_SET_FIELDS``): the
    generated one looks ``object.__setattr__`` up for each field, a third of the cost of a record, of which an
    event's standings make one per table."""

    a: PlayerId
    b: PlayerId | None
    result: str

    def __init__(self, a: PlayerId, b: PlayerId | None, result: str) -> None:
        set_a, set_b, set_result = _SET_FIELDS
        set_a(self, a)
        set_b(self, b)
        set_result(self, result)


_SET_FIELDS = tuple(sheet.Table.__dict__[name].__set__ for name in ("a", "b", "result"))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    id: PlayerId
    points: int
    wins: int  # byes included
    losses: int
    draws: int
    byes: int
    values: dict[str, Fraction]  # the shown tiebreakers by name, in column order (tiebreakers.columns)
    draw: int  # the seeded draw's position (1 = drawn first), for the final tie
    code: str

    @property
    def omw(self) -> Fraction:
        return self.values["omw"]

    @property
    def oomw(self) -> Fraction:
        return self.values["oomw"]


def compute(
    entrants: Sequence[PlayerId], rounds: Sequence[Sequence[MatchRecord]], ruleset: Ruleset, seed: int | str = 0
) -> tuple[Standing, ...]:
    """Standings after ``rounds`` (Swiss rounds 1, 2, ...); ``entrants`` in registration order."""
    return rank(sheet.sheet(facts_of(entrants, rounds), ruleset), ruleset, seed)


def facts_of(entrants: Sequence[PlayerId], rounds: Sequence[Sequence[MatchRecord]]) -> sheet.EventFacts:
    """The `taikai standings` records as sheet facts: a "missed" record marks a late entry's missed round."""
    known = set(entrants)
    first: dict[PlayerId, int] = {}
    played = []
    for number, records in enumerate(rounds, start=1):
        tables = _tables_at_once(records)
        if tables is None:
            tables = _tables(records, number, known, first)
        played.append(sheet.RoundFacts(number, sheet.Stage.SWISS, tuple(tables)))
    ids = list(entrants)
    people = instances(sheet.Entrant, ids, list(map(first.get, ids)), [None] * len(ids), [False] * len(ids))
    return sheet.EventFacts(tuple(people), tuple(played))


def _tables_at_once(records: Sequence[MatchRecord]) -> list[sheet.Table] | None:
    """A round of played tables and byes only (no missed round, no bad result): the records themselves, a bye's
    made into a table without a result; None for any other round (``_tables`` takes it record by record).

    It is taken at once when every result is played or "bye" and the records without ``b`` are exactly those
    marked "bye": as many, each marked so (then ``_tables`` would give the same tables)."""
    results = [m.result for m in records]
    if not _PLAYED_OR_BYE.issuperset(results):
        return None
    byes = [k for k, m in enumerate(records) if m.b is None]
    if len(byes) != results.count("bye") or any(results[k] != "bye" for k in byes):
        return None
    tables: list[sheet.Table] = list(records)
    for k in byes:
        tables[k] = sheet.Table(records[k].a)
    return tables


_PLAYED_OR_BYE = frozenset((*sheet.RESULTS, "bye"))


def _tables(
    records: Sequence[MatchRecord], number: int, known: set[PlayerId], first: dict[PlayerId, int]
) -> list[sheet.Table]:
    tables: list[sheet.Table] = []
    for m in records:
        if m.result in sheet.RESULTS and m.b is not None:  # a played table, the common case first
            tables.append(m)
        elif m.result == "missed":
            if m.a not in known:
                raise StandingsError(Problem("unknown-player", player=m.a))
            first[m.a] = number + 1
        elif m.result == "bye" or m.b is None:
            tables.append(sheet.Table(m.a))
        else:
            raise StandingsError(Problem("bad-result", a=m.a, b=m.b, result=m.result))
    return tables


def rank(table: sheet.Sheet, ruleset: Ruleset, seed: int | str = 0) -> tuple[Standing, ...]:
    """Standings from the sheet: its points and records, ordered by the ruleset's tiebreakers.

    Computed on plain lists, one a field, each put in standings order by a C-level map (``_in_order``); the
    Standing objects are made once, at the end (``columns.instances``)."""
    ids, points, wins, losses, draws, byes, met = map(table.columns.__getitem__, _READ)
    records = Records.by_id(list(points), list(map(add, map(add, wins, losses), draws)), met, ids)  # Line.matches
    order = ruleset.standings.tiebreakers
    values = values_of(order, records, ruleset, seed)
    ranking, ranks = _ranking([values[name].numerators for name in order], len(ids))
    shown = columns(order)
    rows = _rows(shown, [fractions(values[n].numerators, values[n].denominator) for n in shown])
    codes = _codes(points, values["omw"], values["oomw"], ruleset.standings.code_digits)
    drawn = list(map(sub, repeat(len(ids) + 1), values["random"].numerators))
    fields = (ids, points, wins, losses, draws, byes, rows, drawn, codes)
    return tuple(instances(Standing, ranks, *(_in_order(column, ranking) for column in fields)))


_READ = ("id", "points", "wins", "losses", "draws", "byes", "decided_opponents")  # of the sheet's columns


def _ranking(keys: Sequence[list[int]], size: int) -> tuple[list[int], list[int]]:
    """The entrants in standings order (best first, a full tie in entrant order) and each place's rank: the
    position of the first of those it ties with on every key."""
    rows = list(zip(*keys, strict=True)) if keys else [()] * size
    ranking = sorted(range(size), key=rows.__getitem__, reverse=True)
    if len(set(rows)) == size:  # no two tie on every key (the seeded draw sees to it): each its own place
        return ranking, list(range(1, size + 1))
    ranks, position_rank, previous = [], 0, None
    for position, row in enumerate(map(rows.__getitem__, ranking), start=1):
        if row != previous:
            position_rank, previous = position, row
        ranks.append(position_rank)
    return ranking, ranks


def _in_order(column: Sequence[T], ranking: list[int]) -> list[T]:
    return list(map(column.__getitem__, ranking))


def _rows(shown: Sequence[str], values: Sequence[list[Fraction]]) -> list[dict[str, Fraction]]:
    """Each entrant's shown values by name, in column order (one new dict each: a row's dict is its own)."""
    return [dict(zip(shown, row, strict=True)) for row in zip(*values, strict=True)]


def _codes(points: Sequence[int], omws: Values, oomws: Values, digits: Sequence[int]) -> list[str]:
    """Every entrant's KTS code (``_code`` of the points and the truncated OMW% and OOMW%): each part capped to
    its digits, the three written by one C-level ``%`` format each (``%0nd`` pads as ``:0nd`` does, a sign
    included)."""
    d0, d1, d2 = digits[:3]
    parts = (
        list(map(min, points, repeat(10**d0 - 1))),
        _truncated(omws, d1),
        _truncated(oomws, d2),
    )
    return list(map(f"%0{d0}d%0{d1}d%0{d2}d".__mod__, zip(*parts, strict=True)))


def _truncated(values: Values, digits: int) -> list[int]:
    """Each value x 10^digits, truncated and capped to its digits (a code's part, as a number)."""
    scaled = map(floordiv, map(mul, values.numerators, repeat(10**digits)), repeat(values.denominator))
    return list(map(min, scaled, repeat(10**digits - 1)))


def missed_rounds_points(missed: int, ruleset: Ruleset) -> int:
    """Points a late entry holds for the rounds it missed (ruleset scoring.late_entry_missed_round)."""
    return missed * sheet.points_for("missed", ruleset.scoring)


def code(points: int, omw_value: Fraction, oomw_value: Fraction, ruleset: Ruleset) -> str:
    """KTS-style code: each part truncated to its digits (XX points, YYY OMW%, ZZZ OOMW%)."""
    digits = ruleset.standings.code_digits
    return _code((points, int(omw_value * 10 ** digits[1]), int(oomw_value * 10 ** digits[2])), digits)


def _code(scaled: Sequence[int], digits: Sequence[int]) -> str:
    return "".join(f"{min(v, 10**d - 1):0{d}d}" for v, d in zip(scaled, digits, strict=False))
