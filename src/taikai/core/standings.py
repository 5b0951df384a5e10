"""Standings (順位): the event sheet's match points, then the ruleset's tiebreakers, exact and reproducible.

Points and records come from taikai.core.sheet, the one place a result becomes points.

The built-in rulesets rank by match points (bye = a win), OMW%, OOMW%, then a seeded draw recorded
with the event. Each entrant also gets the KTS-style code ``XXYYYZZZ``: points, OMW% and OOMW% in
thousandths, truncated. Dropped players keep their record and stay in the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from taikai.core import sheet
from taikai.core.columns import instances
from taikai.core.pairing.types import PlayerId
from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset
from taikai.core.sheet import SheetError
from taikai.core.tiebreakers import Records, Values, columns, values_of

StandingsError = SheetError  # the sheet checks the facts: unknown or duplicate players, bad results


@dataclass(frozen=True, slots=True)
class MatchRecord(sheet.Table):
    """One table of one round: ``result`` is "a", "b", "draw", or "bye" / "missed" (then ``b`` is None).

    "missed" is a round a late entry did not play (a loss when the ruleset says so). A played record is the
    sheet's table itself (``facts_of`` passes it on as it is); a bye or a missed round is made into its table."""

    a: PlayerId
    b: PlayerId | None
    result: str


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
    made into a table without a result; None for any other round (``_tables`` takes it record by record)."""
    if not _PLAYED_OR_BYE.issuperset([m.result for m in records]):
        return None
    tables: list[sheet.Table] = list(records)
    byes = [k for k, m in enumerate(records) if m.b is None]
    if byes != [k for k, m in enumerate(records) if m.result == "bye"]:
        return None
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

    Computed on plain lists, one a field; the Standing objects are made once, at the end (``columns.instances``).
    """
    lines = table.lines
    index = {line.id: k for k, line in enumerate(lines)}
    at = index.__getitem__
    records = Records(
        [ln.points for ln in lines],
        [ln.wins + ln.losses + ln.draws for ln in lines],  # Line.matches
        [tuple(map(at, ln.decided_opponents)) for ln in lines],
    )
    order = ruleset.standings.tiebreakers
    values = values_of(order, records, ruleset, seed)
    keys = list(zip(*(values[name].numerators for name in order), strict=True)) if order else [() for _ in lines]
    ranking = sorted(range(len(lines)), key=keys.__getitem__, reverse=True)
    ranks, position_rank, previous = [], 0, None
    for position, k in enumerate(ranking, start=1):
        if keys[k] != previous:
            position_rank, previous = position, keys[k]
        ranks.append(position_rank)
    shown = columns(order)
    # Each entrant's shown values, exact; one Fraction per distinct value, shared (a Fraction is immutable).
    rows = [dict(zip(shown, row, strict=True)) for row in zip(*(_fractions(values[n]) for n in shown), strict=True)]
    codes = _codes(records.points, values["omw"], values["oomw"], ruleset.standings.code_digits)
    drawn = [len(lines) + 1 - n for n in values["random"].numerators]
    ordered = [lines[k] for k in ranking]
    return tuple(
        instances(
            Standing,
            ranks,
            [ln.id for ln in ordered],
            [ln.points for ln in ordered],
            [ln.wins for ln in ordered],
            [ln.losses for ln in ordered],
            [ln.draws for ln in ordered],
            [ln.byes for ln in ordered],
            [rows[k] for k in ranking],
            [drawn[k] for k in ranking],
            [codes[k] for k in ranking],
        )
    )


def _fractions(values: Values) -> list[Fraction]:
    made = {n: Fraction(n, values.denominator) for n in set(values.numerators)}
    return [made[n] for n in values.numerators]


def _codes(points: Sequence[int], omws: Values, oomws: Values, digits: Sequence[int]) -> list[str]:
    """Every entrant's KTS code (``_code`` of the points and the truncated OMW% and OOMW%): each part written once
    per distinct value, each code three parts joined."""
    d0, d1, d2 = digits[:3]
    made = (
        _parts(points, 1, 1, d0),
        _parts(omws.numerators, 10**d1, omws.denominator, d1),
        _parts(oomws.numerators, 10**d2, oomws.denominator, d2),
    )
    return [
        p + o + oo
        for p, o, oo in zip(
            map(made[0].__getitem__, points),
            map(made[1].__getitem__, omws.numerators),
            map(made[2].__getitem__, oomws.numerators),
            strict=True,
        )
    ]


def _parts(numerators: Sequence[int], scale: int, denominator: int, digits: int) -> dict[int, str]:
    """Each distinct value's part of the code: value x scale / denominator, truncated, capped to its digits."""
    cap = 10**digits - 1
    return {n: f"{min(n * scale // denominator, cap):0{digits}d}" for n in set(numerators)}


def missed_rounds_points(missed: int, ruleset: Ruleset) -> int:
    """Points a late entry holds for the rounds it missed (ruleset scoring.late_entry_missed_round)."""
    return missed * sheet.points_for("missed", ruleset.scoring)


def code(points: int, omw_value: Fraction, oomw_value: Fraction, ruleset: Ruleset) -> str:
    """KTS-style code: each part truncated to its digits (XX points, YYY OMW%, ZZZ OOMW%)."""
    digits = ruleset.standings.code_digits
    return _code((points, int(omw_value * 10 ** digits[1]), int(oomw_value * 10 ** digits[2])), digits)


def _code(scaled: Sequence[int], digits: Sequence[int]) -> str:
    return "".join(f"{min(v, 10**d - 1):0{d}d}" for v, d in zip(scaled, digits, strict=False))
