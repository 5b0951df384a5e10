"""Slips the KTS way (issue 24, item 20), at the desk's 1920x1080: players imported from a CSV file have their
link from the import, so every registered player's slip prints before the doors open, eight to an A4 page with
QR codes large enough to scan; over plain http each slip says to keep the page open (item 23)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from playwright.sync_api import FloatRect, Page, expect
from pytest_django import Settings

from taikai.events.actors import Staff
from taikai.events.models import Event, Player
from taikai.events.services import csv_import
from taikai.events.services import events as event_services
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PROJECTOR, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAMILY = ["山田", "阿部", "鈴木", "佐藤", "高橋", "田中", "伊藤", "渡辺", "中村"]
KANA = ["やまだ", "あべ", "すずき", "さとう", "たかはし", "たなか", "いとう", "わたなべ", "なかむら"]
CSV = "名前,ふりがな,カードゲームID,連絡先\n" + "".join(
    f"{name} 太郎,{kana} たろう,{5000000000 + i},\n" for i, (name, kana) in enumerate(zip(FAMILY, KANA, strict=True))
)
MM = 96 / 25.4  # CSS pixels per millimetre


def _desk(new_page: NewPage, settings: Settings, locale: str = "ja-JP") -> tuple[Any, Event]:
    from django.contrib.auth import get_user_model

    username, _password = ensure_first_organizer() or ("organizer", "")
    user = get_user_model().objects.get(username=username)
    user.set_password("desk-password-42")
    user.save()
    event = event_services.create_event(
        by=Staff(user), name="KTS 形式 案内票テスト杯", date=dt.date(2026, 12, 6), ruleset_name="harajuku-cs-1.2"
    )
    page = new_page(viewport=PROJECTOR, locale=locale)
    page.set_default_timeout(30_000)  # a shared 2-core machine: the first page can take its time
    if locale != "ja-JP":
        page.context.add_cookies([{"name": "taikai_language", "value": "en", "url": page.base_url}])
    settings.TAIKAI_PUBLIC_URL = page.base_url  # plain http: the slips say to keep the page open
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "desk-password-42")
    page.click("button.primary")
    return page, event


def _pdf_pages(page: Page) -> int:
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def _print_view(page: Page, name: str) -> list[FloatRect]:
    """The slips as chromium prints them on A4 (less the 8 mm margins); each slip's box."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": round(194 * MM), "height": round(281 * MM)})
    screenshot(page, name)
    # Nothing on a slip is cut off by its fixed height.
    assert page.evaluate("[...document.querySelectorAll('.slips .slip')].every(s => s.scrollHeight <= s.clientHeight)")
    return [slip.bounding_box() for slip in page.locator(".slips .slip").all()]


def test_imported_players_slips_print_eight_to_an_a4_page(new_page: NewPage, settings: Settings) -> None:
    page, event = _desk(new_page, settings)
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.set_input_files(
        "input[name='csv-file']", files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": CSV.encode()}]
    )
    page.locator("form[action$='/import/'] button").click()
    expect(page.locator(".messages")).to_contain_text("9")
    # Every imported player holds a link the desk can print (nobody is checked in yet).
    assert all(p.access_token_seed and p.access_token_hash for p in Player.objects.filter(event=event))
    assert not Player.objects.filter(event=event, checked_in_at__isnull=False).exists()
    screenshot(page, "slips-kts-players-1920")

    page.click("#print-registered-slips")
    expect(page.locator(".slips .slip")).to_have_count(9)
    expect(page.locator("#slips-summary")).to_contain_text("0 人に新しいリンクを発行、9 人は今のリンクのまま。")
    expect(page.locator(".slip .keep-open").first).to_contain_text("このページを開いたままにしてください")
    screenshot(page, "slips-kts-screen-1920")

    boxes = _print_view(page, "slips-kts-print")
    # The code itself (its quiet zone left out) is at least 25 mm wide: scannable from arm's length.
    code = page.evaluate("document.querySelector('.slips .slip .qr svg path').getBoundingClientRect().width")
    assert code >= 25 * MM
    assert len({round(b["x"]) for b in boxes}) == 2  # two columns
    assert boxes[7]["y"] + boxes[7]["height"] <= 281 * MM  # the eighth slip ends on the first page
    assert _pdf_pages(page) == 2  # nine slips: eight on the first page, the ninth on the next
    page.evaluate("document.querySelectorAll('.slips .slip')[8].remove()")
    assert _pdf_pages(page) == 1


def test_the_english_slips_fit_as_well(new_page: NewPage, settings: Settings) -> None:
    page, event = _desk(new_page, settings, locale="en-US")
    csv_import.import_players_csv(event, by=Staff(event.created_by), data=CSV.encode())
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-registered-slips")
    expect(page.locator(".slip .keep-open").first).to_contain_text("Keep this page open.")
    boxes = _print_view(page, "slips-kts-print-en")
    assert boxes[7]["y"] + boxes[7]["height"] <= 281 * MM and _pdf_pages(page) == 2
