"""A drawn duel after time on a player's phone (issue 23): the phone hid "time was called" for a drawn duel, so
a Swiss 1 win + 1 drawn duel under time (TIME-S-4: the player with the win wins) could not be reported."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from taikai.events.models import Match, ResultReport
from tests.factories import VenuePage, screenshot
from tests.web.test_phone_browser import _event, _phone, _table_one, _wait_for_stream, organizer  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_time_s_4_a_drawn_duel_under_time_is_reported_from_the_phone(organizer: User, venue_page: VenuePage) -> None:  # noqa: F811
    event, links = _event(organizer)
    m = _table_one(event)
    a = _phone(venue_page, links[m.player_a_id])
    a.locator("details.more summary").click()
    duels = a.locator("fieldset.pduel")
    duels.nth(0).get_by_text("自分の勝ち").click()
    duels.nth(1).get_by_text("引き分け", exact=True).click()
    box = duels.nth(1).locator("input[name=duel2_tc]")
    expect(box).to_be_visible(timeout=10000)
    expect(duels.nth(1).locator(".when-won")).to_contain_text("時間切れ後のエキストラターン中に引き分け")
    expect(duels.nth(1).locator(".if-won")).to_be_hidden()
    box.check()
    screenshot(a, "phone-drawn-duel-under-time")
    _wait_for_stream()
    a.click("form.report button[name=report]")
    sent = "結果を送りました。対戦相手がスマホで確認するのを待っています。"
    expect(a.locator("#answer")).to_have_text(sent, timeout=10000)
    report = ResultReport.objects.get(match=m)
    assert report.record["duels"] == [{"winner": "A"}, {"draw": True, "time_called": True}]
    assert Match.objects.get(pk=m.pk).status == Match.Status.REPORTED
