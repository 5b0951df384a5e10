"""The first browser test: the organizer logs in and sees the dashboard, in Japanese, then in English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PHONE, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organizer_logs_in_and_switches_language(new_page: NewPage) -> None:
    created = ensure_first_organizer()
    assert created is not None
    username, password = created

    page = new_page(viewport=PHONE)
    page.goto(page.base_url + "/")
    assert page.url.endswith("/login/?next=/")
    expect(page.locator("h1")).to_have_text("ログイン")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "wrong password")
    page.click("button.primary")
    assert "ユーザー名またはパスワードが正しくありません" in page.locator("[role=alert]").inner_text()

    page.fill("input[name=password]", password)
    page.click("button.primary")
    expect(page.locator("h1")).to_have_text("ダッシュボード")
    expect(page.locator("body")).to_contain_text(f"{username} としてログイン中です")
    screenshot(page, "dashboard-ja-phone")

    page.click("a.lang[lang=en]")
    expect(page.locator("h1")).to_have_text("Dashboard")
    expect(page.locator("body")).to_contain_text(f"Signed in as {username}.")
    page.goto(page.base_url + "/")  # the choice is remembered
    expect(page.locator("h1")).to_have_text("Dashboard")
    screenshot(page, "dashboard-en-phone")


def test_second_start_creates_no_second_organizer() -> None:
    assert ensure_first_organizer() is not None
    assert ensure_first_organizer() is None
