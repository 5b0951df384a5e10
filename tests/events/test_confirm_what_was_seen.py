"""Issue 22, finding 1: a confirmation confirms the report the player saw, never a later one (END-4)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from taikai.events.errors import Conflict
from taikai.events.models import Match
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from tests.events.test_player_page import _paired

pytestmark = pytest.mark.django_db

TWO_ONE = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
TWO_NIL = ResultInput(({"winner": "A"}, {"winner": "A"}))
JSON = {"HTTP_ACCEPT": "application/json"}


def _client() -> Client:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    return client


def _seen_version(client: Client, token: str) -> int:
    page = client.get(f"/p/{token}/").content.decode()
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "the confirm form carries the version the player sees"
    return int(found.group(1))


def test_a_report_changed_after_the_opponent_saw_it_is_not_confirmed(organizer: Any) -> None:  # END-4
    match, _, _ = _paired(organizer)
    a, b = match.player_a, match.player_b
    seen = result_services.report_result(match, player=a, result=TWO_ONE).version  # B's page shows 2–1
    result_services.report_result(match, player=a, result=TWO_NIL)  # A changes it to 2–0
    with pytest.raises(Conflict) as refused:
        result_services.confirm_result(match, player=b, version=seen)
    current = Match.objects.get(pk=match.pk)
    assert refused.value.problem.params["version"] == current.version
    assert current.status == Match.Status.REPORTED and (current.duel_wins_a, current.duel_wins_b) == (2, 0)
    # B decides again, on the version now shown: 2–0 is confirmed
    m = result_services.confirm_result(match, player=b, version=current.version)
    assert m.status == Match.Status.CONFIRMED and (m.duel_wins_a, m.duel_wins_b) == (2, 0)


def test_the_stale_page_says_what_the_opponent_changed_it_to(organizer: Any) -> None:  # END-4
    match, token_a, token_b = _paired(organizer)
    client = _client()
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-1", "match": match.pk}, **JSON)
    seen = _seen_version(client, token_b)
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-0", "match": match.pk}, **JSON)
    r = client.post(f"/p/{token_b}/confirm/", {"version": seen}, **JSON)
    assert r.status_code == 409
    name = match.player_a.name
    assert r.json() == {
        "ok": False,
        "message": f"対戦相手が報告を「{name} の勝ち 2–0」に変えました。"
        "確かめて、正しければもう一度「確認する」を押してください。",
    }
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED
    r = client.post(f"/p/{token_b}/confirm/", {"version": _seen_version(client, token_b)}, **JSON)
    assert r.status_code == 200 and r.json()["ok"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_a_confirmation_without_a_version_is_not_applied(organizer: Any) -> None:  # END-4
    match, token_a, token_b = _paired(organizer)
    client = _client()
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-1", "match": match.pk}, **JSON)
    r = client.post(f"/p/{token_b}/confirm/", {}, **JSON)
    assert r.status_code == 409 and "2–1" in r.json()["message"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


def test_a_retried_confirmation_is_answered_as_done(organizer: Any) -> None:  # END-4, idempotent retries
    match, _, _ = _paired(organizer)
    seen = result_services.report_result(match, player=match.player_a, result=TWO_ONE).version
    result_services.confirm_result(match, player=match.player_b, version=seen)
    again = result_services.confirm_result(match, player=match.player_b, version=seen)  # the answer was lost
    assert again.status == Match.Status.CONFIRMED and again.reports.count() == 2
