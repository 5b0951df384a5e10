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
from taikai.core.pairing.types import PlayerId
from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset
from taikai.core.sheet import SheetError
from taikai.core.tiebreakers import Record, values_of

StandingsError = SheetError  # the sheet checks the facts: unknown or duplicate players, bad results


@dataclass(frozen=True)
class MatchRecord:
    """One table of one round: ``result`` is "a", "b", "draw", or "bye" / "missed" (then ``b`` is None).

    "missed" is a round a late entry did not play (a loss when the ruleset says so)."""

    a: PlayerId
    b: PlayerId | None
    result: str


@dataclass(frozen=True)
class Standing:
    rank: int
    id: PlayerId
    points: int
    wins: int  # byes included
    losses: int
    draws: int
    byes: int
    omw: Fraction
    oomw: Fraction
    draw: int  # the seeded draw's position (1 = drawn first), for the final tie
    code: str


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
        tables = []
        for m in records:
            if m.result == "missed":
                if m.a not in known:
                    raise StandingsError(Problem("unknown-player", player=m.a))
                first[m.a] = number + 1
            elif m.result == "bye" or m.b is None:
                tables.append(sheet.Table(m.a))
            elif m.result not in sheet.RESULTS:
                raise StandingsError(Problem("bad-result", a=m.a, b=m.b, result=m.result))
            else:
                tables.append(sheet.Table(m.a, m.b, m.result))
        played.append(sheet.RoundFacts(number, sheet.Stage.SWISS, tuple(tables)))
    people = tuple(sheet.Entrant(e, first_round=first.get(e)) for e in entrants)
    return sheet.EventFacts(people, tuple(played))


def rank(table: sheet.Sheet, ruleset: Ruleset, seed: int | str = 0) -> tuple[Standing, ...]:
    """Standings from the sheet: its points and records, ordered by the ruleset's tiebreakers."""
    lines = table.lines
    index = {line.id: k for k, line in enumerate(lines)}
    at = index.__getitem__
    records = [Record(line.points, line.matches, tuple(map(at, line.decided_opponents))) for line in lines]
    order = ruleset.standings.tiebreakers
    values = values_of(order, records, ruleset, seed)
    keys = list(zip(*(values[name].numerators for name in order), strict=True)) if order else [() for _ in lines]
    ranking = sorted(range(len(lines)), key=keys.__getitem__, reverse=True)
    omws, oomws, draw = values["omw"], values["oomw"], values["random"]
    digits = ruleset.standings.code_digits
    out = []
    position_rank = 0
    for position, k in enumerate(ranking):
        if position == 0 or keys[k] != keys[ranking[position - 1]]:
            position_rank = position + 1
        line = lines[k]
        parts = (line.points, omws.truncated(k, digits[1]), oomws.truncated(k, digits[2]))
        out.append(
            Standing(
                position_rank,
                line.id,
                line.points,
                line.wins,
                line.losses,
                line.draws,
                line.byes,
                omws.fraction(k),
                oomws.fraction(k),
                len(lines) + 1 - draw.numerators[k],
                _code(parts, digits),
            )
        )
    return tuple(out)


def missed_rounds_points(missed: int, ruleset: Ruleset) -> int:
    """Points a late entry holds for the rounds it missed (ruleset scoring.late_entry_missed_round)."""
    return missed * sheet.points_for("missed", ruleset.scoring)


def code(points: int, omw_value: Fraction, oomw_value: Fraction, ruleset: Ruleset) -> str:
    """KTS-style code: each part truncated to its digits (XX points, YYY OMW%, ZZZ OOMW%)."""
    digits = ruleset.standings.code_digits
    return _code((points, int(omw_value * 10 ** digits[1]), int(oomw_value * 10 ** digits[2])), digits)


def _code(scaled: Sequence[int], digits: Sequence[int]) -> str:
    return "".join(f"{min(v, 10**d - 1):0{d}d}" for v, d in zip(scaled, digits, strict=False))
