"""Every state change writes an audit entry and bumps the version it has, in one transaction (STYLE habits 1-2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User

from taikai.audit.models import AuditEntry
from taikai.events import actions
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Round, StaffRole, TeamMatch
from taikai.events.services import clock as clock_services
from taikai.events.services import events as event_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.events.services.result_input import ResultInput
from taikai.events.site_roles import ORGANIZERS
from tests.factories import make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "A"}, {"winner": "B"}))


def _entries(action: str, obj: Any) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action, object_type=obj._meta.label_lower, object_id=str(obj.pk)))


def _team_event(organizer: User) -> Event:
    event = make_event(organizer, 0, is_team_event=True)
    for t in range(2):
        team_services.register_team(
            event,
            by=Staff(organizer),
            name=f"チーム{t}",
            members=[{"name": f"T{t}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")],
        )
    return event


def test_a_decided_team_match_is_logged_with_its_result(organizer: User) -> None:
    event = _team_event(organizer)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    tm = rnd.team_matches.get()
    a, b, c = tm.seats.order_by("seat")
    result_services.enter_result(a, by=Staff(organizer), result=A_WINS)
    result_services.enter_result(b, by=Staff(organizer), result=B_WINS)
    assert _entries(actions.TEAM_MATCH_SETTLED, tm) == []  # one seat still open: nothing decided
    result_services.enter_result(c, by=Staff(organizer), result=A_WINS)
    [settled] = _entries(actions.TEAM_MATCH_SETTLED, tm)
    assert settled.event_id == event.pk
    assert settled.before == {"result": ""}
    assert settled.after == {"result": "a", "seats": {"A": "a", "B": "b", "C": "a"}}


def test_a_correction_that_turns_the_team_match_is_logged_and_one_that_does_not_is_not(organizer: User) -> None:
    event = _team_event(organizer)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    tm = rnd.team_matches.get()
    a, b, c = tm.seats.order_by("seat")
    for seat, result in ((a, A_WINS), (b, A_WINS), (c, B_WINS)):
        result_services.enter_result(seat, by=Staff(organizer), result=result)
    result_services.correct_result(c, by=Staff(organizer), result=A_WINS, reason="slip misread")  # still "a"
    assert len(_entries(actions.TEAM_MATCH_SETTLED, tm)) == 1
    result_services.correct_result(a, by=Staff(organizer), result=B_WINS, reason="slip misread")
    result_services.correct_result(b, by=Staff(organizer), result=B_WINS, reason="slip misread")
    assert TeamMatch.objects.get(pk=tm.pk).result == "b"
    last = _entries(actions.TEAM_MATCH_SETTLED, tm)[-1]
    assert (last.before, last.after["result"]) == ({"result": "a"}, "b")


def test_confirming_the_last_table_finishes_the_round_and_bumps_its_version(organizer: User) -> None:
    event = make_event(organizer, 4, swiss_rounds=2)
    rnd = clock_services.start_round(round_services.pair_next_round(event, by=Staff(organizer)), by=Staff(organizer))
    first, last = rnd.matches.order_by("table")
    result_services.enter_result(first, by=Staff(organizer), result=A_WINS)
    assert Round.objects.get(pk=rnd.pk).version == rnd.version  # a table still open: the round is unchanged
    result_services.enter_result(last, by=Staff(organizer), result=A_WINS)
    finished = Round.objects.get(pk=rnd.pk)
    assert finished.status == Round.Status.FINISHED and finished.version == rnd.version + 1
    [entry] = _entries(actions.ROUND_FINISHED, rnd)
    assert entry.before == {"status": rnd.status, "version": rnd.version}
    assert entry.after == {"status": Round.Status.FINISHED, "version": rnd.version + 1}
    with pytest.raises(Conflict):  # the console's clock form still carries the version it was drawn with
        clock_services.pause_round(rnd, by=Staff(organizer), version=rnd.version)
    assert Event.objects.get(pk=event.pk).status != Event.Status.FINISHED  # round 2 is still to play


def test_the_last_round_finishes_the_event_and_bumps_its_version(organizer: User) -> None:
    event = make_event(organizer, 2, swiss_rounds=1)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    version = Event.objects.get(pk=event.pk).version
    result_services.enter_result(rnd.matches.get(), by=Staff(organizer), result=B_WINS)
    done = Event.objects.get(pk=event.pk)
    assert done.status == Event.Status.FINISHED and done.version == version + 1
    [entry] = _entries(actions.EVENT_FINISHED, event)
    assert entry.after == {"status": Event.Status.FINISHED, "version": version + 1}


def test_adding_staff_creates_the_account_and_the_role_together(organizer: User) -> None:
    event = make_event(organizer, 0)
    staff = event_services.add_staff(
        event, by=Staff(organizer), username="judge_new", role=StaffRole.Role.JUDGE, password="correct-horse-battery"
    )
    assert staff.user.username == "judge_new" and staff.role == StaffRole.Role.JUDGE
    assert _entries(actions.STAFF_ACCOUNT_CREATED, staff.user) and _entries(actions.STAFF_ASSIGNED, staff)


def test_adding_staff_with_a_refused_role_leaves_no_account(organizer: User) -> None:
    event = make_event(organizer, 0)
    with pytest.raises(ServiceError) as exc:
        event_services.add_staff(
            event, by=Staff(organizer), username="judge_new", role="boss", password="correct-horse-9"
        )
    assert exc.value.problem.code == "bad-choice"
    assert not get_user_model().objects.filter(username="judge_new").exists()
    assert not AuditEntry.objects.filter(action=actions.STAFF_ACCOUNT_CREATED).exists()


def test_an_organizer_of_another_event_cannot_leave_an_account_behind(organizer: User) -> None:
    # A site organizer may create accounts, but only this event's organizer may give its roles: the account
    # that the first step would create goes with the refused second step.
    event = make_event(organizer, 0)
    other = get_user_model().objects.create_user(username="other_org", password="x")
    other.groups.add(Group.objects.get_or_create(name=ORGANIZERS)[0])
    with pytest.raises(ServiceError) as exc:
        event_services.add_staff(
            event, by=Staff(other), username="judge_new", role=StaffRole.Role.JUDGE, password="correct-horse-battery"
        )
    assert exc.value.problem.code == "not-organizer"
    assert not get_user_model().objects.filter(username="judge_new").exists()
    assert not StaffRole.objects.filter(event=event, user__username="judge_new").exists()
