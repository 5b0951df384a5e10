"""A webhook stopped after its deliveries kept failing is shown on its organizer's dashboard, on a phone (issue 25)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from taikai.webhooks import net
from taikai.webhooks.models import Webhook
from tests.factories import PHONE, NewPage, make_user, new_event, screenshot

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-venue-password-1"


def test_the_organizer_sees_a_stopped_webhook_on_the_dashboard(new_page: NewPage) -> None:
    organizer = make_user("org_hooks", organizer=True, password=PASSWORD)
    event = new_event(organizer, 2, name="第3回 原宿チャンピオンシップ")
    Webhook.objects.create(
        event=event,
        url="https://discord.com/api/webhooks/123456789012345678/very-secret-token-that-is-the-password",
        secret="s" * 64,
        created_by=organizer,
        active=False,
        disabled_at=timezone.now(),
        last_error=net.NO_ANSWER,
        skipped=5,
        gave_up_in_row=5,
    )
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", "org_hooks")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    notice = page.locator("#stopped-webhooks")
    expect(notice).to_contain_text("停止した Webhook", timeout=30_000)
    expect(notice).to_contain_text("第3回 原宿チャンピオンシップ")
    expect(notice).to_contain_text("https://discord.com/…")
    expect(notice).to_contain_text("応答なし")
    assert "very-secret-token" not in page.content()  # the path of a Discord webhook is its password
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    screenshot(page, "webhook-stopped-ja-phone")
