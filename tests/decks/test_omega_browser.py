"""Issue 26: a player pastes a YGO Omega deck code on a phone; the list is read as EDOPro reads the
code, and the player's page offers the registered deck back as an Omega code beside .ydk and ydke://."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.cards.formats import read_omega, read_ydk, sort_extra, write_omega
from taikai.decks.models import DeckRegistration
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import links
from tests.factories import PHONE, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_registers_an_omega_code_and_downloads_it_back(
    new_page: NewPage, real_cards: None, event: Event, organizer: User
) -> None:
    from tests.factories import SAMPLE_TEXT

    sample = read_ydk(SAMPLE_TEXT)
    player = event.players.order_by("id").first()
    token = links.issue_access(player, by=Staff(organizer))
    phone = new_page(viewport=PHONE, locale="ja-JP")
    phone.goto(f"{phone.base_url}/p/{token}/deck/")
    phone.fill("textarea[name=text]", write_omega(sample))
    phone.click("button[name=submit_deck]")
    assert "使用可能です" in phone.locator(".messages").inner_text()
    registration = DeckRegistration.objects.get(player=player)
    assert registration.format == "omega" and registration.deck == sample

    link = phone.locator(".deck-export a", has_text="YGO Omega デッキコード")
    downloaded = phone.request.get(phone.base_url + link.get_attribute("href")).text()
    extra = set(sample.extra)
    assert sort_extra(read_omega(downloaded), lambda p: p in extra) == sample
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    link.scroll_into_view_if_needed()
    screenshot(phone, "deck-phone-omega")
