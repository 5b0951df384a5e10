"""The event's log in a real browser (issue 22): the head judge on a phone (390×844, ja-JP) finds a corrected
table with the filters and reads its before and after in words; the organizer at a desk; a player opens the
changes at their own table from their page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, ViewportSize

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.services import links
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import ARTIFACTS, PHONE, NewPage, SitePage, screenshot
from tests.web.log_world import World

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DESK = ViewportSize(width=1440, height=900)


def _world() -> World:
    ensure_first_organizer()
    return World(get_user_model().objects.get(username="organizer"))


def _signed_in(new_page: NewPage, user: User, viewport: ViewportSize) -> SitePage:
    client = Client()
    client.force_login(user)
    page = new_page(viewport=viewport, locale="ja-JP")
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": page.base_url}])
    return page


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def test_the_head_judge_finds_a_correction_on_a_phone(new_page: NewPage) -> None:
    world = _world()
    a, b = world.corrected.player_a.name, world.corrected.player_b.name
    page = _signed_in(new_page, world.head, PHONE)
    page.goto(f"{page.base_url}/events/{world.event.pk}/judging/penalties/")
    page.locator("nav.subnav").get_by_role("link", name="変更履歴").click()  # the head judge's menu leads there
    page.wait_for_url("**/log/")
    assert page.locator("h1").inner_text() == "変更履歴"
    page.select_option("select[name=round]", "1")
    page.fill("input[name=table]", str(world.corrected.table))
    page.get_by_role("button", name="表示").click()
    page.wait_for_url("**/log/?*table=*")
    card = page.locator("li.log-entry[data-action='taikai.match.result_corrected']")
    assert card.locator(".log-text").inner_text() == "結果を訂正"
    assert card.locator(".log-subject").inner_text() == f"第1ラウンド {world.corrected.table}番卓"
    result = card.locator(".log-change[data-field=result]")
    assert result.locator(".before").inner_text() == f"{a} の勝ち 2–1"
    assert result.locator(".after").inner_text() == f"{b} の勝ち 2–0"
    assert "伝票の読み違い" in card.locator(".log-reason").inner_text()
    actions = page.locator("li.log-entry").evaluate_all("els => els.map(e => e.dataset.action)")
    # Newest first, that table only: the judges' flag on a change after confirmation, the correction, the entry.
    assert actions == [
        "taikai.judging.integrity_flagged",
        "taikai.match.result_corrected",
        "taikai.match.result_entered",
    ]
    _fits(page)
    assert page.locator("select[name=round]").bounding_box()["height"] >= 44
    screenshot(page, "log-head-judge-phone-390")


def test_the_organizer_reads_the_whole_log_at_a_desk(new_page: NewPage) -> None:
    world = _world()
    page = _signed_in(new_page, world.organizer, DESK)
    page.goto(f"{page.base_url}/events/{world.event.pk}/")
    page.locator("nav.subnav").get_by_role("link", name="変更履歴").click()
    page.wait_for_url("**/log/")
    total = AuditEntry.objects.filter(event_id=world.event.pk).count()
    assert page.locator("li.log-entry").count() == min(total, 50)
    assert page.locator(".log-count").inner_text() == f"{total} 件（新しい順）"
    first = page.locator("li.log-entry").first  # newest first: the last table entered
    assert first.get_attribute("data-action") == "taikai.match.result_entered"
    _fits(page)
    screenshot(page, "log-organizer-desk-1440")
    page.screenshot(path=str(ARTIFACTS / "log-organizer-desk-1440-top.png"))  # what the desk sees first


def test_a_player_opens_the_changes_at_their_table_from_their_page(new_page: NewPage) -> None:
    world = _world()
    token = links.issue_access(world.me, by=Staff(world.organizer))
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(f"{page.base_url}/p/{token}/")
    page.locator("details.more-actions > summary").click()  # under その他
    page.get_by_role("link", name="自分の卓の変更履歴").click()
    page.wait_for_url(f"**/p/{token}/log/")
    actions = page.locator("li.log-entry").evaluate_all("els => els.map(e => e.dataset.action)")
    assert actions == ["taikai.match.result_corrected", "taikai.match.result_entered"]
    assert page.locator("select[name=player]").count() == 0  # a player reads their own tables only
    _fits(page)
    screenshot(page, "log-player-phone-390")
