"""Duel records written short for the match tests: won(A), timed(3000, 2000), swiss(...), refused(...)."""

from __future__ import annotations

import pytest

from taikai.core.match import MatchRecordError, MatchState, evaluate
from taikai.core.match_record import Drawn, Duel, Format, LifePoints, MatchRecord, Player, TimedOut, Won
from taikai.core.ruleset import Ruleset, builtin

DKT = builtin("dkt-2011")
A, B = Player.A, Player.B


def won(player: Player, time_called: bool = False) -> Won:
    return Won(player, time_called=time_called)


def timed(a: int, b: int, sudden_death: Player | None = None, extra_duel: bool = False) -> TimedOut:
    return TimedOut(LifePoints(a, b), sudden_death=sudden_death, extra_duel=extra_duel)


def extra(duel: Duel) -> Duel:
    if isinstance(duel, Won):
        return Won(duel.winner, extra_duel=True)
    if isinstance(duel, TimedOut):
        return TimedOut(duel.lp, duel.sudden_death, extra_duel=True)
    return Drawn(extra_duel=True)


DRAW = Drawn()
DRAW_IN_TIME = Drawn(time_called=True)


def swiss(*duels: Duel, between: bool = False, ruleset: Ruleset = DKT) -> MatchState:
    return evaluate(MatchRecord(Format.SWISS, duels, between), ruleset)


def elimination(*duels: Duel, between: bool = False, ruleset: Ruleset = DKT) -> MatchState:
    return evaluate(MatchRecord(Format.ELIMINATION, duels, between), ruleset)


def refused(fmt: Format, *duels: Duel, between: bool = False) -> MatchRecordError:
    with pytest.raises(MatchRecordError) as caught:
        evaluate(MatchRecord(fmt, duels, between), DKT)
    return caught.value
