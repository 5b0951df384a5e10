"""Issue 22 on a phone (390×844, ja-JP): a confirmation from a page older than the report is not applied and
says what the report is now; a penalty duel stays through the one-tap buttons and the page says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from taikai.events.actors import Staff
from taikai.events.models import Match, StaffRole
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.services import penalties as penalty_services
from tests.factories import PHONE, VenuePage, screenshot, staff
from tests.web.test_phone_browser import _event, _phone, _table_one, organizer  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWO_ONE = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
TWO_NIL = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _hold_live_updates(page: Page, token: str) -> None:
    """The phone's connection drops the live updates (as venue Wi-Fi does); its taps still reach the server."""
    page.route("**/stream", lambda route: route.abort())

    def handler(route: Any) -> None:
        if route.request.headers.get("x-requested-with") == "taikai-live":
            route.abort()
        else:
            route.continue_()

    page.route(f"**/p/{token}/", handler)


def test_a_stale_confirmation_is_refused_in_words_and_the_new_report_confirmed(
    venue_page: VenuePage,
    organizer: User,  # noqa: F811
) -> None:  # END-4
    event, links = _event(organizer)
    match = _table_one(event)
    result_services.report_result(match, player=match.player_a, result=TWO_ONE)
    page = _phone(venue_page, links[match.player_b_id])
    expect(page.locator(".card.confirm")).to_contain_text("1–2")
    _hold_live_updates(page, links[match.player_b_id])
    result_services.report_result(match, player=match.player_a, result=TWO_NIL)  # A changes it meanwhile
    page.get_by_role("button", name="確認する").click()
    answer = page.locator("#answer")
    expect(answer).to_contain_text("対戦相手が報告を")
    expect(answer).to_contain_text("2–0")
    screenshot(page, "issue22-stale-confirm-phone")
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED  # not confirmed unseen
    page.unroute("**/stream")
    page.unroute(f"**/p/{links[match.player_b_id]}/")
    page.reload()
    expect(page.locator(".card.confirm")).to_contain_text("0–2")
    page.get_by_role("button", name="確認する").click()
    expect(page.locator("#match-status")).to_contain_text("確定した結果")
    m = Match.objects.get(pk=match.pk)
    assert (m.status, m.duel_wins_a, m.duel_wins_b) == (Match.Status.CONFIRMED, 2, 0)


def test_a_penalty_duel_survives_the_one_tap_reports(venue_page: VenuePage, organizer: User) -> None:  # noqa: F811  PEN-1
    event, links = _event(organizer)
    match = _table_one(event)
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    penalty_services.issue_penalty(event, by=Staff(judge), player=match.player_a, infraction="INF-14", prior_duels=[])
    a = _phone(venue_page, links[match.player_a_id])
    expect(a.locator(".card.notice")).to_contain_text("第1デュエルは罰則（デュエルの敗北）により")
    quick = a.locator(".quick")
    expect(quick.locator('button[value="win-2-1"]')).to_be_visible()
    assert quick.locator('button[value="win-2-0"]').count() == 0  # it would erase the penalty duel
    screenshot(a, "issue22-penalty-duel-phone")
    a.locator('button[value="win-2-1"]').click()
    expect(a.locator("#answer")).to_contain_text("結果を送りました")
    b = _phone(venue_page, links[match.player_b_id])
    expect(b.locator(".card.confirm")).to_contain_text("1–2")  # the opponent's report, penalty duel included
    b.get_by_role("button", name="確認する").click()
    expect(b.locator("#match-status")).to_contain_text("確定した結果")
    m = Match.objects.get(pk=match.pk)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "a") and m.record["duels"][0] == {"winner": "B"}


assert PHONE["width"] == 390
