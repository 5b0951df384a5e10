"""Issue 25, item 6 on the organizer's phone: the console says self-registration is refusing people, the
organizer lifts the lockout there and raises the cap for a venue queue on the limits page."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.services.accounts import ensure_first_organizer
from taikai.security.services import set_limits
from tests.factories import PHONE, NewPage, make_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organizer_sees_a_lockout_lifts_it_and_raises_the_cap_on_a_phone(new_page: NewPage) -> None:
    from django.contrib.auth import get_user_model

    username, password = ensure_first_organizer()
    organizer = get_user_model().objects.get(username=username)
    event = make_event(organizer, 0, checked_in=False)
    set_limits(event, by=Staff(organizer), version=0, register_per_event=12)
    for i in range(13):  # the 13th address finds the form closed for the whole event
        Client(REMOTE_ADDR=f"10.20.0.{i}").post(
            f"/e/{event.pk}/register/", {"name": f"来場者{i}", "card_game_id": f"94{i:08d}"}
        )

    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.goto(f"{page.base_url}/events/{event.pk}/")
    expect(page.locator("#lockout-register")).to_contain_text("まで全員の受付を停止中", timeout=30_000)
    screenshot(page, "lockout-console-phone")
    page.click("#lift-lockout")
    expect(page.locator("body")).to_contain_text("受付停止を解除しました", timeout=30_000)
    expect(page.locator("#lockouts")).to_have_count(0)

    page.click("#anonymous-limits")
    page.fill("input[name=register_per_address]", "60")
    screenshot(page, "anonymous-limits-phone")
    page.click("#limits-save")
    expect(page.locator("body")).to_contain_text("保存しました", timeout=30_000)
    expect(page.locator("input[name=register_per_address]")).to_have_value("60")
