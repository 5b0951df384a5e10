"""The desk prints slips on a phone (390x844, ja-JP) (issue 22, finding 8): printing all slips twice leaves the
first slips working, reprinting one keeps its link, and re-issuing a link kills the old one only once confirmed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django import Settings

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services
from taikai.events.services import registration
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PHONE, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [("山田 太郎", "やまだ たろう"), ("阿部 花子", "あべ はなこ"), ("鈴木 一郎", "すずき いちろう")]


def _desk(new_page: NewPage, settings: Settings) -> tuple[Any, Event]:
    from django.contrib.auth import get_user_model

    username, _password = ensure_first_organizer() or ("organizer", "")
    user = get_user_model().objects.get(username=username)
    user.set_password("desk-password-42")
    user.save()
    event = event_services.create_event(
        by=Staff(user), name="案内票テスト杯", date=dt.date(2026, 12, 6), ruleset_name="harajuku-cs-1.2"
    )
    for i, (name, kana) in enumerate(NAMES):
        player = registration.register_player(
            event, by=Staff(user), name=name, name_kana=kana, card_game_id=f"{4000000000 + i}"
        )
        registration.check_in(player, by=Staff(user))
    page = new_page(viewport=PHONE, locale="ja-JP")
    settings.TAIKAI_PUBLIC_URL = page.base_url  # the slips' links open on this test server
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "desk-password-42")
    page.click("button.primary")
    return page, event


def _slip_links(page: Page) -> dict[str, str]:
    links = {}
    for slip in page.locator(".slips .slip").all():
        links[slip.locator("p.big").inner_text()] = slip.locator("a.player-link").get_attribute("href")
    return links


def _opens(new_page: NewPage, url: str) -> bool:
    """Whether the link opens a player page, on another phone (the player's own)."""
    phone = new_page(viewport=PHONE, locale="ja-JP")
    response = phone.goto(url)
    return bool(response.status == 200 and "この個人用リンクは使えません" not in phone.locator("body").inner_text())


def test_printing_all_slips_twice_keeps_the_first_slips_working(new_page: NewPage, settings: Settings) -> None:
    page, event = _desk(new_page, settings)
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-all-slips")
    expect(page.locator(".slips .slip")).to_have_count(3)
    expect(page.locator("#slips-summary")).to_contain_text("0 人に新しいリンクを発行、3 人は今のリンクのまま。")
    first = _slip_links(page)
    screenshot(page, "slips-print-all-phone")

    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-all-slips")
    expect(page.locator(".slips .slip")).to_have_count(3)
    assert _slip_links(page) == first
    assert all(_opens(new_page, url) for url in first.values())  # the slips handed out first still open


def test_reprinting_one_slip_keeps_its_link_and_re_issuing_asks_first(new_page: NewPage, settings: Settings) -> None:
    page, event = _desk(new_page, settings)
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-all-slips")
    old = _slip_links(page)["山田 太郎"]

    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.locator("#player-table tr", has_text="山田 太郎").locator("button.print-slip").click()
    expect(page.locator(".slips .slip")).to_have_count(1)
    expect(page.locator("#slips-summary")).to_contain_text("前と同じリンク")
    assert _slip_links(page) == {"山田 太郎": old}
    screenshot(page, "slips-reprint-one-phone")

    # A lost phone: re-issuing says whose link stops working, and nothing changes until confirmed.
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.locator("#player-table tr", has_text="山田 太郎").locator("button.reissue-link").click()
    expect(page.locator("#confirm-title")).to_contain_text("山田 太郎")
    expect(page.locator(".confirm")).to_contain_text("今のリンクと QR コードは使えなくなります")
    screenshot(page, "slips-reissue-confirm-phone")
    page.click("#confirm-no")
    assert _opens(new_page, old)
    page.locator("#player-table tr", has_text="山田 太郎").locator("button.reissue-link").click()
    page.click("#confirm-yes")
    expect(page.locator("#slips-summary")).to_contain_text("前のリンクではもうページを開けません")
    expect(page.locator(".slip .badge")).to_contain_text("新しいリンク")
    new = _slip_links(page)["山田 太郎"]
    screenshot(page, "slips-reissued-phone")
    assert new != old and _opens(new_page, new) and not _opens(new_page, old)

    # Printing all slips afterwards prints the new link, and the other players' links as they were.
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-all-slips")
    links = _slip_links(page)
    assert links["山田 太郎"] == new and len(links) == 3
