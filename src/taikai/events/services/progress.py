"""What comes next in an event: the facts gathered from the database; ``taikai.core.progress`` decides.

Its own module because both the pairing (``rounds``) and the end of a round (``round_end``: the event ends when
nothing is left to pair) ask it.
"""

from __future__ import annotations

from dataclasses import dataclass

from taikai.core import progress
from taikai.core import sheet as core_sheet
from taikai.core.progress import NextAction
from taikai.events.models import Event, Match, Round
from taikai.events.services import round_plan
from taikai.events.services.history import round_facts


@dataclass(frozen=True)
class Plan:
    """What the organizer can do next, for the console."""

    next_action: NextAction
    swiss_rounds: int
    swiss_played: int
    top_cut: int
    open_tables: int


def plan(event: Event) -> Plan:
    """Gather the facts; taikai.core.progress decides what comes next."""
    rounds = list(event.rounds.all())
    last = rounds[-1] if rounds else None
    open_tables = last.matches.exclude(status=Match.Status.CONFIRMED).count() if last is not None else 0
    bracket = [r for r in rounds if r.stage == Round.Stage.ELIMINATION]
    decided = round_plan.current(event)
    swiss_rounds, cut = decided.swiss_rounds, decided.top_cut
    facts = progress.Progress(
        format=progress.EventFormat(event.format),
        swiss_rounds=swiss_rounds,
        top_cut=cut,
        swiss_played=len(rounds) - len(bracket),
        elimination_played=len(bracket),
        last_round_complete=open_tables == 0,
        advancing=len(core_sheet.advancing(round_facts(bracket[-1]))) if bracket else 0,
        closed=event.status == Event.Status.FINISHED,
    )
    return Plan(progress.next_action(facts), swiss_rounds, facts.swiss_played, cut, open_tables)
