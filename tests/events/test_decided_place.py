"""A DQ's decided place reads the event's facts once (``events.services.decided_place``, CS 1.2 A, PEN-2): the
progress those facts show (``core.progress.progress_of``) must be the one the console's plan shows, or a DQ
would take the Swiss as over (or not) when the event says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from taikai.core.progress import EventFormat, NextAction, next_action, progress_of
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import progress, round_plan
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.history import event_facts
from tests.factories import A_WINS, make_event

pytestmark = pytest.mark.django_db

PAIRS = (NextAction.PAIR_SWISS, NextAction.TOP_CUT, NextAction.PAIR_ELIMINATION)


def _agree(event: Event) -> NextAction:
    event.refresh_from_db()
    facts = event_facts(event)
    closed = event.status == Event.Status.FINISHED
    shown = progress_of(EventFormat(event.format), round_plan.current(event), facts.rounds, closed=closed)
    planned = progress.plan(event).next_action
    assert next_action(shown) == planned
    return planned


def test_pen_2_the_progress_the_facts_show_is_the_plans_at_every_step(organizer: Any) -> None:
    # PEN-2, CS 1.2 A: before round 1, with each round open and decided, at the top cut, through the bracket.
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=4)
    seen = [_agree(event)]
    while seen[-1] in PAIRS:
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        for m in rnd.matches.filter(is_bye=False):
            seen.append(_agree(event))
            result_services.enter_result(m, by=Staff(organizer), result=A_WINS())
        seen.append(_agree(event))
    assert NextAction.FINISH_ROUND in seen and NextAction.TOP_CUT in seen and seen[-1] == NextAction.FINISHED
