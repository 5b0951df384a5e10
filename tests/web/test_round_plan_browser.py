"""Issue 22, finding 6 on the organizer's phone: the console says the Swiss rounds and the top cut are provisional
for today's check-ins, round 1 fixes them, and the organizer changes them with the console's form."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import registration
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PHONE, NewPage, make_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organizer_sees_and_changes_the_rounds_and_the_cut_on_a_phone(new_page: NewPage) -> None:
    from django.contrib.auth import get_user_model

    username, password = ensure_first_organizer()
    organizer = get_user_model().objects.get(username=username)
    event = make_event(organizer, 17, checked_in=False, format=Event.Format.SWISS_CUT)
    for player in event.players.order_by("id")[1:]:  # one no-show
        registration.check_in(player, by=Staff(organizer))

    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.goto(f"{page.base_url}/events/{event.pk}/")
    card = page.locator("#round-plan-card")
    expect(card.locator("#round-plan")).to_contain_text("スイスドロー 4 回戦・上位 4 名で決勝トーナメント")
    expect(card.locator("#round-plan-provisional")).to_contain_text("いまチェックイン済みの 16 名")
    card.scroll_into_view_if_needed()
    screenshot(page, "round-plan-provisional-phone")

    page.click("button.primary:has-text('次のラウンドを組む')")
    page.goto(f"{page.base_url}/events/{event.pk}/")
    expect(card.locator("#round-plan-fixed")).to_contain_text("チェックイン 16 名で確定")
    card.locator("input[name=swiss_rounds]").fill("5")
    card.locator("input[name=top_cut]").fill("8")
    card.locator("#round-plan-save").click()
    expect(page.locator("body")).to_contain_text("スイスドローの回戦数と決勝トーナメントの人数を保存しました。")
    expect(page.locator("#round-plan")).to_contain_text("スイスドロー 5 回戦・上位 8 名で決勝トーナメント")
    page.locator("#round-plan-card").scroll_into_view_if_needed()
    screenshot(page, "round-plan-changed-phone")
    saved = Event.objects.get(pk=event.pk)
    assert (saved.swiss_rounds, saved.top_cut) == (5, 8)

    public = new_page(viewport=PHONE, locale="ja-JP")
    public.goto(f"{public.base_url}/e/{event.pk}/")
    expect(public.locator("#round-plan")).to_contain_text("スイスドロー 5 回戦・上位 8 名で決勝トーナメント")
    screenshot(public, "round-plan-public-phone")
