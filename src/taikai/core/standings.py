"""Standings (順位): match points, then the ruleset's tiebreakers, exact and reproducible.

The built-in rulesets rank by match points (bye = a win), OMW%, OOMW%, then a seeded draw recorded
with the event. Each entrant also gets the KTS-style code ``XXYYYZZZ``: points, OMW% and OOMW% in
thousandths, truncated. Dropped players keep their record and stay in the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from taikai.core.pairing.types import PlayerId
from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset
from taikai.core.tiebreakers import TIEBREAKERS, Record, omw, oomw


class StandingsError(Exception):
    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


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


@dataclass
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0


def compute(
    entrants: Sequence[PlayerId], rounds: Sequence[Sequence[MatchRecord]], ruleset: Ruleset, seed: int | str = 0
) -> tuple[Standing, ...]:
    """Standings after ``rounds``; ``entrants`` in registration order (the draw shuffles it)."""
    index = {e: k for k, e in enumerate(entrants)}
    if len(index) != len(entrants):
        raise StandingsError(Problem("duplicate-player"))
    tally = [_Tally() for _ in entrants]
    opponents: list[list[int]] = [[] for _ in entrants]
    for played in rounds:
        for m in played:
            _apply(m, index, tally, opponents, ruleset)
    records = [
        Record(t.points, t.wins + t.losses + t.draws, tuple(opp)) for t, opp in zip(tally, opponents, strict=True)
    ]
    order = ruleset.standings.tiebreakers
    values = [TIEBREAKERS[name](records, ruleset, seed) for name in order]
    keys = list(zip(*values, strict=True)) if values else [() for _ in entrants]
    ranking = sorted(range(len(entrants)), key=lambda k: keys[k], reverse=True)
    omws = values[order.index("omw")] if "omw" in order else omw(records, ruleset, seed)
    oomws = values[order.index("oomw")] if "oomw" in order else oomw(records, ruleset, seed)
    draw = TIEBREAKERS["random"](records, ruleset, seed)
    out = []
    rank = 0
    for position, k in enumerate(ranking):
        if position == 0 or keys[k] != keys[ranking[position - 1]]:
            rank = position + 1
        t = tally[k]
        o, oo = Fraction(omws[k]), Fraction(oomws[k])
        out.append(
            Standing(
                rank,
                entrants[k],
                t.points,
                t.wins,
                t.losses,
                t.draws,
                t.byes,
                o,
                oo,
                len(entrants) + 1 - int(draw[k]),
                code(t.points, o, oo, ruleset),
            )
        )
    return tuple(out)


def missed_rounds_points(missed: int, ruleset: Ruleset) -> int:
    """Points a late entry holds for the rounds it missed (ruleset scoring.late_entry_missed_round)."""
    s = ruleset.scoring
    return s.loss * missed if s.late_entry_missed_round == "loss" else 0


def code(points: int, omw_value: Fraction, oomw_value: Fraction, ruleset: Ruleset) -> str:
    """KTS-style code: each part truncated to its digits (XX points, YYY OMW%, ZZZ OOMW%)."""
    digits = ruleset.standings.code_digits
    scaled = [points, int(omw_value * 10 ** digits[1]), int(oomw_value * 10 ** digits[2])]
    return "".join(str(min(v, 10**d - 1)).zfill(d) for v, d in zip(scaled, digits, strict=False))


def _apply(
    m: MatchRecord, index: dict[PlayerId, int], tally: list[_Tally], opponents: list[list[int]], ruleset: Ruleset
) -> None:
    s = ruleset.scoring
    for who in (m.a, m.b):
        if who is not None and who not in index:
            raise StandingsError(Problem("unknown-player", player=who))
    a = index[m.a]
    if m.result == "missed":
        # A late entry's missed round (ruleset scoring.late_entry_missed_round): a loss with no opponent.
        if s.late_entry_missed_round == "loss":
            tally[a].points += missed_rounds_points(1, ruleset)
            tally[a].losses += 1
        return
    if m.result == "bye" or m.b is None:
        tally[a].points += s.bye
        tally[a].wins += 1  # a bye counts as a match win
        tally[a].byes += 1
        return
    b = index[m.b]
    if m.result not in ("a", "b", "draw") or a == b:
        raise StandingsError(Problem("bad-result", a=m.a, b=m.b, result=m.result))
    opponents[a].append(b)
    opponents[b].append(a)
    if m.result == "draw":
        for k in (a, b):
            tally[k].points += s.draw
            tally[k].draws += 1
        return
    winner, loser = (a, b) if m.result == "a" else (b, a)
    tally[winner].points += s.win
    tally[winner].wins += 1
    tally[loser].points += s.loss
    tally[loser].losses += 1
