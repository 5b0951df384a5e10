"""What comes next in an event (進行): pair a Swiss round, make the top cut, pair the bracket, or stop.

A pure decision from a few facts the services gather; the console shows it and ``pair_next_round``
does it, so both always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset
from taikai.core.sheet import RoundFacts, Stage, advancing

SWISS_ROUNDS_RANGE = (1, 30)
TOP_CUT_RANGE = (2, 256)  # or 0: no cut


class EventFormat(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"
    SWISS_CUT = "swiss_cut"


class NextAction(StrEnum):
    PAIR_SWISS = "pair-swiss"
    TOP_CUT = "top-cut"
    PAIR_ELIMINATION = "pair-elimination"
    FINISH_ROUND = "finish-round"
    FINISHED = "finished"


@dataclass(frozen=True)
class Progress:
    format: EventFormat
    swiss_rounds: int  # planned
    top_cut: int  # planned size (0 = none)
    swiss_played: int  # Swiss rounds paired so far
    elimination_played: int  # elimination rounds paired so far
    last_round_complete: bool = True  # every table of the latest round decided (True before round 1)
    advancing: int = 0  # players still in the bracket after its latest round
    closed: bool = False  # the event was marked finished


def next_action(p: Progress) -> NextAction:
    if not p.last_round_complete:
        return NextAction.FINISH_ROUND
    if p.closed:
        return NextAction.FINISHED
    if p.format != EventFormat.ELIMINATION and p.elimination_played == 0 and p.swiss_played < p.swiss_rounds:
        return NextAction.PAIR_SWISS
    if p.format == EventFormat.SWISS:
        return NextAction.FINISHED
    if p.elimination_played == 0:
        if p.format == EventFormat.SWISS_CUT:
            return NextAction.TOP_CUT if p.top_cut >= 2 else NextAction.FINISHED
        return NextAction.PAIR_ELIMINATION
    # The bracket goes on while two or more players are left in it; one left is the champion.
    return NextAction.PAIR_ELIMINATION if p.advancing >= 2 else NextAction.FINISHED


def swiss_over(p: Progress) -> bool:
    """Every Swiss round is played (or there are none): the Swiss places are decided (CS 1.2 A)."""
    if p.format == EventFormat.ELIMINATION or p.elimination_played:
        return True
    return next_action(p) in (NextAction.TOP_CUT, NextAction.FINISHED)


@dataclass(frozen=True)
class RoundPlan:
    """How many Swiss rounds and how large a top cut (スイスドロー n 回戦・上位 m 名で決勝トーナメント)."""

    swiss_rounds: int  # 0 in a pure elimination event
    top_cut: int  # 0 = no cut (and always 0 unless the format is Swiss, then a top cut)


def progress_of(format: EventFormat, plan: RoundPlan, rounds: Sequence[RoundFacts], *, closed: bool) -> Progress:
    """The progress the recorded rounds show (``taikai.core.sheet``'s facts), under the plan in force."""
    bracket = [r for r in rounds if r.stage == Stage.ELIMINATION]
    return Progress(
        format=format,
        swiss_rounds=plan.swiss_rounds,
        top_cut=plan.top_cut,
        swiss_played=len(rounds) - len(bracket),
        elimination_played=len(bracket),
        last_round_complete=not rounds or rounds[-1].complete,
        advancing=len(advancing(bracket[-1])) if bracket else 0,
        closed=closed,
    )


def round_plan(
    format: EventFormat, ruleset: Ruleset, attendance: int, swiss_rounds: int | None, top_cut: int | None
) -> RoundPlan:
    """The organizer's numbers where given, else the ruleset's attendance table for ``attendance`` (the
    players checked in when round 1 is paired; the services store the result then, so it stays)."""
    rounds = 0
    if format != EventFormat.ELIMINATION:
        rounds = swiss_rounds if swiss_rounds else ruleset.suggested_swiss_rounds(max(attendance, 2))
    cut = 0
    if format == EventFormat.SWISS_CUT:
        cut = top_cut if top_cut is not None else ruleset.suggested_top_cut(attendance)
    return RoundPlan(rounds, cut)


def round_plan_problem(p: Progress, new: RoundPlan) -> Problem | None:
    """Why the organizer cannot change the plan to ``new`` now, or None: the numbers are out of range, or
    they contradict rounds already paired (fewer Swiss rounds than paired; anything once the cut is made)."""
    low, high = SWISS_ROUNDS_RANGE
    if p.format != EventFormat.ELIMINATION and not low <= new.swiss_rounds <= high:
        return Problem("swiss-rounds-range", low=low, high=high)
    low, high = TOP_CUT_RANGE
    if p.format == EventFormat.SWISS_CUT and new.top_cut != 0 and not low <= new.top_cut <= high:
        return Problem("top-cut-range", low=low, high=high)
    if p.closed:
        return Problem("event-finished")
    if p.elimination_played and (new.swiss_rounds, new.top_cut) != (p.swiss_rounds, p.top_cut):
        return Problem("plan-cut-made")
    if new.swiss_rounds < p.swiss_played:
        return Problem("plan-rounds-paired", played=p.swiss_played)
    return None
