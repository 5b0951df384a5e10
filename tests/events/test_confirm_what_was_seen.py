"""Issue 22, finding 1: a confirmation confirms the report the player saw, never a later one (END-4)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.errors import Conflict
from taikai.events.models import Match
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from tests.events.test_player_page import _paired

pytestmark = pytest.mark.django_db

TWO_ONE = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
TWO_NIL = ResultInput(({"winner": "A"}, {"winner": "A"}))
JSON = {"Accept": "application/json"}


def _client() -> Client:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    return client


def _seen_version(client: Client, token: str) -> int:
    page = client.get(f"/p/{token}/").content.decode()
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "the confirm form carries the version the player sees"
    return int(found.group(1))


def test_a_report_changed_after_the_opponent_saw_it_is_not_confirmed(organizer: User) -> None:  # END-4
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


def test_the_stale_page_says_what_the_opponent_changed_it_to(organizer: User) -> None:  # END-4
    match, token_a, token_b = _paired(organizer)
    client = _client()
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-1", "match": match.pk}, headers=JSON)
    seen = _seen_version(client, token_b)
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-0", "match": match.pk}, headers=JSON)
    r = client.post(f"/p/{token_b}/confirm/", {"version": seen}, headers=JSON)
    assert r.status_code == 409
    name = match.player_a.name
    assert r.json() == {
        "ok": False,
        "message": f"対戦相手が報告を「{name} の勝ち 2–0」に変えました。"
        "確かめて、正しければもう一度「確認する」を押してください。",
    }
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED
    r = client.post(f"/p/{token_b}/confirm/", {"version": _seen_version(client, token_b)}, headers=JSON)
    assert r.status_code == 200 and r.json()["ok"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_a_confirmation_without_a_version_is_not_applied(organizer: User) -> None:  # END-4
    match, token_a, token_b = _paired(organizer)
    client = _client()
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-1", "match": match.pk}, headers=JSON)
    r = client.post(f"/p/{token_b}/confirm/", {}, headers=JSON)
    assert r.status_code == 409 and "2–1" in r.json()["message"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


def test_a_retried_confirmation_is_answered_as_done(organizer: User) -> None:  # END-4, idempotent retries
    match, _, _ = _paired(organizer)
    seen = result_services.report_result(match, player=match.player_a, result=TWO_ONE).version
    result_services.confirm_result(match, player=match.player_b, version=seen)
    again = result_services.confirm_result(match, player=match.player_b, version=seen)  # the answer was lost
    assert again.status == Match.Status.CONFIRMED and again.reports.count() == 2


# A report carries the version the player saw too (issue 29: the follower's reports, made on a copy that may be
# behind): one made on a table that changed since is refused, nothing recorded, and the player is told why.


def test_a_report_on_a_version_the_player_never_saw_is_refused_and_records_nothing(organizer: User) -> None:  # END-4
    match, _, _ = _paired(organizer)
    seen = match.version  # B's page: the table still to report
    result_services.report_result(match, player=match.player_a, result=TWO_NIL)  # A reports first, meanwhile
    with pytest.raises(Conflict) as refused:
        result_services.report_result(match, player=match.player_b, result=TWO_NIL, version=seen)
    current = Match.objects.get(pk=match.pk)
    assert refused.value.problem.code == "conflict" and refused.value.problem.params["version"] == current.version
    # Not confirmed by a report of what B never saw: A's report stands alone, waiting for B to confirm it.
    assert current.status == Match.Status.REPORTED and current.reports.filter(by_player=match.player_b).count() == 0
    m = result_services.report_result(match, player=match.player_b, result=TWO_NIL, version=current.version)
    assert m.status == Match.Status.CONFIRMED


def test_a_report_on_the_version_seen_is_applied_and_its_retry_answered_as_done(organizer: User) -> None:  # END-4
    match, _, _ = _paired(organizer)
    seen = match.version
    m = result_services.report_result(match, player=match.player_a, result=TWO_NIL, idempotency_key="k", version=seen)
    assert m.status == Match.Status.REPORTED and m.version == seen + 1
    # The answer was lost: the same report under the same key, on the version it was made on, is not a conflict.
    again = result_services.report_result(
        match, player=match.player_a, result=TWO_NIL, idempotency_key="k", version=seen
    )
    assert again.version == m.version and again.reports.count() == 1


def test_a_report_on_a_table_a_judge_changed_since_is_refused(organizer: User) -> None:  # END-4, TIME-4
    from taikai.events.actors import Staff
    from taikai.events.services.clock import extend_time

    match, _, _ = _paired(organizer)
    seen = match.version
    extend_time(match, by=Staff(organizer), seconds=60, reason="ruling", ruling_seconds=60)
    with pytest.raises(Conflict):
        result_services.report_result(match, player=match.player_a, result=TWO_NIL, version=seen)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING


def test_a_stale_report_is_told_what_the_table_holds_now(organizer: User) -> None:  # END-4
    from django.utils import translation

    from taikai.events.actors import Staff
    from taikai.events.result_words import stale_report_text

    match, _, _ = _paired(organizer)
    a, b = match.player_a, match.player_b
    pending = Match.objects.get(pk=match.pk)
    reported = result_services.report_result(match, player=a, result=TWO_NIL)
    final = result_services.enter_result(reported, by=Staff(organizer), result=TWO_ONE)
    with translation.override("ja"):
        assert stale_report_text(pending, b).startswith("このページを開いた後に、この卓が変わりました")
        assert stale_report_text(reported, b) == (
            f"対戦相手が先に「{a.name} の勝ち 2–0」と報告しました。"
            "確かめて、正しければ「確認する」を押してください。違うときは、自分で報告してください。"
        )
        assert (
            stale_report_text(reported, a)
            == f"あなたの報告「{a.name} の勝ち 2–0」は届いています。対戦相手の確認を待っています。"
        )
        assert stale_report_text(final, b) == f"この結果はすでに確定しています: {a.name} の勝ち 2–1。"
    with translation.override("en"):
        assert stale_report_text(reported, b) == (
            f"Your opponent reported first: {a.name} wins 2–0. Check it, and if it is right, press Confirm; "
            "if not, report what happened yourself."
        )
