"""A player registers a deck on a phone; the organizer sees who is missing; the deck sheet prints on A4."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from playwright.sync_api import FilePayload, ViewportSize

from taikai.decks.demo import FORBIDDEN_SHEET, LEGAL_SHEET, load_demo_cards
from taikai.decks.models import DeckRegistration
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import links
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import ARTIFACTS, PHONE, NewPage, make_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
A4 = ViewportSize(width=794, height=1123)  # 210 x 297 mm at 96 dpi


def test_a_player_fixes_a_list_on_a_phone_and_the_organizer_prints_it(new_page: NewPage) -> None:
    username, password = ensure_first_organizer() or ("", "")
    organizer = get_user_model().objects.get(username=username)
    load_demo_cards()
    event = make_event(organizer, 4, ruleset_name="harajuku-cs-1.2", banlist_name="OCG 2026.7 (demo excerpt)")
    player = event.players.order_by("id").first()
    token = links.issue_access(player, by=Staff(organizer))

    phone = new_page(viewport=PHONE, locale="ja-JP")
    phone.goto(f"{phone.base_url}/p/{token}/")
    phone.click("text=デッキ登録")
    phone.fill("textarea[name=text]", FORBIDDEN_SHEET)
    phone.click("button[name=submit_deck]")
    problems = phone.locator(".deck-problems")
    assert "「強欲な壺」は禁止カードです" in problems.inner_text()
    assert "使用不可" in phone.locator(".badge.bad").first.inner_text()
    screenshot(phone, "deck-phone-problem")

    # the text box keeps what was sent: change the one card and send again
    sent = phone.input_value("textarea[name=text]")
    phone.fill("textarea[name=text]", sent.replace("強欲な壺", "サイクロン"))
    phone.click("button[name=submit_deck]")
    assert "使用可能です" in phone.locator(".messages").inner_text()
    assert phone.locator(".deck-problems").count() == 0
    screenshot(phone, "deck-phone-legal")
    registration = DeckRegistration.objects.get(player=player)
    assert registration.legal and registration.version == 2
    assert LEGAL_SHEET.replace("\n", "") == registration.source_text.replace("\n", "")

    desk = new_page()
    desk.goto(desk.base_url + "/login/")
    desk.fill("input[name=username]", username)
    desk.fill("input[name=password]", password)
    desk.click("button.primary")
    desk.goto(f"{desk.base_url}/events/{event.pk}/decks/")
    chase = desk.locator("#chase").inner_text()
    others = [p.name for p in event.players.exclude(pk=player.pk)]
    assert all(name in chase for name in others) and player.name not in chase
    assert "未提出" in chase
    screenshot(desk, "deck-organizer")

    sheet = new_page(viewport=A4)
    signed_in = desk.context.cookies()  # the organizer's session, for the sheet's context on the same server
    sheet.context.add_cookies(
        [{"name": c["name"], "value": c["value"], "domain": c["domain"], "path": c["path"]} for c in signed_in]
    )
    sheet.goto(f"{sheet.base_url}/events/{event.pk}/decks/{player.pk}/sheet/")
    assert "デッキ記入シート" in sheet.locator("h1").inner_text()
    sheet.emulate_media(media="print")
    screenshot(sheet, "deck-sheet-print")
    pdf = sheet.pdf(format="A4", print_background=True)
    (ARTIFACTS / "deck-sheet.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one A4 page

    sheet.goto(f"{sheet.base_url}/events/{event.pk}/decks/{player.pk}/check/")
    screenshot(sheet, "deck-check-print")
    pdf = sheet.pdf(format="A4", print_background=True)
    (ARTIFACTS / "deck-check.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 2


def test_a_player_whose_later_list_is_illegal_reads_that_the_registered_one_stays(
    new_page: NewPage, real_cards: None, event: Event, organizer: User
) -> None:
    # Issue 22, finding 7 (DECK-9, DECK-4): on the real card data, the sample deck is registered from a .ydk file;
    # the same deck with Pot of Greed is sent later from a .ydk file and is not accepted.
    from django.utils import timezone

    from taikai.decks.models import RejectedDeckList
    from tests.factories import SAMPLE_TEXT

    player = event.players.order_by("id").first()
    token = links.issue_access(player, by=Staff(organizer))
    phone = new_page(viewport=PHONE, locale="ja-JP")
    phone.goto(f"{phone.base_url}/p/{token}/deck/")
    ydk = "application/octet-stream"
    phone.set_input_files(
        "input[name=file]", FilePayload(name="sample_deck.ydk", mimeType=ydk, buffer=SAMPLE_TEXT.encode())
    )
    phone.click("button[name=submit_deck]")
    assert "使用可能です" in phone.locator(".messages").inner_text()

    forbidden = SAMPLE_TEXT.replace("5318639", "55144522", 1)  # Mystical Space Typhoon -> Pot of Greed
    phone.set_input_files("input[name=file]", FilePayload(name="new_deck.ydk", mimeType=ydk, buffer=forbidden.encode()))
    phone.click("button[name=submit_deck]")
    assert "受理されませんでした" in phone.locator(".messages").inner_text()
    rejected = RejectedDeckList.objects.get(player=player)
    sent_at = timezone.localtime(rejected.submitted_at).strftime("%H:%M")
    notice = phone.locator(".deck-rejected")
    text = notice.inner_text()
    assert "登録されているリストは引き続き" in text and "（バージョン 1）" in text
    assert f"{sent_at} に送ったリストは、次の理由で受理されませんでした" in text
    assert "「強欲な壺」は禁止カードです" in text
    assert notice.bounding_box()["y"] < phone.locator("textarea[name=text]").bounding_box()["y"]  # read first
    assert "使用可能" in phone.locator(".badge.ok").first.inner_text()  # the registered list, still legal
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the phone
    screenshot(phone, "deck-phone-not-accepted")
    registration = DeckRegistration.objects.get(player=player)
    assert registration.legal and registration.version == 1 and 55144522 not in registration.main
