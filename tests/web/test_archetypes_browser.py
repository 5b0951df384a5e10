"""Issue 16 on the organizer's phone: the console says the declared decks are public only after the event, the
organizer publishes them after a page that says what that shows, and the public charts page then has the
metagame."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from taikai.events.models import Event
from taikai.events.services.accounts import ensure_first_organizer
from tests.events.test_archetypes_publication import running_event
from tests.factories import PHONE, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organizer_publishes_the_deck_archetypes_on_a_phone(new_page: NewPage) -> None:
    from django.contrib.auth import get_user_model

    username, password = ensure_first_organizer()
    event = running_event(get_user_model().objects.get(username=username))
    spectator = new_page(viewport=PHONE)
    spectator.goto(f"{spectator.base_url}/e/{event.pk}/charts/")
    expect(spectator.locator("#chart-attendance")).to_be_visible()
    expect(spectator.locator("#chart-metagame")).to_have_count(0)  # private while the event runs

    page = new_page(viewport=PHONE)
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.goto(f"{page.base_url}/events/{event.pk}/")
    card = page.locator("#archetypes")
    expect(card.locator("#archetypes-state")).to_have_text("大会終了後に公開")
    expect(card).to_contain_text("次の対戦相手のデッキ")
    card.scroll_into_view_if_needed()
    screenshot(page, "archetypes-console-phone")
    page.click("#archetypes-publish")
    expect(page.locator("#confirm-title")).to_have_text("デッキタイプを公開しますか？")
    expect(page.locator("#confirm-yes")).to_have_text("デッキタイプを公開する")
    screenshot(page, "archetypes-confirm-phone")
    assert Event.objects.get(pk=event.pk).archetypes_published_at is None  # asking changed nothing
    page.click("#confirm-yes")
    expect(page.locator("body")).to_contain_text("デッキタイプを公開しました。")
    expect(page.locator("#archetypes-state")).to_contain_text("公開中")
    expect(page.locator("#archetypes-hide")).to_have_text("デッキタイプを非公開に戻す")
    page.locator("#archetypes").scroll_into_view_if_needed()
    screenshot(page, "archetypes-published-phone")
    assert Event.objects.get(pk=event.pk).archetypes_published_at is not None

    spectator.reload()
    expect(spectator.locator("#chart-metagame")).to_be_visible()
    expect(spectator.locator("#chart-metagame")).to_contain_text("ティアラメンツ")
    screenshot(spectator, "archetypes-public-metagame-phone")
