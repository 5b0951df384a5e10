"""What comes next in an event (進行): pair a Swiss round, make the top cut, pair the bracket, or stop.

A pure decision from a few facts the services gather; the console shows it and ``pair_next_round``
does it, so both always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
