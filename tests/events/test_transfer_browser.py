"""The organizer imports an exported event at 1920x1080 (issue 24, item 22): the copy opens marked as an imported
copy on its console and on the dashboard, beside the original; a file of an unknown format version is refused
in words, saying which versions this server reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import FilePayload, expect

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import transfer
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PROJECTOR, NewPage, SitePage, make_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _upload(page: SitePage, data: dict[str, Any]) -> None:
    page.goto(page.base_url + "/events/import/")
    body = json.dumps(data, ensure_ascii=False).encode()
    page.set_input_files(
        "input[name=file]", files=[FilePayload(name="e.json", mimeType="application/json", buffer=body)]
    )
    page.click("button.primary")


def test_an_imported_event_says_it_is_a_copy_and_a_newer_file_is_refused(new_page: NewPage) -> None:
    from django.contrib.auth import get_user_model

    username, _password = ensure_first_organizer() or ("organizer", "")
    user = get_user_model().objects.get(username=username)
    user.set_password("desk-password-42")
    user.save()
    event = make_event(user, 4, name="冬の CS 本番")
    exported = transfer.export_event(event, by=Staff(user))
    page = new_page(viewport=PROJECTOR, locale="ja-JP")
    page.set_default_timeout(30_000)  # a shared 2-core machine: the first page can take its time
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "desk-password-42")
    page.click("button.primary")

    _upload(page, {**exported, "version": 3})
    expect(page.locator(".messages")).to_contain_text("形式のバージョン 3")
    expect(page.locator(".messages")).to_contain_text("バージョン 1, 2")
    screenshot(page, "import-newer-version-refused-1920")
    assert Event.objects.count() == 1

    _upload(page, exported)
    expect(page.locator("h1 .imported-copy")).to_have_text("取り込んだコピー")
    screenshot(page, "import-copy-console-1920")
    page.goto(page.base_url + "/events/")
    rows = page.locator("tbody tr", has_text="冬の CS 本番")
    expect(rows).to_have_count(2)
    expect(page.locator("tbody .imported-copy")).to_have_count(1)
    expect(page.locator("tbody .imported-from")).to_contain_text("元の大会: 冬の CS 本番")
    screenshot(page, "import-copy-dashboard-1920")
