"""The judges' queue fills when things happen, whichever edge they came through (END-2), not when it is opened."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

import taikai.events
from taikai.audit.models import AuditEntry
from taikai.events import signals
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall
from taikai.judging.services import penalties
from taikai.tokens.services import create_token
from tests.factories import A_WINS, fresh, make_event, pair

pytestmark = pytest.mark.django_db

ID = ResultInput(basis="intentional-draw")
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


def flags(event: Event, topic: str) -> list[JudgeCall]:
    return list(JudgeCall.objects.filter(event=event, source=JudgeCall.Source.INTEGRITY, topic=topic))


@pytest.fixture
def elimination(organizer: User) -> tuple[Event, Match, str]:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    tokens = {p.pk: links.issue_access(p, by=Staff(organizer)) for p in event.players.all()}
    match = pair(event, organizer)[0]
    return event, match, tokens[match.player_a_id]


def assert_refused_and_flagged(event: Event, match: Match) -> None:
    m = fresh(match)
    assert (m.status, m.result, m.version) == (Match.Status.PENDING, match.result, match.version)  # nothing recorded
    [call] = flags(event, "id-in-elimination")
    assert call.match_id == match.pk and call.status == JudgeCall.Status.OPEN
    assert AuditEntry.objects.filter(action="taikai.judging.integrity_flagged", object_id=str(call.pk)).exists()


def test_an_intentional_draw_reported_on_the_players_page_is_flagged(elimination: tuple[Event, Match, str]) -> None:
    # END-2, MATCH-2: refused in single elimination, and the judges hear of it
    event, match, token = elimination
    response = Client().post(f"/p/{token}/report/", {"basis": "intentional-draw"})
    assert response.status_code == 302
    assert_refused_and_flagged(event, match)
    assert match.player_a.name in flags(event, "id-in-elimination")[0].description


def test_an_intentional_draw_reported_through_the_api_is_flagged(elimination: tuple[Event, Match, str]) -> None:
    # END-2: the same refusal from a player's app
    event, match, token = elimination
    response = Client().post(
        f"/api/v1/events/{event.pk}/matches/{match.pk}/result",
        data=json.dumps({"duels": [], "basis": "intentional-draw"}),
        content_type="application/json",
        headers={"X-Player-Token": token},
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "id-not-in-elimination"
    assert_refused_and_flagged(event, match)


def test_an_intentional_draw_entered_by_staff_through_the_api_is_flagged(
    elimination: tuple[Event, Match, str], organizer: User
) -> None:
    # END-2: staff typing the players' claimed draw from the slip
    event, match, _token = elimination
    _row, bearer = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")
    response = Client().post(
        f"/api/v1/events/{event.pk}/matches/{match.pk}/result",
        data=json.dumps({"duels": [], "basis": "intentional-draw"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {bearer}"},
    )
    assert response.status_code == 400
    assert_refused_and_flagged(event, match)


def test_an_intentional_draw_entered_on_the_staff_result_page_is_flagged(
    elimination: tuple[Event, Match, str], organizer: User
) -> None:
    # END-2
    event, match, _token = elimination
    client = Client()
    client.force_login(organizer)
    response = client.post(f"/events/{event.pk}/matches/{match.pk}/result/", {"basis": "intentional-draw"})
    assert response.status_code == 200  # the form again, with the refusal
    assert_refused_and_flagged(event, match)


def test_both_players_trying_the_same_draw_is_one_flag(elimination: tuple[Event, Match, str]) -> None:
    # END-2
    event, match, _token = elimination
    for player in (match.player_a, match.player_b):
        with pytest.raises(ServiceError):
            result_services.report_result(match, player=player, result=ID)
    assert len(flags(event, "id-in-elimination")) == 1


def test_a_refusal_for_another_reason_is_not_announced(elimination: tuple[Event, Match, str]) -> None:
    event, match, _token = elimination
    heard: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        heard.append(kwargs)

    signals.intentional_draw_attempted.connect(listen)
    try:
        with pytest.raises(ServiceError):
            result_services.report_result(match, player=match.player_a, result=ResultInput())
        with pytest.raises(ServiceError):
            result_services.report_result(match, player=match.player_a, result=ID)
    finally:
        signals.intentional_draw_attempted.disconnect(listen)
    assert [h["match_id"] for h in heard] == [match.pk] and heard[0]["player_id"] == match.player_a_id


def test_a_dispute_is_in_the_queue_as_soon_as_the_reports_disagree(event: Event, organizer: User) -> None:
    # END-4: nobody has opened the queue page; the flag is there already
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS())
    assert flags(event, "disputed") == []
    result_services.report_result(m, player=m.player_b, result=B_WINS)
    [call] = flags(event, "disputed")
    assert call.match_id == m.pk and call.table == m.table


def test_a_change_after_confirmation_is_flagged_when_it_is_made(event: Event, organizer: User) -> None:
    # END-3: a staff correction of a confirmed result goes to the judges; one of a reported result does not
    confirmed, reported = pair(event, organizer)[:2]
    result_services.enter_result(confirmed, by=Staff(organizer), result=A_WINS())
    result_services.report_result(reported, player=reported.player_a, result=A_WINS())
    result_services.correct_result(reported, by=Staff(organizer), result=B_WINS, reason="the players agreed")
    assert flags(event, "changed-after-confirmation") == []
    result_services.correct_result(confirmed, by=Staff(organizer), result=B_WINS, reason="slip misread")
    [call] = flags(event, "changed-after-confirmation")
    assert (call.match_id, call.description) == (confirmed.pk, "slip misread")
    result_services.correct_result(confirmed, by=Staff(organizer), result=A_WINS(), reason="misread again")
    assert len(flags(event, "changed-after-confirmation")) == 2  # every change, once each


def test_a_penalty_changing_a_confirmed_result_is_not_flagged(event: Event, organizer: User, head: User) -> None:
    # PEN-1: the judges made that change themselves
    m = pair(event, organizer)[0]
    result_services.enter_result(m, by=Staff(organizer), result=A_WINS())
    penalties.issue_penalty(event, by=Staff(head), player=m.player_a, infraction="INF-7")  # DQ: its effects apply
    assert flags(event, "changed-after-confirmation") == []


def test_a_rolled_back_service_announces_nothing(event: Event, organizer: User) -> None:
    # on commit: a report that fails after its signal was queued is never heard
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS())
    heard: list[Any] = []
    signals.result_disputed.connect(heard.append)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            result_services.report_result(m, player=m.player_b, result=B_WINS)
            raise RuntimeError("the request failed after the service")
    finally:
        signals.result_disputed.disconnect(heard.append)
    assert heard == [] and flags(event, "disputed") == []


def test_opening_the_queue_writes_nothing(event: Event, organizer: User, judge: User) -> None:
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS())
    result_services.report_result(m, player=m.player_b, result=B_WINS)
    client = Client()
    client.force_login(judge)
    calls, entries = JudgeCall.objects.count(), AuditEntry.objects.count()
    assert calls == 1  # the dispute, flagged when it happened
    response = client.get(f"/events/{event.pk}/judging/")
    assert response.status_code == 200 and [c.topic for c in response.context["calls"]] == ["disputed"]
    assert (JudgeCall.objects.count(), AuditEntry.objects.count()) == (calls, entries)


def test_the_events_app_announces_and_does_not_reach_into_judging_or_decks() -> None:
    # STYLE 12: events sends signals; judging and decks subscribe
    root = Path(taikai.events.__file__).parent
    reaching = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            rel = path.relative_to(root).as_posix()
            for name in names:
                if name.startswith(("taikai.judging", "taikai.decks")):
                    reaching.append(f"{rel}: {name}")
    assert reaching == []
