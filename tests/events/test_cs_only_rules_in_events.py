"""The CS-only rules in an event (issue 23). PEN-6 (CS 3): a CS event with no head judge can give no
disqualification; the organizer's console says so until one is named. Under the official rules alone any judge
disqualifies (no warning), and no time is added (TIME-4 is CS 3.1)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import StaffRole
from taikai.events.services import events as event_services
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _console(organizer: User, event_id: int) -> str:
    client = Client()
    client.force_login(organizer)
    client.cookies["taikai_language"] = "ja"
    response = client.get(f"/events/{event_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_pen_6_the_console_warns_until_a_head_judge_is_named(organizer: User) -> None:
    event = make_event(organizer, 4, ruleset_name="harajuku-cs-1.2")
    page = _console(organizer, event.pk)
    assert 'id="head-judge-warning"' in page
    assert "ヘッドジャッジを決めるまで、失格を与えることはできません" in page
    event_services.add_staff(
        event, by=Staff(organizer), username="head", role=StaffRole.Role.HEAD_JUDGE, password="head-pass-2026"
    )
    assert 'id="head-judge-warning"' not in _console(organizer, event.pk)


def test_pen_6_an_organizer_who_is_the_head_judge_is_one(organizer: User) -> None:
    event = make_event(organizer, 4)
    StaffRole.objects.filter(event=event, user=organizer).update(role=StaffRole.Role.ORGANIZER_HEAD_JUDGE)
    assert 'id="head-judge-warning"' not in _console(organizer, event.pk)


def test_pen_6_under_the_official_rules_alone_no_head_judge_is_needed(organizer: User) -> None:
    event = make_event(organizer, 4, ruleset_name="dkt-2011")
    assert 'id="head-judge-warning"' not in _console(organizer, event.pk)


def test_time_4_under_the_official_rules_alone_no_time_is_added(organizer: User) -> None:
    # TIME-4 is CS 3.1's: OFF has no rule for adding time, so no path adds any (the rules page says so)
    from taikai import messages
    from taikai.events.errors import ServiceError
    from taikai.events.services import clock as clock_services
    from taikai.events.services import rounds as round_services

    event = make_event(organizer, 4, ruleset_name="dkt-2011")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    match = rnd.matches.filter(is_bye=False).first()
    with pytest.raises(ServiceError) as exc:
        clock_services.extend_time(match, by=Staff(organizer), seconds=120, reason="裁定", ruling_seconds=180)
    assert exc.value.problem.code == "extension-not-in-ruleset"
    assert "対戦時間を追加する規定がありません" in messages.text(exc.value.problem, "ja")
    match.refresh_from_db()
    assert match.extension_seconds == 0
