"""Team Swiss (チーム戦): teams are paired as units by team match points; seat A plays seat A.

A team is a ``PlayerState`` whose points are team match points and whose opponents are teams, so
the same optimal engine pairs them. Each team table then becomes one match per seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taikai.core.pairing import swiss
from taikai.core.pairing.types import PairingError, PairingInput, PairingResult, PlayerId
from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset


@dataclass(frozen=True)
class SeatMatch:
    seat: str
    a: PlayerId
    b: PlayerId


@dataclass(frozen=True)
class TeamTable:
    table: int
    team_a: PlayerId
    team_b: PlayerId
    seats: tuple[SeatMatch, ...]


@dataclass(frozen=True)
class TeamPairing:
    teams: PairingResult
    tables: tuple[TeamTable, ...]


def pair(inp: PairingInput, members: Mapping[PlayerId, Sequence[PlayerId]], ruleset: Ruleset) -> TeamPairing:
    """``members[team]`` lists the team's players in seat order (A, B, C)."""
    seats = ruleset.team.seats
    for team in inp.players:
        if len(members.get(team.id, ())) != len(seats):
            raise PairingError(Problem("team-seats", team=team.id, seats=len(seats)))
    result = swiss.pair(inp)
    tables = tuple(
        TeamTable(
            table=t + 1,
            team_a=a,
            team_b=b,
            seats=tuple(SeatMatch(seat, members[a][k], members[b][k]) for k, seat in enumerate(seats)),
        )
        for t, (a, b) in enumerate(result.pairings)
    )
    return TeamPairing(teams=result, tables=tables)


def team_result(seat_results: Sequence[str], ruleset: Ruleset) -> str:
    """A team match from its seat results ("a", "b" or "draw"): the side with enough seat wins."""
    wins_a = sum(1 for r in seat_results if r == "a")
    wins_b = sum(1 for r in seat_results if r == "b")
    need = ruleset.team.seat_wins_to_win
    if wins_a >= need and wins_a > wins_b:
        return "a"
    if wins_b >= need and wins_b > wins_a:
        return "b"
    return "draw"
