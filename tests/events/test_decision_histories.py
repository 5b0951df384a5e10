"""Issue 22's property: over random histories of reports, confirmations and corrections, made on the current
version or a stale one, every stored result is what replaying the accepted decisions gives, no decision made
on a stale version is applied, and every change to a finished match is logged and told to both players.

END-3 (corrections), END-4 (reports and confirmations)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Match, Notice
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput, outcome_of
from tests.factories import make_event

pytestmark = pytest.mark.django_db

RECORDS = {
    "a20": ({"winner": "A"}, {"winner": "A"}),
    "a21": ({"winner": "B"}, {"winner": "A"}, {"winner": "A"}),
    "b20": ({"winner": "B"}, {"winner": "B"}),
    "b12": ({"winner": "A"}, {"winner": "B"}, {"winner": "B"}),
}
op = st.one_of(
    st.tuples(st.just("report"), st.sampled_from("ab"), st.sampled_from(sorted(RECORDS))),
    st.tuples(st.just("confirm"), st.sampled_from("ab"), st.booleans()),
    st.tuples(st.just("correct"), st.sampled_from(sorted(RECORDS)), st.booleans()),
)


@dataclass
class Model:
    """What the rules say the table holds after the accepted decisions (END-3, END-4)."""

    status: str = "pending"
    record: str = ""
    last_report: dict[str, str] = field(default_factory=dict)  # side -> record
    last_by: str = ""
    finished_changes: int = 0

    def report(self, side: str, rec: str) -> bool:
        if self.status == "confirmed":
            return False
        other = "b" if side == "a" else "a"
        self.last_report[side], self.last_by = rec, side
        if other not in self.last_report:
            self.status, self.record = "reported", rec
        elif self.last_report[other] == rec:
            self.status, self.record = "confirmed", rec
        else:
            self.status = "disputed"
        return True

    def confirm(self, side: str, stale: bool) -> bool:
        if stale or self.status != "reported" or self.last_by == side:
            return False
        self.status = "confirmed"
        self.last_report[side], self.last_by = self.record, side
        return True

    def correct(self, rec: str, stale: bool) -> bool:
        if stale:
            return False
        self.finished_changes += self.status != "pending"
        self.status, self.record = "confirmed", rec
        return True


def _apply(m: Match, step: tuple[Any, ...], by: Staff) -> bool:
    kind = step[0]
    fresh = Match.objects.select_related("round__event", "player_a", "player_b").get(pk=m.pk)
    try:
        if kind == "report":
            player = fresh.player_a if step[1] == "a" else fresh.player_b
            result_services.report_result(fresh, player=player, result=ResultInput(RECORDS[step[2]]))
        elif kind == "confirm":
            player = fresh.player_a if step[1] == "a" else fresh.player_b
            seen = fresh.version - 1 if step[2] else fresh.version
            before = fresh.version
            out = result_services.confirm_result(fresh, player=player, version=seen)
            return out.version != before
        else:
            seen = fresh.version - 1 if step[2] else fresh.version
            result_services.correct_result(
                fresh, by=by, result=ResultInput(RECORDS[step[1]]), reason="slip misread", version=seen
            )
    except (Conflict, ServiceError):
        return False
    return True


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(op, min_size=1, max_size=8))
def test_random_histories_store_what_the_accepted_decisions_say(organizer: User, steps: list[Any]) -> None:
    event = make_event(organizer, 2)
    by = Staff(organizer)
    m = round_services.pair_next_round(event, by=by).matches.get()
    model = Model()
    for step in steps:
        expected = getattr(model, step[0])(*step[1:])
        applied = _apply(m, step, by)
        assert applied == expected, (step, model)
    stored = Match.objects.get(pk=m.pk)
    assert stored.status == model.status
    if model.status in ("reported", "confirmed"):
        wanted = outcome_of(stored, ResultInput(RECORDS[model.record]))
        assert (stored.result, stored.duel_wins_a, stored.duel_wins_b) == (
            wanted.result,
            wanted.duel_wins_a,
            wanted.duel_wins_b,
        )
    corrected = AuditEntry.objects.filter(action="taikai.match.result_corrected", object_id=str(m.pk)).count()
    assert corrected == sum(1 for s in steps if s[0] == "correct" and not s[2])  # every accepted one, logged
    told = Notice.objects.filter(match=m, kind="result-corrected")
    assert told.count() == 2 * model.finished_changes  # both players, for every change to a finished match
